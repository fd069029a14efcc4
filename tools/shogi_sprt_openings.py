#!/usr/bin/env python3
"""Writes openings for shogi matches between two builds of qiyi
(`bench_positions/shogi_sprt_openings.sfen`): six random plies from the start (cshogi's
legal moves), kept when qiyi itself (the build named) scores the position within 150
centipawns at depth 6. At fixed nodes a search repeats itself, so a self-match needs as
many openings as games; the 14 of the project's `shogi_openings.sfen` (kept outside the
repository) stay held out for matches against other engines.

    python3 tools/shogi_sprt_openings.py 300 7 target/release/qiyi \
        bench_positions/shogi_sprt_openings.sfen
"""
import argparse
import random

import cshogi

from engine import Engine


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("count", type=int, help="how many openings")
    ap.add_argument("seed", type=int)
    ap.add_argument("engine", help="the qiyi binary that judges them")
    ap.add_argument("out", help="the file to write")
    args = ap.parse_args()
    count, seed, out = args.count, args.seed, args.out
    rng = random.Random(seed)
    qiyi = Engine([args.engine, "--game", "shogi"])
    seen, lines = set(), []
    while len(lines) < count:
        board = cshogi.Board()
        moves = []
        for _ in range(6):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(cshogi.move_to_usi(move))
            board.push(move)
        if board.is_game_over() or board.sfen() in seen:
            continue
        qiyi.send("position startpos moves " + " ".join(moves))
        _, score = qiyi.go("depth 6")
        if score is None or score[0] != "cp" or abs(score[1]) > 150:
            continue
        seen.add(board.sfen())
        lines.append("startpos moves " + " ".join(moves))
    qiyi.quit()
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
