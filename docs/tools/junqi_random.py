#!/usr/bin/env python3
"""A random mover for Junqi over UGI, in every Info mode: the baseline opponent of the
dark-game matches in docs/benchmarks.md.

It knows only what its seat is told. A qiyi process, sent the same options and positions,
keeps the rules for it; on `go` it asks that process for the legal moves (`go perft 1`)
and plays one of them uniformly at random (`pass` when there is none).

    qiyi referee --engine "target/release/qiyi --game junqi" \\
        --engine "python3 docs/tools/junqi_random.py --seed 1" --info dark ...
"""

import argparse
import random
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qiyi", default="target/release/qiyi")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = subprocess.Popen(
        [args.qiyi, "--game", "junqi"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )

    def send(line):
        rules.stdin.write(line + "\n")
        rules.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = rules.stdout.readline()
            if not line:
                sys.exit("the rules process ended")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "ugi":
            send("ugi")
            until("ugiok")
            say("id name junqi-random")
            say("id author the qiyi developers")
            say("ugiok")
        elif command == "isready":
            send("isready")
            until("readyok")
            say("readyok")
        elif command in ("setoption", "position", "uginewgame"):
            send(line.strip())
        elif command == "query":
            send(line.strip())
            say(until("response")[-1])
        elif command == "go" and "deploy" in words:
            send("go deploy")
            say(until("deploy")[-1])
        elif command == "go":
            send("go perft 1")
            lines = until("Nodes searched")
            moves = [l.split(":")[0] for l in lines
                     if ": " in l and not l.startswith(("Nodes", "info"))]
            say("bestmove " + (rng.choice(moves) if moves else "pass"))
        elif command == "quit":
            break
    send("quit")
    rules.wait(timeout=5)


if __name__ == "__main__":
    main()
