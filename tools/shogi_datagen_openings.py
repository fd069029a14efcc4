#!/usr/bin/env python3
"""Openings for `qiyi datagen --openings`: middle-game positions from games qiyi's
self-play never reaches. qiyi's self-play from the start position never builds the
castles and rook placements other engines play, so no evaluation fitted to it learns
them (lab/tuning.md); games that start from such positions, played and labelled by
qiyi itself, do. Only positions are taken from the sources, never a score or a result:

* `shogi_match.py --log` files (say gpsshogi playing itself): every other position from
  move MIN on, skipping checks and ended games;
* `datagen` / `shogi_sparring.py` lines (`<sfen> | <result> | <score>`; say qiyi's side
  of its games against gpsshogi): the positions of moves MIN to MAX.

Duplicates are dropped and the output sorted, so the same sources give the same file.

    python3 tools/shogi_datagen_openings.py --out openings.sfen \
        --min-move 16 --max-move 60 gpsself.jsonl spar-s21.txt
"""
import argparse
import json

import cshogi


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--min-move", type=int, default=16)
    parser.add_argument("--max-move", type=int, default=60,
                        help="for position lines only; a logged game is taken to its end")
    parser.add_argument("sources", nargs="+", help=".jsonl match logs or position lines")
    args = parser.parse_args()
    found = set()
    for path in args.sources:
        if path.endswith(".jsonl"):
            for line in open(path):
                game = json.loads(line)
                board = cshogi.Board(game["start"])
                for ply, move in enumerate(game["moves"]):
                    board.push_usi(move)
                    if (ply % 2 == 0 and board.move_number >= args.min_move
                            and not board.is_check() and not board.is_game_over()):
                        found.add(board.sfen())
        else:
            for line in open(path):
                sfen = line.split(" | ")[0].strip()
                if sfen and args.min_move <= int(sfen.split()[-1]) <= args.max_move:
                    found.add(sfen)
    with open(args.out, "w") as out:
        for sfen in sorted(found):
            out.write(sfen + "\n")
    print(f"{len(found)} openings")


if __name__ == "__main__":
    main()
