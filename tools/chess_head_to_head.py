#!/usr/bin/env python3
"""Head-to-head chess match at a fixed node count per move, games on several workers at
once: the quick first test of a search change, whose speed bench measures separately.

    python3 tools/chess_head_to_head.py --a ./qiyi-new --b ./qiyi-old \
        --nodes 25000 --pairs 500 --workers 2 --sprt 0 15

`--a`/`--b` are a command and then `Option=value` pairs (`--a ./qiyi EvalFile=net.nnue`).
`--b-nodes` gives B a budget of its own: node odds that stand in for a speed difference
(a network against the hand-written evaluation, whose nodes cost 1.7 times as much).
Each opening of `bench_positions/chess_sprt_openings.epd` is played twice, colours
swapped; a game ends by the rules (python-chess, draws claimable) or is drawn after 400
plies. Results are from A's view; with `--sprt ELO0 ELO1` the match stops when the
sequential test of the project's `sprt.py` decides (alpha = beta = 0.05). Openings are
read, and the Elo estimate made, by the functions of the project's match runner
`chess_match.py`. Those two scripts are kept outside the repository: `--tools DIR` names
the directory that holds them (without it they must be importable already, e.g. through
PYTHONPATH).
"""
import argparse
import os
import sys
import threading
import time

import chess
import chess.engine

from engine import uci

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


start = uci  # an engine from `[command, "Name=value", ...]`, tools/engine.py


def play(engines, opening, a_white, nodes, clock):
    """0: A won, 1: B won, 2: drawn. `nodes` is A's budget and B's; `clock`, when given,
    is (base, increment, margin) in seconds and replaces them."""
    board = opening.copy()
    white, black = (0, 1) if a_white else (1, 0)
    left = [clock[0], clock[0]] if clock else None
    game = object()  # a new game for python-chess, which then sends `ucinewgame`
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        side = white if board.turn == chess.WHITE else black
        if clock:
            _, inc, margin = clock
            limit = chess.engine.Limit(white_clock=left[white], black_clock=left[black],
                                       white_inc=inc, black_inc=inc)
            start_time = time.monotonic()
            move = engines[side].play(board, limit, game=game).move
            left[side] -= time.monotonic() - start_time
            if left[side] < -margin or move not in board.legal_moves:
                print(f"{'AB'[side]} forfeits: {move} with {left[side]:.3f} s left", file=sys.stderr)
                return 1 - side
            left[side] += inc
        else:
            move = engines[side].play(board, chess.engine.Limit(nodes=nodes[side]), game=game).move
            if move not in board.legal_moves:
                print(f"{'AB'[side]} forfeits: illegal {move}", file=sys.stderr)
                return 1 - side
        board.push(move)
    result = board.result(claim_draw=True)
    if result in ("1/2-1/2", "*"):
        return 2
    return 0 if (result == "1-0") == a_white else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", nargs="+", required=True)
    ap.add_argument("--b", nargs="+", required=True)
    ap.add_argument("--nodes", type=int, default=25000)
    ap.add_argument("--b-nodes", type=int, help="B's nodes a move (default: --nodes)")
    ap.add_argument("--tc", help="BASE+INC in seconds: play under a clock instead of nodes")
    ap.add_argument("--timemargin", type=int, default=100, help="ms a move may overrun the clock")
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--skip", type=int, default=0, help="openings to pass over first (to go on with a match on fresh openings)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--openings", default=os.path.join(ROOT, "bench_positions", "chess_sprt_openings.epd"))
    ap.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"))
    ap.add_argument("--tools", metavar="DIR",
                    help="directory with the project's chess_match.py and sprt.py")
    args = ap.parse_args()
    if args.tools:
        sys.path.insert(0, args.tools)
    import sprt
    from chess_match import elo_estimate, load_openings

    clock = None
    if args.tc:
        base, inc = args.tc.split("+")
        clock = (float(base), float(inc), args.timemargin / 1000)
    openings = [board for _, board in load_openings(args.openings)][args.skip : args.skip + args.pairs]
    jobs = [(board, a_white) for board in openings for a_white in (True, False)]
    lock = threading.Lock()
    score = [0, 0, 0]
    done = [False]

    def worker():
        engines = [start(args.a), start(args.b)]
        while True:
            with lock:
                if not jobs or done[0]:
                    break
                opening, a_white = jobs.pop(0)
            result = play(engines, opening, a_white, (args.nodes, args.b_nodes or args.nodes), clock)
            with lock:
                score[result] += 1
                w, l, d = score
                elo, margin, p = elo_estimate(w, d, l)
                line = f"{w + l + d}: W {w} L {l} D {d}  {100 * p:.1f}%  elo {elo:.0f} +/- {margin:.0f}"
                if args.sprt:
                    llr, lo, hi, verdict = sprt.verdict(w, d, l, *args.sprt)
                    line += f"  LLR {llr:.2f} ({lo:.2f}, {hi:.2f})"
                    if verdict:
                        line += f" {verdict}"
                        done[0] = True
                print(line, flush=True)
        for engine in engines:
            engine.quit()

    threads = [threading.Thread(target=worker) for _ in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
