"""A second engine process per game, the oracle for what the libraries do not cover: the
legal moves of a position (`go perft 1`), whether a position command is refused, and what
`d` shows, for comparison with the engine under test."""

import re
import time

from engine import Engine

from .protocol import DEFAULT_HELLO, RULE_OPTIONS, option_specs


def Proc(binary, args, cache):
    """One engine process (`tools/engine.py`), no handshake: stdout lines timestamped on
    arrival, stderr kept, the FourSquare table cached in `cache`, no RUST_LOG."""
    return Engine([binary] + args, protocol=None, stderr="keep",
                  env={"XDG_CACHE_HOME": cache, "RUST_LOG": None})


class Oracle:
    """A second engine process per game: legal moves (`go perft 1`), what a position
    command does, and `d` of a position, for comparison with the engine under test."""

    def __init__(self, binary, game, cache):
        self.proc = Proc(binary, ["--game", game], cache)
        self.game = game
        self.specs = option_specs(self.ask(DEFAULT_HELLO[game], f"{DEFAULT_HELLO[game]}ok"))
        self.specs.pop("game", None)
        self.cache = {}

    def ask(self, line, until, timeout=30.0):
        self.proc.send(line)
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            item = self.proc.get(deadline - time.monotonic())
            if item is None or item[1] is None:
                raise RuntimeError(f"oracle engine ({self.game}) gave no {until!r} to {line!r}")
            seen.append(item[1])
            if item[1].startswith(until):
                return seen

    def evaluate(self, history):
        """For a history (rule setoption lines and the position line, in order): None when
        the position is refused, else (legal moves, fingerprint, notation)."""
        key = tuple(history)
        if key in self.cache:
            return self.cache[key]
        for name, default in RULE_OPTIONS[self.game].values():
            self.proc.send(f"setoption name {name} value {default}")
        refused = False
        for line in history:
            lines = self.ask(line + "\nisready", "readyok")
            if any(l.startswith("info string error") for l in lines):
                if line.startswith("position"):
                    refused = True
        if refused:
            self.cache[key] = None
            return None
        lines = self.ask("go perft 1", "Nodes searched")
        moves = [l.split(": ")[0] for l in lines if re.match(r"^\S+: \d+$", l)]
        moves = [m for m in moves if m != "Nodes searched"]
        shown = self.ask("d\nisready", "readyok")
        result = (moves, fingerprint(shown), notation(shown))
        self.cache[key] = result
        if len(self.cache) > 2000:
            self.cache.clear()
        return result

    def accepts(self, line):
        lines = self.ask(line + "\nisready", "readyok")
        return not any(l.startswith("info string error") for l in lines)

    def takes_eval_file(self, path):
        """Whether a fresh engine of this game accepts `setoption name EvalFile value
        <path>` for a file that exists (a network of this game) or refuses it (any other
        file); the answer for each path is kept."""
        key = ("EvalFile", path)
        if key not in self.cache:
            self.cache[key] = self.accepts(f"setoption name EvalFile value {path}")
        return self.cache[key]

    def deploy(self):
        return self.ask("go deploy", "deploy")[-1].split()[1]


FINGER = re.compile(r"^(Fen: |Sfen: |FSN: |position: |Key: |to move: |.* to move, ply )")


def fingerprint(lines):
    return tuple(l for l in lines if FINGER.match(l))


def notation(lines):
    for l in lines:
        for prefix in ("Fen: ", "Sfen: ", "FSN: ", "position: "):
            if l.startswith(prefix):
                return l[len(prefix):]
    return None

