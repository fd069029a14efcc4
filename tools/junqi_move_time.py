#!/usr/bin/env python3
"""Times qiyi's moves in the Junqi dark game, as a referee sees them: for positions taken
from `qiyi referee --out` records, each seat in turn told only its own lineup, the time
from `position` sent to `bestmove` read at `go movetime T`, and the worlds the move
searched and what they are worth (its last `info ... string worlds N independent I`).

    python3 tools/junqi_move_time.py --qiyi target/release/qiyi --movetime 1000 \\
        --moves 80 --load 3 games.rec

prints the median, 90th percentile and slowest move, the overshoot past the movetime, and
the worlds (and independent worlds) per move and per second. `--depth D` holds every
world at depth D (`go depth D movetime T`), so that builds are compared on worlds of
the same cost; without it each searches as it plays. `--load N` keeps N busy loops running
meanwhile (a loaded machine: the issue's overshoot figure is measured on two cores under
load); several `--qiyi` builds are timed side by side, each position sent to every build
in turn, so that two builds meet the same load.
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


def ask(engine, case, movetime, depth):
    """(seconds, worlds, independent worlds, the engine's own clock at its last report) for
    one move, or None if the seat told its lineup is not to move."""
    start = time.monotonic()
    engine.send(case)
    engine.send("go %smovetime %d" % ("" if depth is None else "depth %d " % depth, movetime))
    seen = []
    while True:
        line = engine.line()
        seen.append(line)
        if line.startswith("bestmove"):
            break
        # A seat the engine was not given is to move: an error and no answer.
        if line.startswith("info string error"):
            return None
    took = time.monotonic() - start
    reports = [l for l in seen if " string worlds " in l]
    said = reports[-1].split(" string worlds ")[1].split() if reports else ["0"]
    worlds = int(said[0])
    independent = float(said[2]) if len(said) > 2 and said[1] == "independent" else worlds
    # The engine's own clock at its last report: what the rest of the wait was not.
    inside = int(reports[-1].split(" time ")[1].split()[0]) if reports else 0
    return took, worlds, independent, inside


def time_builds(builds, cases, movetime, count, depth):
    """Per build, the (seconds, worlds, independent worlds, engine clock) of its moves
    over the first `count` positions in which the seat told its lineup is to move. Every
    position goes to each build in turn, the order alternating, so that the builds meet
    the same load and the same drift; each keeps its process (and its belief) throughout."""
    engines = [Engine([qiyi, "--game", "junqi"], ["Info=dark"], protocol="ugi") for qiyi in builds]
    moves = [[] for _ in builds]
    for n, case in enumerate(cases):
        if len(moves[0]) >= count:
            break
        order = list(range(len(builds)))
        if n % 2:
            order.reverse()
        for i in order:
            answer = ask(engines[i], case, movetime, depth)
            if answer is not None:
                moves[i].append(answer)
    for engine in engines:
        engine.quit()
    return [list(zip(*m)) if m else [(), (), (), ()] for m in moves]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="records written by `qiyi referee --out`")
    parser.add_argument("--qiyi", action="append", required=True, help="a qiyi binary (repeat to compare builds)")
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds a move (default 1000)")
    parser.add_argument("--moves", type=int, default=80, help="moves timed per build and round (default 80)")
    parser.add_argument("--every", type=int, default=3, help="a position every N plies of a game (default 3)")
    parser.add_argument("--load", type=int, default=0, help="busy loops kept running meanwhile (default 0)")
    parser.add_argument("--depth", type=int, help="every world searched to this depth (default: as in play)")
    parser.add_argument("--rounds", type=int, default=2, help="times the positions are timed (default 2)")
    args = parser.parse_args()

    cases = list(positions(args.records, args.every))
    if not cases:
        sys.exit("no `position setup` line in %s" % ", ".join(args.records))
    burners = [multiprocessing.Process(target=burn, args=(i,), daemon=True) for i in range(args.load)]
    for b in burners:
        b.start()
    try:
        for round_number in range(args.rounds):
            timed = time_builds(args.qiyi, cases, args.movetime, args.moves, args.depth)
            for qiyi, (took, worlds, independent, inside) in zip(args.qiyi, timed):
                if not took:
                    sys.exit("no position had the told seat to move")
                slowest = max(range(len(took)), key=lambda i: took[i])
                ms = sorted(1000 * t for t in took)
                print("%s round %d: %d moves at movetime %d, load %d: median %.0f ms, p90 %.0f, "
                      "slowest %.0f (over by %+.0f; the engine's last report at %d ms); "
                      "worlds a move median %d, mean %.1f, independent median %.0f, "
                      "%.0f a second; %d moves with none"
                      % (qiyi, round_number + 1, len(ms), args.movetime, args.load,
                         statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], ms[-1],
                         ms[-1] - args.movetime, inside[slowest],
                         statistics.median(worlds), statistics.mean(worlds),
                         statistics.median(independent), sum(worlds) / sum(took),
                         worlds.count(0)),
                      flush=True)
    finally:
        for b in burners:
            b.terminate()


if __name__ == "__main__":
    main()
