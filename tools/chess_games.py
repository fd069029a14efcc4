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
import argparse
import multiprocessing
import random
import sys

import chess

from engine import Engine



class Stockfish:
    """Stockfish on one thread through the shared driver (`tools/engine.py`)."""

    def __init__(self, path):
        self.engine = Engine([path], ["Threads=1", "Hash=16"], protocol="uci")

    def send(self, line):
        self.engine.send(line)

    def new_game(self):
        self.engine.send("ucinewgame")
        self.engine.ready()

    def best(self, fen, nodes):
        """Best move and score (centipawns for the side to move, mates as +-100000)."""
        self.engine.send(f"position fen {fen}")
        move, score = self.engine.go(f"nodes {nodes}")
        if score is None:
            return move, 0
        if score[0] == "mate":
            return move, 100000 if not score[1].startswith("-") else -100000
        return move, score[1]


def play(sf, openings, rng, nodes):
    """One game; returns (quiet FENs, result from White's view)."""
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
        uci, score = sf.best(board.fen(), nodes)
        move = chess.Move.from_uci(uci)
        white_score = score if board.turn == chess.WHITE else -score
        if (
            ply >= 8
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and abs(score) < 100000
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


def worker(args):
    seed, games, path, out, book = args
    rng = random.Random(seed)
    openings = [" ".join(line.split()[:4]) + " 0 1" for line in open(book) if line.strip()]
    openings.append(chess.STARTING_FEN)
    sf = Stockfish(path)
    written = 0
    with open(out, "w") as f:
        for n in range(games):
            fens, result = play(sf, openings, rng, rng.randint(1500, 4000))
            if result is None:
                continue
            for fen, score in fens:
                f.write(f"{fen} | {result} | {score}\n")
            written += len(fens)
            if n % 100 == 99:
                f.flush()
                print(f"worker {seed}: {n + 1} games, {written} positions", file=sys.stderr)
    sf.send("quit")
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--openings", required=True,
                    help="EPD book the games start from (the project's chess_openings.epd)")
    a = ap.parse_args()
    jobs = [
        (a.seed * 1000 + w, a.games // a.workers, a.stockfish, f"{a.out}.{w}", a.openings)
        for w in range(a.workers)
    ]
    with multiprocessing.Pool(a.workers) as pool:
        total = sum(pool.map(worker, jobs))
    with open(a.out, "w") as out:
        for _, _, _, part, _ in jobs:
            out.write(open(part).read())
    print(f"{total} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
