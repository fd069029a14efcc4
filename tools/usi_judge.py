#!/usr/bin/env python3
"""Scores the games of `shogi_match.py --log` files every few plies through a USI engine,
from one player's side, one line a game: where a game turned, and whether two engines
agree on it. Run it once with the opponent as the judge and once with qiyi, and a game
qiyi scored far ahead while the opponent scored it behind shows a misjudgement rather
than a tactic missed. A judge is only asked for its score, never used as a label.

    python3 tools/usi_judge.py --player qiyi --judge "/usr/games/gpsusi" \
        --option Thread=1 --go "btime 0 wtime 0 byoyomi 700" --log games.jsonl
"""
import argparse
import json

from engine import Engine

MATE = 30000


def score(engine, start, moves, go):
    """The judge's last score for the side to move (mates as +-MATE)."""
    engine.send("usinewgame")
    played = f" moves {' '.join(moves)}" if moves else ""
    engine.send(f"position sfen {start}{played}")
    word, reported = engine.go(go)
    if word == "resign":
        return -MATE
    if word == "win":
        return MATE
    if reported is None:
        return None
    kind, value = reported
    if kind == "cp":
        return value
    return -MATE if value.startswith("-") else MATE


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--player", required=True, help="whose side the scores are from (its name in the log)")
    ap.add_argument("--judge", required=True, help="command line of the USI engine that scores")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for the judge")
    ap.add_argument("--go", default="movetime 1000", help="what follows `go`")
    ap.add_argument("--every", type=int, default=10, help="plies between scored positions")
    ap.add_argument("--log", nargs="+", required=True)
    a = ap.parse_args()
    engine = Engine(a.judge, a.option)
    for log in a.log:
        for game in map(json.loads, open(log)):
            if a.player not in (game["black"], game["white"]):
                raise SystemExit(f"{a.player} did not play game {game['game']} of {log}")
            start, moves = game["start"], game["moves"]
            sente = game["black"] == a.player
            result = game["result_black"] if sente else 1 - game["result_black"]
            black_first = start.split()[1] == "b"
            row = []
            for ply in range(a.every, len(moves), a.every):
                value = score(engine, start, moves[:ply], a.go)
                if value is None:
                    row.append("?")
                    continue
                black_to_move = black_first == (ply % 2 == 0)
                row.append(str(value if black_to_move == sente else -value))
            side = "sente" if sente else "gote"
            print(f"{log} game {game['game']} {a.player} {side} result {result:g} "
                  f"plies {len(moves)}: {' '.join(row)}", flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
