#!/usr/bin/env python3
"""A protocol fuzzer for qiyi: random command sequences, valid and mutated, against
`target/release/qiyi` for every game, checked against the engine's promises.

    python3 tools/fuzz_protocol.py --seconds 600 --seed 1 --game all
    python3 tools/fuzz_protocol.py --replay failure.txt --game chess

Each session starts the engine (`--game G`, or without `--game` and a handshake that picks
the game), sends a random sequence and ends with `quit` or the end of input. Almost every
command is followed by `isready`, so each answer is tied to the command that caused it.

Oracles:
- the process never exits before `quit`/EOF, and exits within a second after them;
- stderr never says `panicked`; stdout carries protocol lines only;
- every `isready` gets `readyok` within a second, even during a search, perft or mate job;
- a command gets at most one `info string error` line, exactly one when it is known bad,
  none when it is known good; a rejected command leaves the position (`d`) unchanged;
- a position the engine accepts or rejects is accepted or rejected by python-chess/cshogi
  too (for chess and shogi), and `d` prints the same FEN/SFEN as they do;
- every `bestmove` is legal in the position searched (python-chess, cshogi, or a second
  engine process's `go perft 1` for Junqi and FourSquare), among `searchmoves` if given;
  `(none)`/`resign` only without a legal move, `win` exactly when the entering-king
  declaration is valid (cshogi); a `checkmate` line is a mate (cshogi); a `deploy` lineup
  is accepted by `position setup`;
- `go` answers once; not before `stop`/`ponderhit` under `infinite`/`ponder`; within
  min(movetime, MoveTimeLimit) (or MoveTimeLimit) plus slack; a job ended by `stop`, a new
  position or any other command that ends it has answered before the next `readyok`, and
  within half a second;
- `go perft` prints a count equal to the number of legal moves at depth 1, or only
  `info string perft stopped: ...` when it was stopped;
- `info` lines carry `wdl` exactly when `UCI_ShowWDL` is on for a game that declares it,
  summing to 1000; `EvalFile` naming no file, or no network of the game, is refused.

A failure is printed with the shortest command sequence found (by removing commands while
the same failure recurs) that reproduces it; `--replay FILE` runs such a sequence again
(one command per line; `#sleep S` waits, `#burst` sends the next line without isready,
`#eof` closes the input).

This script is the command line; the fuzzer itself is the package `tools/fuzz/`, a module
per job (docs/fuzzing.md lists them).
"""

import argparse
import os
import random
import sys
import time

from fuzz.checks import STATS, WORST, Failure
from fuzz.oracles import Oracle
from fuzz.protocol import GAMES
from fuzz.replay import attempt, describe, minimise, read_replay
from fuzz.session import Lost, Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--game", default="all",
                        help="chess, shogi, junqi, foursquare, none (no --game) or all")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "qiyi"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "target", "fuzz-cache"))
    parser.add_argument("--replay", help="a file of commands to run once, then stop")
    parser.add_argument("--max-failures", type=int, default=5)
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    games = {"all": GAMES + [None], "none": [None]}.get(args.game, [args.game])
    oracles = {g: Oracle(args.binary, g, args.cache) for g in GAMES}

    if args.replay:
        game = games[0]
        failure = attempt(args, game, read_replay(args.replay), oracles)
        print(f"replay: {failure or 'no failure'}")
        sys.exit(1 if failure else 0)

    print(f"fuzzing {args.binary} for {args.seconds:.0f} s, seed {seed}, games "
          f"{[g or 'none' for g in games]}", flush=True)
    rng = random.Random(seed)
    start = time.monotonic()
    sessions = commands = 0
    failures = []
    kinds = set()
    while time.monotonic() - start < args.seconds and len(failures) < args.max_failures:
        game = games[sessions % len(games)]
        session = Session(args, game, rng, oracles, length=rng.randint(10, 90))
        sessions += 1
        try:
            session.run()
        except Lost:
            STATS["sessions lost"] += 1
        except Failure as failure:
            key = (failure.kind, game)
            print(f"\nFAILURE ({game or 'no --game'}) {failure.kind}: {failure.detail}", flush=True)
            if key in kinds:
                print("  (a kind already reported; not minimised)")
            else:
                kinds.add(key)
                small = minimise(args, game, session.done, failure, oracles)
                again = attempt(args, game, small, oracles)
                print(f"  reproduced by {'qiyi --game ' + game if game else 'qiyi'} with "
                      f"({'reproduces' if again else 'did not reproduce on the last try'}):")
                for line in describe(small):
                    print("  > " + line)
            failures.append(failure)
        commands += len(session.done)
    elapsed = time.monotonic() - start
    print(f"\n{sessions} sessions, {commands} commands in {elapsed:.0f} s, seed {seed}: "
          f"{len(failures)} failure(s)")
    print("counts: " + ", ".join(f"{k} {v}" for k, v in sorted(STATS.items())))
    print("worst: " + ", ".join(f"{k} {v}" for k, v in sorted(WORST.items())))
    for proc in oracles.values():
        proc.proc.kill()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
