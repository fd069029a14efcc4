#!/usr/bin/env python3
"""Writes openings for shogi matches between two builds of qiyi
(`bench_positions/shogi_sprt_openings.sfen`): six random plies from the start (cshogi's
legal moves), kept when qiyi itself (the build named) scores the position within 150
centipawns at depth 6. At fixed nodes a search repeats itself, so a self-match needs as
many openings as games; the 14 of the project's `shogi_openings.sfen` (kept outside the
repository) stay held out for matches against other engines.

    python3 docs/tools/shogi_sprt_openings.py 300 7 target/release/qiyi \
        bench_positions/shogi_sprt_openings.sfen
"""
import random
import subprocess
import sys

import cshogi


def main():
    count, seed, engine, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rng = random.Random(seed)
    qiyi = subprocess.Popen([engine, "--game", "shogi"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        qiyi.stdin.write(line + "\n")

    def wait_for(prefix):
        while True:
            line = qiyi.stdout.readline()
            if line.startswith(prefix):
                return line

    send("usi")
    wait_for("usiok")
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
        send("position startpos moves " + " ".join(moves))
        send("go depth 6")
        score = None
        while True:
            line = qiyi.stdout.readline()
            if " score cp " in line:
                score = int(line.split(" score cp ")[1].split()[0])
            elif " score mate " in line:
                score = 100000
            if line.startswith("bestmove"):
                break
        if score is None or abs(score) > 150:
            continue
        seen.add(board.sfen())
        lines.append("startpos moves " + " ".join(moves))
    send("quit")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
