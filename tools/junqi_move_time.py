#!/usr/bin/env python3
"""Times qiyi's moves in the Junqi dark game, as a referee sees them: for positions taken
from `qiyi referee --out` records, each seat in turn told only its own lineup, the time
from `position` sent to `bestmove` read at `go movetime T`, and the worlds the move
searched and what they are worth (its last `info ... string worlds N independent I`).

    python3 tools/junqi_move_time.py --qiyi target/release/qiyi --movetime 1000 \\
        --moves 80 --load 3 games.rec

prints the median, 90th percentile and slowest move, the overshoot past the movetime, and
the worlds (and independent worlds) per move. `--load N` keeps N busy loops running
meanwhile (a loaded machine: the issue's overshoot figure is measured on two cores under
load); several `--qiyi` builds are timed in turn, twice each, so that two builds meet the
same load.
"""
import argparse
import multiprocessing
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine import Engine  # noqa: E402

SEATS = "SENW"


def positions(records, every):
    """`position` lines for each seat, every `every` plies of each recorded game."""
    for path in records:
        with open(path) as f:
            for line in f:
                m = re.match(r"position setup S:(\S+) E:(\S+) N:(\S+) W:(\S+) first (\S)(?: moves (.*))?",
                             line.strip())
                if not m:
                    continue
                lineups, first = m.groups()[:4], m.group(5)
                moves = (m.group(6) or "").split()
                for seat in range(4):
                    setup = " ".join("%s:%s" % (s, lineups[i] if i == seat else "-")
                                     for i, s in enumerate(SEATS))
                    for n in range(0, len(moves), every):
                        tail = " moves " + " ".join(moves[:n]) if n else ""
                        yield "position setup %s first %s%s" % (setup, first, tail)


def burn(_):
    while True:
        pass


def time_build(qiyi, cases, movetime, count):
    """(seconds, worlds, independent worlds, the engine's own clock at its last report) per
    move, over the first `count` positions in which the seat told its lineup is to move."""
    engine = Engine([qiyi, "--game", "junqi"], ["Info=dark"], protocol="ugi")
    took, worlds, independent, inside = [], [], [], []
    for case in cases:
        if len(took) >= count:
            break
        start = time.monotonic()
        engine.send(case)
        engine.send("go movetime %d" % movetime)
        seen = []
        while True:
            line = engine.line()
            seen.append(line)
            if line.startswith("bestmove"):
                break
            # A seat the engine was not given is to move: an error and no answer.
            if line.startswith("info string error"):
                break
        if not seen[-1].startswith("bestmove"):
            continue
        took.append(time.monotonic() - start)
        reports = [l for l in seen if " string worlds " in l]
        said = reports[-1].split(" string worlds ")[1].split() if reports else ["0"]
        worlds.append(int(said[0]))
        independent.append(float(said[2]) if len(said) > 2 and said[1] == "independent" else worlds[-1])
        # The engine's own clock at its last report: what the rest of the wait was not.
        inside.append(int(reports[-1].split(" time ")[1].split()[0]) if reports else 0)
    engine.quit()
    return took, worlds, independent, inside


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="records written by `qiyi referee --out`")
    parser.add_argument("--qiyi", action="append", required=True, help="a qiyi binary (repeat to compare builds)")
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds a move (default 1000)")
    parser.add_argument("--moves", type=int, default=80, help="moves timed per build and round (default 80)")
    parser.add_argument("--every", type=int, default=3, help="a position every N plies of a game (default 3)")
    parser.add_argument("--load", type=int, default=0, help="busy loops kept running meanwhile (default 0)")
    parser.add_argument("--rounds", type=int, default=2, help="times each build is timed (default 2)")
    args = parser.parse_args()

    cases = list(positions(args.records, args.every))
    if not cases:
        sys.exit("no `position setup` line in %s" % ", ".join(args.records))
    burners = [multiprocessing.Process(target=burn, args=(i,), daemon=True) for i in range(args.load)]
    for b in burners:
        b.start()
    try:
        for round_number in range(args.rounds):
            for qiyi in args.qiyi:
                took, worlds, independent, inside = time_build(qiyi, cases, args.movetime, args.moves)
                slowest = max(range(len(took)), key=lambda i: took[i]) if took else 0
                ms = sorted(1000 * t for t in took)
                if not ms:
                    sys.exit("no position had the told seat to move")
                print("%s round %d: %d moves at movetime %d, load %d: median %.0f ms, p90 %.0f, "
                      "slowest %.0f (over by %+.0f; the engine's last report at %d ms); "
                      "worlds a move median %d, mean %.1f, independent median %.0f; "
                      "%d moves with none"
                      % (qiyi, round_number + 1, len(ms), args.movetime, args.load,
                         statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], ms[-1],
                         ms[-1] - args.movetime, inside[slowest],
                         statistics.median(worlds), statistics.mean(worlds),
                         statistics.median(independent), worlds.count(0)),
                      flush=True)
    finally:
        for b in burners:
            b.terminate()


if __name__ == "__main__":
    main()
