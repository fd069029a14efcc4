"""Does the engine's move let the opponent mate, where a mate search would have said so?

Takes positions from the end of lost games in a match log (`shogi_match.py --log`): the
loser to move, 2 to 30 plies before the mate. For each, the engine searches under
byoyomi; then, after its move, `go mate` looks for the opponent's mate. Counts by
whether the search saw its own loss (`score mate -N`) and whether the mate search found
one, and prints the positions where it found a mate the search did not see, with how
many iterations the search reported (one means a single legal move, so no choice).

    python3 tools/usi_mate_after.py --log gps.jsonl --loser qiyi \\
        --engine "./qiyi --game shogi" --byoyomi 1000 --mate-ms 30 --positions 60
"""
import argparse
import json
import random

from engine import Engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True, nargs="+")
    ap.add_argument("--loser", default="any", help="the loser's name in the log, or any")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--byoyomi", type=int, default=1000)
    ap.add_argument("--mate-ms", type=int, default=30)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rows = []
    for path in args.log:
        for line in open(path):
            game = json.loads(line)
            if game["reason"] != "checkmate":
                continue
            loser = "black" if game["result_black"] == 0 else "white"
            if args.loser != "any" and game[loser] != args.loser:
                continue
            n = len(game["moves"])
            for back in range(2, 31, 2):
                if n - back >= 0:
                    rows.append((game["start"], game["moves"][: n - back], back))
    random.seed(args.seed)
    random.shuffle(rows)

    engine = Engine(args.engine)

    def search_lines():
        """The engine's lines up to and with `bestmove`."""
        lines = [engine.line()]
        while not lines[-1].startswith("bestmove"):
            lines.append(engine.line())
        return lines

    counts = {}
    for start, moves, back in rows[: args.positions]:
        position = "position sfen " + start + " moves " + " ".join(moves)
        engine.send(position)
        engine.send(f"go btime 0 wtime 0 byoyomi {args.byoyomi}")
        out = search_lines()
        best = out[-1].split()[1]
        if best == "resign":
            counts["resigned"] = counts.get("resigned", 0) + 1
            continue
        saw = any(" score mate -" in line for line in out[-3:])
        iterations = sum(1 for line in out if line.startswith("info depth"))
        engine.send(position + " " + best)
        engine.send(f"go mate {args.mate_ms}")
        answer = engine.wait("checkmate")
        mated = not answer.endswith(("nomate", "timeout"))
        key = ("search saw it" if saw else "search did not") + ", " + ("mate found" if mated else "no mate found")
        counts[key] = counts.get(key, 0) + 1
        if mated and not saw:
            print(f"{back} plies before the end: {best}, {iterations} iterations; {answer}\n  {position}")
    engine.quit()
    print(counts)


if __name__ == "__main__":
    main()
