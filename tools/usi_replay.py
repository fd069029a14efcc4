#!/usr/bin/env python3
"""Replay one game of a `shogi_match.py --log` file through a USI engine and print, for
every position where the chosen side was to move, the move played, the engine's score
and best move at a fixed time, and the start of its PV: a sudden fall in the score marks
the move that lost the game. `--from`/`--to` keep to a stretch of plies, to search it
longer and see how deep the engine gets there.

  python3 tools/usi_replay.py --log games.jsonl --game 1 --side b \
      --engine ./target/release/qiyi --movetime 500
"""
import argparse
import json

from engine import Engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True, help="a shogi_match.py --log file (JSON lines)")
    ap.add_argument("--game", type=int, required=True)
    ap.add_argument("--side", choices=["b", "w"], required=True, help="whose moves to judge")
    ap.add_argument("--engine", required=True, help="command line of the USI engine")
    ap.add_argument("--movetime", type=int, default=500)
    ap.add_argument("--from", dest="first", type=int, default=0, help="first ply to judge")
    ap.add_argument("--to", dest="last", type=int, help="last ply to judge")
    a = ap.parse_args()
    game = next(g for g in map(json.loads, open(a.log)) if g["game"] == a.game)
    start = game["start"]
    engine = Engine(a.engine)
    moves = game["moves"]
    first = 0 if (a.side == "b") == (start.split()[1] == "b") else 1
    last = len(moves) - 1 if a.last is None else min(a.last, len(moves) - 1)
    for ply in range(first, last + 1, 2):
        if ply < a.first:
            continue
        played = f" moves {' '.join(moves[:ply])}" if ply else ""
        engine.send(f"position sfen {start}{played}")
        engine.send(f"go movetime {a.movetime}")
        score, pv, depth = "?", "", "?"
        while True:
            line = engine.line()
            if line.startswith("info") and " score " in line:
                score = line.split(" score ")[1].split(" nodes")[0]
                pv = line.split(" pv ")[1] if " pv " in line else ""
                depth = line.split(" depth ")[1].split()[0]
            if line.startswith("bestmove"):
                break
        best = line.split()[1]
        print(f"ply {ply:3} played {moves[ply]:6} depth {depth:3} score {score:14} "
              f"best {best:6} pv {pv[:48]}")
    engine.quit()


if __name__ == "__main__":
    main()
