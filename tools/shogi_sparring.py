#!/usr/bin/env python3
"""Training positions for the shogi evaluation from qiyi's games against another USI
engine, in `qiyi datagen`'s line format (`<sfen> | <result> | <score>`, both for sente),
for `qiyi tune`.

Self-play only ever shows the evaluation the positions its own play leads to: a castle
qiyi never builds (the bear-in-the-hole, its king in the corner) gets weights nothing
constrains, and those were off by over a thousand centipawns in the games gpsshogi won.
Against an opponent that builds such castles and attacks them, the games reach those
positions, and their results say what they are worth. Only qiyi's positions are kept,
each scored by qiyi's own search; the opponent's scores are never read.

A position is kept as `qiyi datagen` keeps one: qiyi to move, not in check, its best
move no capture, its score no mate. A game ends in checkmate, resignation, the
repetition rules (a draw, counted as such) or after `--max-plies` (a draw). It is not
adjudicated by qiyi's score: against gpsshogi that score stood above +1000 for a hundred
plies of a game qiyi then lost by mate, and that misjudgment is what the games are for.

gpsshogi takes about a second a move whatever its byoyomi; at `LimitDepth=4` it answers
in about a tenth of one and still beats qiyi at 20,000 nodes (f4 won one game in five
when games were adjudicated, shogi-s44 one in twenty without; lab/tuning.md):

    python3 tools/shogi_sparring.py --qiyi "./qiyi --game shogi" --nodes 20000 \
        --opponent /usr/games/gpsusi --opponent-option Thread=1 \
        --opponent-option LimitDepth=4 --byoyomi 1000 \
        --openings bench_positions/shogi_sprt_openings.sfen --games 400 --seed 1 \
        --out sparring.txt

Each log line gives the running W/D/L, so the same command with `--seed` fixed is also a
quick match: two builds on one seed play the same openings with the same colours.
"""
import argparse
import random

import cshogi

from engine import Engine


def qiyi_move(engine, position, nodes):
    """qiyi's best move and its final score (centipawns for the side to move, or None
    for a mate score)."""
    engine.send(position)
    mv, score = engine.go(f"nodes {nodes}")
    return mv, score[1] if score and score[0] == "cp" else None


def ended_by(word, turn):
    """Sente's result when the side to move answers `resign` or `win` (a declaration)."""
    mover_wins = word == "win"
    return 1.0 if mover_wins == (turn == cshogi.BLACK) else 0.0


def play(qiyi, opponent, args, opening, qiyi_sente):
    board = cshogi.Board()
    words = opening.split()
    if words[0] != "startpos":
        raise SystemExit(f"an opening must start from startpos: {opening}")
    moves = words[2:]
    for mv in moves:
        board.push_usi(mv)
    played = list(moves)
    kept = []
    qiyi.send("usinewgame")
    opponent.send("usinewgame")
    result = None
    while result is None:
        if board.is_game_over():
            result = 0.0 if board.turn == cshogi.BLACK else 1.0
            break
        draw = board.is_draw()
        if draw == cshogi.REPETITION_DRAW or len(played) >= args.max_plies:
            result = 0.5
            break
        if draw in (cshogi.REPETITION_WIN, cshogi.REPETITION_SUPERIOR):
            result = 1.0 if board.turn == cshogi.BLACK else 0.0
            break
        if draw in (cshogi.REPETITION_LOSE, cshogi.REPETITION_INFERIOR):
            result = 0.0 if board.turn == cshogi.BLACK else 1.0
            break
        position = "position startpos" + (f" moves {' '.join(played)}" if played else "")
        qiyi_to_move = (board.turn == cshogi.BLACK) == qiyi_sente
        if qiyi_to_move:
            mv, score = qiyi_move(qiyi, position, args.nodes)
            if mv in ("resign", "win"):
                result = ended_by(mv, board.turn)
                break
            sign = 1 if board.turn == cshogi.BLACK else -1
            capture = board.piece(cshogi.move_to(board.move_from_usi(mv))) != 0
            if score is not None and not board.is_check() and not capture:
                kept.append((board.sfen(), sign * score))
        else:
            opponent.send(position)
            opponent.send(f"go btime 0 wtime 0 byoyomi {args.byoyomi}")
            mv = opponent.wait("bestmove").split()[1]
            if mv in ("resign", "win"):
                result = ended_by(mv, board.turn)
                break
        board.push_usi(mv)
        played.append(mv)
    return kept, result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qiyi", required=True, help="command line of qiyi (USI)")
    ap.add_argument("--qiyi-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--nodes", type=int, default=20000, help="qiyi's nodes a move")
    ap.add_argument("--opponent", required=True, help="command line of the other engine")
    ap.add_argument("--opponent-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--byoyomi", type=int, default=100, help="the opponent's ms a move")
    ap.add_argument("--openings", required=True, help="lines `startpos moves ...`")
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1, help="picks the openings")
    ap.add_argument("--max-plies", type=int, default=320)
    ap.add_argument("--out", required=True, help="appended to")
    args = ap.parse_args()
    openings = [line.strip() for line in open(args.openings) if line.strip()]
    rng = random.Random(args.seed)
    qiyi = Engine(args.qiyi, args.qiyi_option)
    opponent = Engine(args.opponent, args.opponent_option)
    score = [0, 0, 0]
    with open(args.out, "a") as out:
        for game in range(args.games):
            # Each opening twice, qiyi sente and then gote.
            if game % 2 == 0:
                opening = rng.choice(openings)
            kept, result = play(qiyi, opponent, args, opening, game % 2 == 0)
            for sfen, value in kept:
                out.write(f"{sfen} | {result:g} | {value}\n")
            out.flush()
            mine = result if game % 2 == 0 else 1 - result
            score[0 if mine == 1 else 1 if mine == 0.5 else 2] += 1
            print(f"game {game + 1}: {len(kept)} positions, qiyi W/D/L {score[0]}/{score[1]}/"
                  f"{score[2]}", flush=True)
    qiyi.quit()
    opponent.quit()


if __name__ == "__main__":
    main()
