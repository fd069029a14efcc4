#!/usr/bin/env python3
"""Plays fast Stockfish self-play games and writes their quiet positions, labelled with
the game's result, for `qiyi tune --game chess`.

Why Stockfish games: Texel tuning fits the evaluation to the results of real games, and
the labels are only as good as the play that produced them; a few thousand nodes a move
of Stockfish already plays far better than the engine being tuned. Why random plies after
the book opening: unbalanced positions teach the material values, and they stop the
games from repeating one another.

A position is written when the side to move is not in check and Stockfish's chosen move
is neither a capture nor a promotion (a quiet position, so the static evaluation can be
compared with the result at all), from ply 8 on.

Output lines: `<FEN> | <result> | <score>`: the game's result from White's view (1, 0.5 or
0) and Stockfish's score of the position in centipawns from White's view. A game result
is one noisy bit shared by every position of the game; the score is a judgement of the
position itself, so the tuner can blend the two (`qiyi tune --lambda`) and learn from
far fewer games.

Usage: python3 tools/chess_games.py --games 4000 --workers 2 --out chess_games.txt \
           --openings chess_openings.epd

`--openings` names the book: the project's 20 openings, `chess_openings.epd`, kept outside
the repository.
"""
import chess

import selfplay


def read_openings(path):
    """The book's positions as FENs (an EPD line's four fields, counters added), and the
    start position."""
    openings = [" ".join(line.split()[:4]) + " 0 1" for line in open(path) if line.strip()]
    openings.append(chess.STARTING_FEN)
    return openings


def play(sf, openings, rng):
    """One game; returns (quiet FENs with scores, result from White's view)."""
    nodes = rng.randint(1500, 4000)
    board = chess.Board(rng.choice(openings))
    for _ in range(rng.randint(2, 8)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return [], None
    sf.new_game()
    quiet = []
    winning = 0
    level = 0
    for ply in range(400):
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            if outcome.winner is None:
                return quiet, 0.5
            return quiet, 1.0 if outcome.winner == chess.WHITE else 0.0
        uci, score = sf.best(f"fen {board.fen()}", nodes)
        move = chess.Move.from_uci(uci)
        white_score = score if board.turn == chess.WHITE else -score
        if (
            ply >= 8
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and abs(score) < selfplay.MATE
        ):
            quiet.append((board.fen(), white_score))
        # Adjudicate clear wins and dead draws to spend the time on undecided games.
        if abs(white_score) < 1200:
            winning = 0
        elif winning * white_score > 0:
            winning += 1 if white_score > 0 else -1
        else:
            winning = 1 if white_score > 0 else -1
        if abs(winning) >= 6:
            return quiet, 1.0 if winning > 0 else 0.0
        level = level + 1 if abs(white_score) <= 10 and ply >= 120 else 0
        if level >= 16:
            return quiet, 0.5
        board.push(move)
    return quiet, 0.5


if __name__ == "__main__":
    selfplay.main(__doc__, read_openings, play, games=4000,
                  engine=("--stockfish", "/usr/games/stockfish"),
                  options=["Threads=1", "Hash=16"], protocol="uci",
                  openings_help="EPD book the games start from (the project's chess_openings.epd)",
                  report_every=100)
