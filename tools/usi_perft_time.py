#!/usr/bin/env python3
"""Time `go perft N` over USI, the shogi twin of the project's UCI perft timer
`perft_time.py` (kept outside the repository): the clock starts when `go perft` is
written and stops at the `Nodes searched` line, so process start-up is not counted.
Prints nodes, best and median seconds and best nodes/second.

  python3 tools/usi_perft_time.py --engine ./target/release/qiyi --depth 5
  python3 tools/usi_perft_time.py --engine /usr/games/fairy-stockfish \
      --option UCI_Variant=shogi --depth 5
"""
import argparse
import statistics
import time

from engine import Engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="command line of the USI engine")
    ap.add_argument("--option", action="append", default=[], help="Name=Value, sent with setoption")
    ap.add_argument("--sfen", default="startpos")
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    engine = Engine(a.engine, a.option)
    pos = "position startpos" if a.sfen == "startpos" else "position sfen " + a.sfen
    times, nodes = [], None
    for _ in range(a.repeat):
        engine.send(pos)
        engine.ready()
        t0 = time.perf_counter()
        engine.send("go perft %d" % a.depth)
        line = engine.wait("Nodes searched")
        times.append(time.perf_counter() - t0)
        nodes = int(line.split(":")[1])
    engine.quit()
    best = min(times)
    print("nodes %d  best %.3f s  median %.3f s  best nps %.0f  runs %s"
          % (nodes, best, statistics.median(times), nodes / best, " ".join("%.3f" % t for t in times)))


if __name__ == "__main__":
    main()
