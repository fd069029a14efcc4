"""What the self-play writers `chess_games.py` and `shogi_games.py` share: the engine
player, the command line and the worker pool.

An engine plays one game at a time on one thread, so the games are split among worker
processes, each with its own engine, seed and part file (`<out>.<worker>`); the parts are
joined into `--out` at the end. A game script gives `main` its own pieces:

    read_openings(path) -> the book's positions, in whatever form `play` takes
    play(player, openings, rng) -> (positions, result), where positions is a list of
        (position, score) and result is None for a game to leave out

and each kept position becomes a `<position> | <result> | <score>` line.
"""
import argparse
import multiprocessing
import random
import sys
from collections import namedtuple

from engine import Engine

MATE = 100000

Job = namedtuple("Job", "seed games engine part book options protocol read_openings play "
                        "report_every")


class Player:
    """A UCI or USI engine through the shared driver (`tools/engine.py`); `options` are
    `Name=value` strings (one thread, a small hash)."""

    def __init__(self, path, options, protocol):
        self.protocol = protocol
        self.engine = Engine([path], options, protocol=protocol)

    def new_game(self):
        self.engine.send(f"{self.protocol}newgame")
        self.engine.ready()

    def best(self, position, nodes):
        """Best move and score (centipawns for the side to move, mates as +-MATE) for
        `position`, the rest of a `position` command (`fen ...`, `sfen ...`)."""
        self.engine.send(f"position {position}")
        move, score = self.engine.go(f"nodes {nodes}")
        if score is None:
            return move, 0
        if score[0] == "mate":
            return move, MATE if not score[1].startswith("-") else -MATE
        return move, score[1]

    def quit(self):
        self.engine.send("quit")


def worker(job):
    """One worker's games, in its own process: returns how many positions it wrote. The
    part file is flushed after every game, so a stopped run keeps what it played."""
    rng = random.Random(job.seed)
    openings = job.read_openings(job.book)
    player = Player(job.engine, job.options, job.protocol)
    written = 0
    with open(job.part, "w") as f:
        for n in range(job.games):
            positions, result = job.play(player, openings, rng)
            if result is None:
                continue
            for position, score in positions:
                f.write(f"{position} | {result} | {score}\n")
            written += len(positions)
            f.flush()
            if n % job.report_every == job.report_every - 1:
                print(f"worker {job.seed}: {n + 1} games, {written} positions", file=sys.stderr)
    player.quit()
    return written


def main(doc, read_openings, play, *, games, engine, options, protocol, openings_help,
         report_every):
    """The command line and the pool: `games` is the default number of games, `engine`
    the flag and default path of the engine, `options` and `protocol` how to start it."""
    flag, path = engine
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(flag, dest="engine", metavar="PATH", default=path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--openings", required=True, help=openings_help)
    a = ap.parse_args()
    jobs = [
        Job(a.seed * 1000 + w, a.games // a.workers, a.engine, f"{a.out}.{w}", a.openings,
            options, protocol, read_openings, play, report_every)
        for w in range(a.workers)
    ]
    with multiprocessing.Pool(a.workers) as pool:
        total = sum(pool.map(worker, jobs))
    with open(a.out, "w") as out:
        for job in jobs:
            out.write(open(job.part).read())
    print(f"{total} positions", file=sys.stderr)
