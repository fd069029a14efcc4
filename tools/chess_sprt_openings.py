#!/usr/bin/env python3
"""Writes the openings of the chess SPRT matches (`bench_positions/chess_sprt_openings.epd`):
eight random plies from the start, kept when Debian's Stockfish at depth 12 scores the
position within 40 centipawns. Not the openings of the matches against other engines (the
project's `chess_openings.epd`, kept outside the repository), which stay held out.

    python3 tools/chess_sprt_openings.py 500 7 bench_positions/chess_sprt_openings.epd
"""
import argparse
import random

import chess
import chess.engine

from engine import uci


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("count", type=int, help="how many openings")
    ap.add_argument("seed", type=int)
    ap.add_argument("out", help="the file to write")
    ap.add_argument("--stockfish", default="/usr/games/stockfish", help="the judge (a UCI engine)")
    args = ap.parse_args()
    count, seed, out = args.count, args.seed, args.out
    rng = random.Random(seed)
    stockfish = uci([args.stockfish])
    seen, lines = set(), []
    while len(lines) < count:
        board = chess.Board()
        for _ in range(8):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.epd() in seen:
            continue
        score = stockfish.analyse(board, chess.engine.Limit(depth=12))["score"].relative
        if score.is_mate() or abs(score.score()) > 40:
            continue
        seen.add(board.epd())
        moves = " ".join(m.uci() for m in board.move_stack)
        lines.append(f'{board.fen()} ;moves "{moves}"')
    stockfish.quit()
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
