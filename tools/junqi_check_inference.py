#!/usr/bin/env python3
"""Checks qiyi's dark-game inference against real games: for every game in `qiyi referee`
record files, and every seat's view (its own lineup, the other three `-`), the position is
sent to a qiyi process in `Info dark` every few plies, and each hidden piece's possible
ranks (from `d`) must contain its true rank (from the same record replayed in the open
game). A record the engine refuses counts as a failure too: it is a real game, so it is
possible.

It also says how readable the lineups were: for each hidden flag still on the board whose
marshal lives (a dead marshal's flag is shown to all by the rules, whatever the lineup),
the odds `d` gives that the flag is where it truly is (50% when the two headquarters look
alike to the seat, 100% when it has found it), averaged by how far the game has gone.
To judge a deployment, compare records of games whose lineups came from it
(`qiyi referee --lineups engine`) with records of the referee's own (`--lineups random`);
`--lineups-of A` counts only the flags of the seats engine A played (from the record's
`# game` lines), so one match against another deployment measures both.

And how sharp the beliefs are: the mean odds `d` gives every hidden piece's true rank, and
their mean log (a rank under `d`'s 0.5% floor counts 0.25%), by the same rows. Compare
two builds on records neither was fitted to, to judge soft evidence.

    python3 tools/junqi_check_inference.py --every 5 games1.rec games2.rec
"""

import argparse
import math
import re
import sys

from engine import Engine
from junqi_baseline import read_board

HIDDEN = re.compile(r"^  ([a-q]\d+) ([SENW]) \{([a-l,]*)\}(.*)$")
# A record's game line: the seats engine A and engine B played.
GAME = re.compile(r"^# game \d+: A \(.*\) ([SENW+]+), B \(.*\) ([SENW+]+);")
# Plies per row of the flag table.
FLAG_ROWS = 40


class Qiyi:
    def __init__(self, path, info):
        self.engine = Engine([path, "--game", "junqi"], protocol=None, strip=False)
        self.ask(f"setoption name Info value {info}")

    def ask(self, *lines):
        """Sends the lines and `isready`; returns what came before `readyok`."""
        self.engine.send("\n".join(lines))
        return self.engine.ask("isready", "readyok")[:-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--qiyi", default="target/release/qiyi")
    parser.add_argument("--every", type=int, default=5, help="check every N-th ply")
    parser.add_argument("--lineups-of", choices="AB",
                        help="count only the flags of the seats this engine played")
    args = parser.parse_args()
    open_engine, dark_engine = Qiyi(args.qiyi, "open"), Qiyi(args.qiyi, "dark")
    games = checked = pieces = failures = 0
    # Per row of FLAG_ROWS plies: the odds given to each hidden flag's true station.
    flag_odds = {}
    # Per row, the odds given to each hidden piece's true rank.
    rank_odds = {}
    for path in args.records:
        # The seats whose flags count: all, or those --lineups-of played in this game.
        counted = set("SENW")
        for line in open(path):
            played = GAME.match(line)
            if played and args.lineups_of:
                counted = set(played.group(1 if args.lineups_of == "A" else 2))
            if not line.startswith("position setup"):
                continue
            games += 1
            head, _, moves = line.strip().partition(" moves ")
            tokens = moves.split()
            lineups = dict(re.findall(r"([SENW]):([a-l]+)", head))
            for k in range(0, len(tokens) + 1, args.every):
                # A seat left without a legal move is out at once in the open game; in the
                # dark one when the referee's out: token says so.
                while k < len(tokens) and tokens[k].startswith("out:"):
                    k += 1
                prefix = " ".join(tokens[:k])
                truth = read_board(open_engine.ask(f"{head} moves {prefix}" if k else head, "d"))
                # Seats whose marshal lives: their flags are still hidden by the rules.
                marshals = {seat for seat, rank in truth.values() if rank == "a"}
                for seat in "SENW":
                    view = " ".join(f"{s}:{lineups[s] if s == seat else '-'}" for s in "SENW")
                    command = f"position setup {view} first S" + (f" moves {prefix}" if k else "")
                    out = dark_engine.ask(command, "d")
                    checked += 1
                    errors = [l for l in out if l.startswith("info string error")]
                    if errors:
                        failures += 1
                        print(f"{path} game {games} ply {k} seat {seat}: {errors[0]}")
                        continue
                    for l in out:
                        m = HIDDEN.match(l)
                        if not m:
                            continue
                        pieces += 1
                        rank = truth.get(m.group(1), ("?", "?"))[1]
                        odds = dict((o[0], float(o[1:-1])) for o in m.group(4).split())
                        rank_odds.setdefault(k // FLAG_ROWS, []).append(odds.get(rank, 0.25))
                        owner = truth[m.group(1)][0]
                        if rank == "l" and owner in marshals and owner in counted:
                            flag_odds.setdefault(k // FLAG_ROWS, []).append(odds.get("l", 0.0))
                        if rank not in m.group(3).split(","):
                            failures += 1
                            print(f"{path} game {games} ply {k} seat {seat}: {m.group(1)} is "
                                  f"{rank}, not in {{{m.group(3)}}}")
    print(f"{games} games, {checked} views, {pieces} hidden pieces checked, {failures} failures")
    print("plies     hidden flags  mean odds on the true station")
    for row in sorted(flag_odds):
        odds = flag_odds[row]
        print(f"{row * FLAG_ROWS:>3}-{(row + 1) * FLAG_ROWS - 1:<3}  {len(odds):>13}  {sum(odds) / len(odds):>5.1f}%")
    print("plies     hidden pieces  mean odds on the true rank  mean ln odds")
    for row in sorted(rank_odds):
        odds = rank_odds[row]
        mean_log = sum(math.log(o / 100) for o in odds) / len(odds)
        print(f"{row * FLAG_ROWS:>3}-{(row + 1) * FLAG_ROWS - 1:<3}  {len(odds):>14}  "
              f"{sum(odds) / len(odds):>25.1f}%  {mean_log:>12.3f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
