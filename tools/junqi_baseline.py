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
  advance attacks as greedy does; otherwise it moves a piece out of reach of the enemies
          its belief says beat it, and else towards the nearest enemy HQ, the move that
          gains most by both counts (ties at random): a player with a plan.
  qiyi    plays the qiyi process's own answer to `go`: with `--deploy uniform`, qiyi
          playing lineups it would not choose.

Each plays `pass` when there is no legal move. Asked `go deploy` (`qiyi referee --lineups
engine`), each answers qiyi's lineup, or with `--deploy uniform` one drawn uniformly from
every legal lineup: no habits an engine may have learnt to expect. The referee starts a
player for every seat of every game, so these lineups come from fresh entropy, not from
`--seed` (which fixes only the policy's tie-breaks): one seed would give every game the
same lineup.

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


def expected(attacker, odds):
    """The expected gain of an attack by rank `attacker` on a piece with these odds."""
    total = sum(odds.values())
    if total <= 0:
        return 0.0
    return sum(p * combat(attacker, r) for r, p in odds.items()) / total


def greedy(moves, pieces, mover, rng):
    """The attack with the best positive expected gain, else a random quiet move (none
    without `rng`)."""
    best, best_gain, quiet = None, 0.0, []
    for mv in moves:
        m = MOVE.match(mv)
        target = pieces.get(m.group(2)) if m else None
        if target is None or TEAM[target[0]] == TEAM[mover]:
            quiet.append(mv)
            continue
        attacker = pieces[m.group(1)][1]
        gain = expected(max(attacker, key=attacker.get), target[1])
        if gain > best_gain:
            best, best_gain = mv, gain
    if rng is None:
        return best
    return best or rng.choice(quiet or moves)


# The HQ stations of each seat: where a flag stands.
HQS = {"S": ("h1", "j1"), "N": ("h17", "j17"), "E": ("q8", "q10"), "W": ("a8", "a10")}


def xy(station):
    return ord(station[0]) - ord("a"), int(station[1:])


def danger(station, rank, pieces, mover):
    """The most an enemy next to `station` on the grid (rides along rails left out) may
    win by striking a `rank` there, by its odds."""
    x, y = xy(station)
    worst = 0.0
    for other, (seat, odds) in pieces.items():
        ox, oy = xy(other)
        if TEAM[seat] == TEAM[mover] or max(abs(ox - x), abs(oy - y)) != 1:
            continue
        for r, p in odds.items():
            if p > 0 and r not in (MINE, FLAG) and combat(r, rank) > 0:
                worst = max(worst, p * combat(r, rank))
    return worst


def advance(moves, pieces, mover, rng):
    """The greedy attack, else the quiet move that best flees danger and nears an enemy HQ."""
    attack = greedy(moves, pieces, mover, None)
    if attack:
        return attack
    seats = {seat for seat, _ in pieces.values()}
    targets = [xy(hq) for seat in seats if TEAM[seat] != TEAM[mover] for hq in HQS[seat]]

    def distance(station):
        x, y = xy(station)
        return min(((x - tx) ** 2 + (y - ty) ** 2) ** 0.5 for tx, ty in targets)

    best, best_score = None, None
    for mv in moves:
        m = MOVE.match(mv)
        if not m:
            continue
        a, b = m.group(1), m.group(2)
        if b in pieces:
            continue  # an attack that does not pay
        odds = pieces[a][1]
        rank = max(odds, key=odds.get)
        score = danger(a, rank, pieces, mover) - danger(b, rank, pieces, mover)
        if targets:
            score += 10 * (distance(a) - distance(b))
        score += rng.random()
        if best_score is None or score > best_score:
            best, best_score = mv, score
    return best or rng.choice(moves)


# The 25 slots a lineup fills, in its order (the camps 6, 8, 12, 16, 18 stay empty), and
# how many of each rank (marshal first) a seat deploys.
SLOTS = [s for s in range(30) if s not in (6, 8, 12, 16, 18)]
COUNTS = dict(zip(RANKS, [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 2, 1]))


def uniform_lineup(rng):
    """A lineup drawn uniformly from the legal ones: the flag in an HQ (slot 26 or 28),
    the mines in the last two rows, no bomb in the front row."""
    while True:
        pieces = [r for r, n in COUNTS.items() for _ in range(n)]
        rng.shuffle(pieces)
        at = dict(zip(SLOTS, pieces))
        if at[26] != FLAG and at[28] != FLAG:
            continue
        if all(s >= 20 for s, r in at.items() if r == MINE) and \
                all(s >= 5 for s, r in at.items() if r == BOMB):
            return "".join(at[s] for s in SLOTS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qiyi", default="target/release/qiyi")
    parser.add_argument("--policy", choices=["random", "greedy", "advance", "qiyi"], default="random")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--deploy", choices=["engine", "uniform"], default="engine")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lineups = random.Random()
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
            if args.deploy == "uniform":
                say("deploy " + uniform_lineup(lineups))
            else:
                send("go deploy")
                say(until("deploy")[-1])
        elif command == "go" and args.policy == "qiyi":
            send(line.strip())
            say(until("bestmove")[-1])
        elif command == "go":
            moves = rules.perft_moves()
            if not moves:
                say("bestmove pass")
                continue
            if args.policy in ("greedy", "advance"):
                send("d")
                send("isready")
                pieces, mover = read_display(until("readyok"))
                policy = greedy if args.policy == "greedy" else advance
                say("bestmove " + policy(moves, pieces, mover, rng))
            else:
                say("bestmove " + rng.choice(moves))
        elif command == "quit":
            break
    rules.quit()


if __name__ == "__main__":
    main()
