#!/usr/bin/env python3
"""Baseline players for Junqi over UGI, in every Info mode: the opponents of the dark-game
matches in lab/benchmarks.md.

Each knows only what its seat is told. A qiyi process, sent the same options and
positions, keeps the rules and the inference for it; on `go` the player asks that process
for the legal moves (`go perft 1`) and then

  random  plays one of them uniformly at random;
  greedy  reads what qiyi's `d` believes of every piece (the public board, its own ranks,
          the odds of each hidden rank) and plays the attack with the best expected
          material gain when that gain is positive: it attacks whenever its belief says
          the attack wins on average. Otherwise it plays a random move that attacks
          nothing.

Both play `pass` when there is no legal move.

    qiyi referee --engine "target/release/qiyi --game junqi" \\
        --engine "python3 tools/junqi_baseline.py --policy greedy --seed 1" \\
        --info dark ...
"""

import argparse
import random
import re
import sys

from engine import Engine

RANKS = "abcdefghijkl"
ENGINEER, MINE, BOMB, FLAG = "i", "j", "k", "l"
# Material by rank (marshal first), roughly qiyi's evaluation; taking a flag ends a seat.
VALUE = dict(zip(RANKS, [1000, 700, 420, 280, 190, 130, 90, 60, 70, 70, 300, 10000]))
TEAM = {"S": 0, "N": 0, "E": 1, "W": 1}
MOVE = re.compile(r"^([a-q]\d+)([a-q]\d+)$")


def combat(attacker, defender):
    """The attacker's material gain when rank `attacker` strikes rank `defender`."""
    if defender == FLAG:
        return VALUE[FLAG]
    if BOMB in (attacker, defender) or attacker == defender:
        return VALUE[defender] - VALUE[attacker]
    if defender == MINE:
        return VALUE[MINE] if attacker == ENGINEER else -VALUE[attacker]
    return VALUE[defender] if attacker < defender else -VALUE[attacker]


def read_board(lines):
    """The board a `d` listing draws: station -> (seat, rank letter, `?` when hidden)."""
    cells = {}
    for line in lines:
        row = re.match(r"^([ \d]\d) ", line)
        if row:
            number = int(row.group(1))
            for f in range(17):
                cell = line[3 + 4 * f: 6 + 4 * f]
                if len(cell) >= 2 and cell[0] in TEAM and (cell[1] in RANKS or cell[1] == "?"):
                    cells[f"{chr(ord('a') + f)}{number}"] = (cell[0], cell[1])
    return cells


def read_display(lines):
    """The pieces of a `d` listing: station -> (seat, {rank: probability}), and the seat
    to move. A rank the viewer knows is certain; a hidden one gets the listed odds."""
    pieces = {station: (seat, {rank: 1.0} if rank in RANKS else {})
              for station, (seat, rank) in read_board(lines).items()}
    mover = None
    for line in lines:
        hidden = re.match(r"^  ([a-q]\d+) ([SENW]) \{[a-l,]*\}((?: [a-l]\d+%)*)$", line)
        if hidden:
            odds = {t[0]: int(t[1:-1]) / 100 for t in hidden.group(3).split()}
            pieces[hidden.group(1)] = (hidden.group(2), odds)
        if line.startswith("to move: "):
            mover = line.split()[2]
    return pieces, mover


def greedy(moves, pieces, mover, rng):
    """The attack with the best positive expected gain, else a random quiet move."""
    best, best_gain, quiet = None, 0.0, []
    for mv in moves:
        m = MOVE.match(mv)
        target = pieces.get(m.group(2)) if m else None
        if target is None or TEAM[target[0]] == TEAM[mover]:
            quiet.append(mv)
            continue
        attacker = pieces[m.group(1)][1]
        rank = max(attacker, key=attacker.get)
        odds = target[1]
        total = sum(odds.values())
        if total <= 0:
            continue
        gain = sum(p * combat(rank, r) for r, p in odds.items()) / total
        if gain > best_gain:
            best, best_gain = mv, gain
    return best or rng.choice(quiet or moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qiyi", default="target/release/qiyi")
    parser.add_argument("--policy", choices=["random", "greedy"], default="random")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = Engine([args.qiyi, "--game", "junqi"], protocol=None, strip=False)
    send, until = rules.send, rules.until

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
            say(f"id name junqi-{args.policy}")
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
            moves = rules.perft_moves()
            if not moves:
                say("bestmove pass")
                continue
            if args.policy == "greedy":
                send("d")
                send("isready")
                pieces, mover = read_display(until("readyok"))
                say("bestmove " + greedy(moves, pieces, mover, rng))
            else:
                say("bestmove " + rng.choice(moves))
        elif command == "quit":
            break
    rules.quit()


if __name__ == "__main__":
    main()
