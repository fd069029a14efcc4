#!/usr/bin/env python3
"""Training input from Junqi games played through `qiyi referee --out`: every position of
every recorded game (all four lineups known) before a quiet ply, as
`<position> | <result for S+N>`, the form `qiyi tune` reads (with `--score-nodes N`,
`<position> | <result> | <score>`, the score of an open search of N nodes from S+N's view,
the form `qiyi train` reads); or, with `--openings N`, N
start positions that deal the recorded lineups out anew (four drawn at random, a random
first seat), for `qiyi datagen --openings`. The positions are written by qiyi itself
(`d`), so this script knows nothing of the rules.

    python3 tools/junqi_record_positions.py --qiyi target/release/qiyi games.rec > lines.txt
    python3 tools/junqi_record_positions.py --qiyi target/release/qiyi --score-nodes 4000 \
        games.rec > scored.txt
    python3 tools/junqi_record_positions.py --openings 20000 games.rec > openings.txt
"""
import argparse
import random
import re
import subprocess
import sys


def games(path):
    """(result for S+N, setup, plies) of each game in a referee record."""
    result = None
    for line in open(path):
        m = re.match(r"# game \d+: .*?; (A wins|B wins|draw) \(A (S\+N|E\+W)\)", line)
        if m:
            outcome, a_team = m.groups()
            if outcome == "draw":
                result = 0.5
            else:
                a_first = a_team == "S+N"
                result = 1.0 if (outcome == "A wins") == a_first else 0.0
            continue
        m = re.match(r"position (setup .*? first \S)(?: moves (.*))?$", line.strip())
        if m and result is not None:
            yield result, m.group(1), (m.group(2) or "").split()
            result = None


def deal(records, count, rng):
    """`count` openings of four lineups drawn from those the records hold."""
    lineups = set()
    for path in records:
        for _, setup, _ in games(path):
            lineups.update(re.findall(r"[SENW]:([a-l]{25})", setup))
    lineups = sorted(lineups)
    if not lineups:
        sys.exit("no lineups in the records")
    for _ in range(count):
        dealt = [rng.choice(lineups) for _ in "SENW"]
        print("setup S:%s E:%s N:%s W:%s first %s" % (*dealt, rng.choice("SENW")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qiyi", help="the qiyi binary that writes the positions")
    ap.add_argument("--openings", type=int, help="write this many openings instead")
    ap.add_argument("--score-nodes", type=int,
                    help="add each position's score by an open search of this many nodes")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    if args.openings:
        deal(args.records, args.openings, random.Random(args.seed))
        return
    if not args.qiyi:
        ap.error("--qiyi is needed to write positions")
    qiyi = subprocess.Popen([args.qiyi, "--game", "junqi"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def position(setup, plies):
        moves = " moves " + " ".join(plies) if plies else ""
        qiyi.stdin.write("position %s%s\nd\n" % (setup, moves))
        qiyi.stdin.flush()
        while True:
            line = qiyi.stdout.readline()
            if not line:
                sys.exit("qiyi ended")
            if line.startswith("position: "):
                return line[len("position: "):].strip()

    def score():
        """The last score of an open search of the position just given, from the view of
        the team to move; a mate counts as 30000."""
        qiyi.stdin.write("go nodes %d\n" % args.score_nodes)
        qiyi.stdin.flush()
        cp = 0
        while True:
            line = qiyi.stdout.readline()
            if not line:
                sys.exit("qiyi ended")
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                value = int(m.group(2))
                cp = value if m.group(1) == "cp" else (30000 if value > 0 else -30000)
            if line.startswith("bestmove"):
                return cp

    written = 0
    for path in args.records:
        for result, setup, plies in games(path):
            for k, ply in enumerate(plies):
                # A static evaluation cannot see a combat in progress: quiet plies only.
                if ply.endswith("=m"):
                    text = position(setup, plies[:k])
                    if args.score_nodes:
                        cp = score()
                        # The full form's second field is the seat to move; E+W's scores
                        # are turned to S+N's view.
                        if text.split()[1] in "EW":
                            cp = -cp
                        print("%s | %g | %d" % (text, result, cp))
                    else:
                        print("%s | %g" % (text, result))
                    written += 1
    qiyi.stdin.write("quit\n")
    qiyi.stdin.flush()
    print("%d positions" % written, file=sys.stderr)


if __name__ == "__main__":
    main()
