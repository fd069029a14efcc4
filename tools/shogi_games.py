#!/usr/bin/env python3
"""Plays fast Fairy-Stockfish shogi self-play games and writes their quiet positions,
labelled with the game's result and Fairy-Stockfish's score, for `qiyi tune --game shogi`.

The shogi counterpart of `chess_games.py`, for the same reasons: the labels are only as good
as the play that made them, and a few thousand nodes a move of Fairy-Stockfish already
play far better than the evaluation being tuned; random plies after the book opening make
unbalanced positions (which teach the piece values) and keep the games apart.

A position is written when the side to move is not in check and the chosen move is
neither a capture nor a promotion (a quiet position, which a static evaluation can judge
at all), from ply 12 on. cshogi referees: checkmate, repetition (any repetition ends the
game here: as data it is a draw or, with perpetual check, a loss), the entering-king
declaration.

Output lines: `<SFEN> | <result> | <score>`: the result from sente's view (1, 0.5 or 0)
and the score in centipawns from sente's view.

Usage: python3 tools/shogi_games.py --games 3000 --workers 2 --out shogi_games.txt \
           --openings shogi_openings.sfen

`--openings` names the book: the project's 14 openings, `shogi_openings.sfen`, kept outside
the repository.
"""
import cshogi

import selfplay


def read_openings(path):
    """The book's lines, each read by `opening` when a game starts."""
    return [line.strip() for line in open(path) if line.strip()]


def opening(line):
    """A board from an openings-file line: SFEN, `startpos`, or either with `moves`."""
    board = cshogi.Board()
    words = line.split()
    if words[0] == "startpos":
        rest = words[1:]
    elif words[0] == "sfen":
        board.set_sfen(" ".join(words[1:5]))
        rest = words[5:]
    else:
        board.set_sfen(" ".join(words[:4]))
        rest = words[4:]
    if rest and rest[0] == "moves":
        for usi in rest[1:]:
            board.push_usi(usi)
    return board


def play(engine, openings, rng):
    """One game; returns (quiet positions with scores, result from sente's view)."""
    nodes = rng.randint(3000, 8000)
    board = opening(rng.choice(openings))
    for _ in range(rng.randint(4, 12)):
        moves = list(board.legal_moves)
        if not moves:
            return [], None
        board.push(rng.choice(moves))
    engine.new_game()
    quiet = []
    winning = 0
    for ply in range(400):
        sente = board.turn == cshogi.BLACK
        if board.is_game_over():
            return quiet, 0.0 if sente else 1.0
        repetition = board.is_draw()
        if repetition == cshogi.REPETITION_DRAW:
            return quiet, 0.5
        if repetition in (cshogi.REPETITION_WIN, cshogi.REPETITION_SUPERIOR):
            return quiet, 1.0 if sente else 0.0
        if repetition in (cshogi.REPETITION_LOSE, cshogi.REPETITION_INFERIOR):
            return quiet, 0.0 if sente else 1.0
        usi, score = engine.best(f"sfen {board.sfen()}", nodes)
        if usi == "win":
            return quiet, 1.0 if sente else 0.0
        if usi == "resign":
            return quiet, 0.0 if sente else 1.0
        move = board.move_from_usi(usi)
        if not board.is_legal(move):
            return [], None
        sente_score = score if sente else -score
        if (
            ply >= 12
            and not board.is_check()
            and cshogi.move_cap(move) == 0
            and not cshogi.move_is_promotion(move)
            and abs(score) < selfplay.MATE
        ):
            quiet.append((board.sfen(), sente_score))
        # Adjudicate clear wins to spend the time on undecided games.
        if abs(sente_score) < 2000:
            winning = 0
        elif winning * sente_score > 0:
            winning += 1 if sente_score > 0 else -1
        else:
            winning = 1 if sente_score > 0 else -1
        if abs(winning) >= 6:
            return quiet, 1.0 if winning > 0 else 0.0
        board.push(move)
    return quiet, 0.5


if __name__ == "__main__":
    selfplay.main(__doc__, read_openings, play, games=3000,
                  engine=("--engine", "/usr/games/fairy-stockfish"),
                  options=["UCI_Variant=shogi", "Threads=1", "USI_Hash=16"], protocol="usi",
                  openings_help="SFEN book the games start from (the project's shogi_openings.sfen)",
                  report_every=20)
