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
  `info string perft stopped: ...` when it was stopped.

A failure is printed with the shortest command sequence found (by removing commands while
the same failure recurs) that reproduces it; `--replay FILE` runs such a sequence again
(one command per line; `#sleep S` waits, `#burst` sends the next line without isready,
`#eof` closes the input).
"""

import argparse
import collections
import os
import random
import re
import sys
import time

from engine import Engine

try:
    import chess
except ImportError:  # pragma: no cover
    chess = None
try:
    import cshogi
except ImportError:  # pragma: no cover
    cshogi = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["chess", "shogi", "junqi", "foursquare"]
HELLOS = {"uci": "chess", "usi": "shogi", "ugi": "foursquare"}
DEFAULT_HELLO = {"chess": "uci", "shogi": "usi", "junqi": "ugi", "foursquare": "ugi"}
NO_MOVE = {"uci": "(none)", "usi": "resign", "ugi": "(none)"}
CLOCKS = {
    "chess": ["w", "b"],
    "shogi": ["b", "w"],
    "foursquare": ["p1", "p2"],
    "junqi": ["p1", "p2", "s", "e", "n", "w"],
}
ENGINE_OPTIONS = ["hash", "threads", "multipv", "ponder", "move overhead", "movetimelimit",
                  "clear hash"]
RULE_OPTIONS = {"foursquare": {"maxplies": ("MaxPlies", "0")},
                "junqi": {"nocombatdrawplies": ("NoCombatDrawPlies", "50"),
                          "maxpasses": ("MaxPasses", "5")},
                "chess": {}, "shogi": {}}
# What Rust's `split_whitespace` splits on (Python's `split` also splits on \x1c-\x1f).
RUST_WS = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")

SLACK = 0.3          # seconds a timed search may run over its limit
READY = 1.0          # seconds within which isready is answered
STOP = 0.5           # seconds within which stop ends a job
NO_LIMIT_STOP = 1.5  # a search with no time limit of its own is stopped after this

CHESS_FENS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    "8/8/4k3/8/8/4K3/4R3/8 w - - 99 80",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
]
SHOGI_SFENS = [
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8k/9/9/9/9/9/9/9/4K2R1 b G 1",
    "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1",
    "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b RBrb 1",
    "8k/8P/7G1/9/9/9/9/9/K8 w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
]

# Positions at the edge of the notations, most of them invalid: each must be refused with one
# error, or accepted and then played legally.
WEIRD = {
    "chess": [
        "fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "fen 4k3/8/8/8/8/8/8/8 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        "fen k7/8/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1", "fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535",
        "fen 4k3/8/8/8/8/8/8/4K3 w - - 150 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        "fen 4k3/8/8/8/8/8/8/4K3 W - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0",
        "fen 4k3/8/8/2b5/3Pp3/8/8/4K3 b - d3 0 1", "fen 3k4/8/8/K1pP3r/8/8/8/8 w - c6 0 1",
        "fen k7/8/8/8/8/8/8/K6R w K - 0 1", "fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "fen r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves",
        "fen 9/8/8/8/8/8/8/8 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3/8 w - - 0 1",
        "fen 4k3/7/8/8/8/8/8/4K3 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 1",
        "fen kq6/8/8/8/8/8/8/6NK b - - 0 1",
    ],
    "shogi": [
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b K 1",
        "sfen 4k4/9/9/9/9/9/9/9/4+K4 b - 1", "sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w - 0", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 99999999999",
        "sfen 4k4/4G4/9/9/9/9/9/9/4K4 w - 1", "sfen 4k4/4G4/9/9/9/9/9/9/4K4 b - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b P0 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 40P 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 18p 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P2P 1",
        "sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1", "sfen 4k4/9/9/9/9/9/9/9/N3K4 w - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 2", "sfen 4k4/9/9/9/9/9/9/9/4K4",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b rb2g2s2n2l9p 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - -1",
        "sfen 8k/7+P+P/9/9/9/9/9/9/K8 w - 1", "sfen k8/9/9/9/9/9/9/9/8K b 10G 1",
        "sfen 4k4/9/9/9/9/9/9/9/9 b - 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves",
    ],
    "foursquare": [
        "fen bbbb/4/4/wwww b 99999999999", "fen bbbbb/4/4/wwww b", "fen 4/4/4/4 b",
        "fen bbbb/4/4/wwww w -1", "fen b3/4/4/w3 b", "fen bbbb/bbbb/wwww/wwww b",
        "fen w3/4/4/3b b", "fen bbbb/4/4/wwww b 4294967295", "fen bbbb/4/4/wwww", "fen bbbb/4/4 b",
        "fen b3/4/4/3w w 0", "fen bbbb/4/4/wwww b 0 0", "fen 5/4/4/4 b", "fen bbbb/4/4/wwwx b",
    ],
    "junqi": [
        "setup S:adgicegebigckhfdjhjkfljhi", "setup S:- E:- N:- W:-", "setup first N",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi first X",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi first W",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi S:adgicegebigckhfdjhjkfljhi",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 X 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 99999 9,9,9,9 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 SEN -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 SENW SENW",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/Sa8 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/30/9 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 N 0 0,0,0,0 S -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S -1 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 E 0 0,0,0,0 E -",
        "fen 1dgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjk1ljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 - -",
        "fen 30/30/30/30/9 S 0 0,0,0,0 - -",
        "fen 30/30/30/30/Sl8 S 0 0,0,0,0 - -",
    ],
}


class Failure(Exception):
    def __init__(self, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Lost(Exception):
    """The fuzzer no longer knows the engine's state (a mutated command did something it
    cannot model): the session ends early, without a verdict."""


def split(line):
    return [t for t in RUST_WS.split(line) if t]


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


class Job:
    def __init__(self, kind, line, sent, snapshot):
        self.kind = kind              # search, perft, mate
        self.line = line
        self.sent = sent
        self.snapshot = snapshot      # (game, dialect, legal moves, lib board, history)
        self.deadline = None
        self.waits = False            # infinite or ponder: answers only after stop/ponderhit
        self.pondering = False
        self.stopped = None           # when a command that ends it was accepted
        self.searchmoves = None
        self.perft_depth = None
        self.perft_lines = []


class Model:
    """What the fuzzer knows of the engine's state."""

    def __init__(self, game):
        self.game = game
        self.fixed = game is not None
        self.dialect = None
        self.session = game is not None
        self.settings = {}            # lower-case option name -> (name, value)
        self.options = {}             # declared options of the current session
        self.history = []             # rule setoptions and the position line, for the oracle
        self.legal = None
        self.board = None             # python-chess / cshogi board when known
        self.finger = None
        self.notation = None
        self.ponder_opt = False

    def session_dialect(self):
        return self.dialect or DEFAULT_HELLO[self.game]

    def mtl(self):
        return int(self.settings.get("movetimelimit", ("", "60000"))[1])

    def threads(self):
        return int(self.settings.get("threads", ("", "1"))[1])


def huge_hash_fails():
    """Whether a 64 GiB table surely cannot be had here (more than memory and swap), so the
    fuzzer may ask for one to see it refused without touching the machine's memory."""
    try:
        info = open("/proc/meminfo").read()
        kb = sum(int(re.search(rf"^{k}:\s+(\d+)", info, re.M).group(1)) for k in ("MemTotal", "SwapTotal"))
        return kb < 60 * 1024 * 1024
    except (OSError, AttributeError):
        return False


def option_specs(lines):
    specs = {}
    for line in lines:
        m = re.match(r"^option name (.+?) type (\w+)(.*)$", line)
        if not m:
            continue
        name, kind, rest = m.group(1), m.group(2), m.group(3)
        spec = {"name": name, "kind": kind}
        if kind == "spin":
            spec["min"] = int(re.search(r" min (-?\d+)", rest).group(1))
            spec["max"] = int(re.search(r" max (-?\d+)", rest).group(1))
        if kind == "combo":
            spec["vars"] = re.findall(r" var (\S+)", rest)
        specs[name.lower()] = spec
    return specs


def valid_value(spec, value):
    kind = spec["kind"]
    if kind == "spin":
        v = number(value, I64)
        return v is not None and spec["min"] <= v <= spec["max"]
    if kind == "check":
        return value.lower() in ("true", "false")
    if kind == "combo":
        return value.lower() in [v.lower() for v in spec["vars"]]
    return True


def normal_value(spec, value):
    if spec["kind"] == "spin":
        return str(int(value))
    if spec["kind"] == "check":
        return value.lower()
    return value


# ---------------------------------------------------------------- lib oracles

def lib_board(game, line):
    """The python-chess or cshogi board a position command describes, None when the library
    does not read it, or False when the library says the command is illegal."""
    tokens = split(line)
    if "moves" in tokens:
        i = tokens.index("moves")
        spec, moves = tokens[1:i], tokens[i + 1:]
    else:
        spec, moves = tokens[1:], []
    if game == "chess" and chess is not None:
        try:
            if spec == ["startpos"]:
                board = chess.Board()
            elif len(spec) >= 2 and spec[0] == "fen" and spec[1:] and len(spec) in (5, 7):
                board = chess.Board(" ".join(spec[1:]))
                if not board.is_valid() or board.fen() != " ".join(spec[1:] if len(spec) == 7 else spec[1:] + ["0", "1"]):
                    return None
            else:
                return None
        except ValueError:
            return None
        for mv in moves:
            try:
                move = chess.Move.from_uci(mv)
            except (ValueError, chess.InvalidMoveError):
                return False
            if move not in board.legal_moves or mv != move.uci():
                return False
            board.push(move)
        return board
    if game == "shogi" and cshogi is not None:
        if spec == ["startpos"]:
            board = cshogi.Board()
        elif len(spec) == 5 and spec[0] == "sfen" and " ".join(spec[1:]) in SHOGI_SFENS:
            board = cshogi.Board(" ".join(spec[1:]))
        else:
            return None
        for mv in moves:
            move = board.move_from_usi(mv) if re.fullmatch(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]", mv) else 0
            if not move or not board.is_legal(move) or cshogi.move_to_usi(move) != mv:
                return False
            board.push(move)
        return board
    return None


def lib_legal(game, board):
    if game == "chess":
        return [m.uci() for m in board.legal_moves]
    return [cshogi.move_to_usi(m) for m in board.legal_moves]


def lib_after(game, board, mv):
    b = board.copy()
    if game == "chess":
        b.push(chess.Move.from_uci(mv))
    else:
        b.push(b.move_from_usi(mv))
    return b


# ---------------------------------------------------------------- the command interpreter

def interpret(line, game):
    """A mirror of the engine's parser, just precise enough to model what an accepted line
    does: (kind, details)."""
    tokens = split(line)
    if not tokens:
        return ("blank", None)
    head, rest = tokens[0], tokens[1:]
    if head in HELLOS:
        return ("hello", head) if not rest else ("bad", None)
    if head in ("isready", "ucinewgame", "usinewgame", "uginewgame", "stop", "ponderhit", "d"):
        kind = "newgame" if head.endswith("newgame") else head
        return (kind, None) if not rest else ("bad", None)
    if head == "quit":
        return ("quit", None)
    if head == "setoption":
        if not rest or rest[0] != "name":
            return ("bad", None)
        rest = rest[1:]
        if "value" in rest:
            i = rest.index("value")
            name, value = rest[:i], rest[i + 1:]
        else:
            name, value = rest, []
        if not name:
            return ("bad", None)
        return ("setoption", (" ".join(name), " ".join(value)))
    if head == "position":
        return ("position", " ".join(tokens))
    if head == "query":
        return ("query", rest[0]) if len(rest) == 1 and rest[0] in (
            "gameover", "p1turn", "result", "turn") else ("bad", None)
    if head == "gameover":
        return ("gameover", None) if rest in ([], ["win"], ["lose"], ["draw"]) else ("bad", None)
    if head == "go":
        if rest == ["deploy"]:
            return ("deploy", None)
        if game == "shogi" and rest[:1] == ["mate"]:
            lim = rest[1:]
            if lim == ["infinite"]:
                return ("mate", None)
            if len(lim) == 1 and number(lim[0], I64) is not None:
                return ("mate", max(0, number(lim[0], I64)))
            return ("bad", None)
        if rest[:1] == ["perft"]:
            if len(rest) == 2 and number(rest[1], U32) is not None and number(rest[1], U32) <= 64:
                return ("perft", number(rest[1], U32))
            return ("bad", None)
        return ("go", parse_go(rest, game))
    return ("bad", None)


U32 = (0, 2 ** 32 - 1)
U64 = (0, 2 ** 64 - 1)
I64 = (-(2 ** 63), 2 ** 63 - 1)
GO_NUMBERS = {"movetime": I64, "byoyomi": I64, "movestogo": U32, "depth": U32, "nodes": U64,
              "mate": U32}


def number(text, bounds):
    """Rust's `str::parse` for an integer type: an optional sign ('-' only if signed)."""
    if not re.fullmatch(r"[+-]?[0-9]+", text or ""):
        return None
    if text.startswith("-") and bounds[0] == 0:
        return None
    if len(text) > 40:
        return None
    value = int(text)
    return value if bounds[0] <= value <= bounds[1] else None


def parse_go(rest, game):
    limits = {"searchmoves": None}
    i = 0
    owners = CLOCKS.get(game or "foursquare", [])
    while i < len(rest):
        token = rest[i]
        value = rest[i + 1] if i + 1 < len(rest) else None
        i += 2
        if token in ("infinite", "ponder"):
            limits[token] = True
            i -= 1
            continue
        if token == "searchmoves":
            limits["searchmoves"] = rest[i - 1:]
            break
        owner = token[:-4] if token.endswith("time") else token[:-3] if token.endswith("inc") else None
        if token in GO_NUMBERS or owner in owners:
            v = number(value, GO_NUMBERS.get(token, I64))
            if v is None:
                return None
            limits[token] = max(v, 0)
            continue
        return None
    return limits


# ---------------------------------------------------------------- the session runner

STATS = collections.Counter()
WORST = {}


def worst(what, value):
    """Keeps the largest value seen of a latency, for the summary."""
    WORST[what] = max(WORST.get(what, value), value)


class Session:
    """Runs one sequence of actions against a fresh engine and checks every answer.
    `actions` is a list to replay, or None to generate as it goes (recorded in `done`)."""

    def __init__(self, args, game, rng, oracles, actions=None, length=60):
        self.args = args
        self.start_game = game
        self.rng = rng
        self.oracles = oracles
        self.replay = actions
        self.length = length
        self.done = []
        self.model = Model(game)
        self.jobs = []
        self.quitting = False
        self.pending = None
        self.after_nodes = False
        self.new_window()

    # ---- low level

    def fail(self, kind, detail):
        raise Failure(kind, detail)

    def read(self, timeout):
        """Handles the next line, if one comes within `timeout`; checks the deadlines of
        running jobs whenever nothing is waiting to be read."""
        now = time.monotonic()
        if self.proc.lines.empty():
            self.check_deadlines(now)
        item = self.proc.get(timeout)
        if item is None:
            return None
        t, line = item
        if line is None:
            if not self.quitting:
                time.sleep(0.2)
                self.check_stderr()
                self.fail("exit", f"the engine exited (code {self.proc.poll()})")
            return item
        self.on_line(t, line)
        return item

    def check_stderr(self):
        text = "".join(self.proc.stderr)
        if "panicked" in text:
            self.fail("panic", text.strip()[-600:])

    def check_deadlines(self, now):
        for job in self.jobs:
            if job.deadline is not None and now > job.deadline:
                self.fail("late", f"{job.line!r}: no answer {now - job.sent:.2f}s after it "
                                  f"(deadline {job.deadline - job.sent:.2f}s)")
            if job.stopped is not None and now > job.stopped + STOP:
                self.fail("stop-late", f"{job.line!r}: still running {now - job.stopped:.2f}s "
                                       "after the command that ends it")

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.read(min(0.02, max(0.0, end - time.monotonic())))

    # ---- output checks

    def on_line(self, t, line):
        self.check_deadlines(t)
        job = self.jobs[0] if self.jobs else None
        after_nodes, self.after_nodes = self.after_nodes, False
        if line.startswith("info string error"):
            self.errors += 1
            return
        if line == "readyok":
            self.readyoks.append(t)
            return
        if line.startswith("bestmove"):
            if not job or job.kind != "search":
                self.fail("stray-bestmove", f"{line!r} with no search running")
            self.jobs.pop(0)
            self.check_bestmove(job, line, t)
            return
        if line.startswith("checkmate"):
            if not job or job.kind != "mate":
                self.fail("stray-checkmate", f"{line!r} with no mate search running")
            self.jobs.pop(0)
            self.check_checkmate(job, line, t)
            return
        if line.startswith("info string perft stopped"):
            STATS["perfts stopped"] += 1
            if not job or job.kind != "perft":
                self.fail("stray-perft", f"{line!r} with no perft running")
            if job.stopped is not None:
                worst(f"{job.snapshot[0]} perft stopped after the command that ends it (ms)",
                      round((t - job.stopped) * 1000))
            if job.stopped is None:
                self.fail("perft-stopped", f"{job.line!r} stopped without a stop")
            self.jobs.pop(0)
            return
        if line.startswith("Nodes searched: "):
            if not job or job.kind != "perft":
                self.fail("stray-perft", f"{line!r} with no perft running")
            self.jobs.pop(0)
            self.after_nodes = True
            self.check_perft(job, line)
            return
        if job and job.kind == "perft" and (re.fullmatch(r"\S+: \d+", line) or line == ""):
            job.perft_lines.append(line)
            return
        if line == "" and after_nodes:
            return
        if line.startswith("info "):
            if not job or job.kind != "search":
                self.fail("stray-info", f"{line!r} with no search running")
            if not re.fullmatch(r"info depth \d+ seldepth \d+ multipv \d+ score "
                                r"(cp -?\d+|mate [+-]?\d*)( lowerbound| upperbound)? nodes \d+ "
                                r"nps \d+ hashfull \d+ time \d+( pv( \S+)+)?", line):
                self.fail("bad-info", repr(line))
            return
        if re.fullmatch(r"response \S+", line):
            self.responses.append(line)
            return
        if re.fullmatch(r"deploy \S+", line):
            self.deploys.append(line)
            return
        if self.expect_hello and (re.fullmatch(r"id (name|author) .+", line) or re.fullmatch(
                r"option name .+ type (spin|check|combo|button|string)( .*)?", line) or
                line in ("uciok", "usiok", "ugiok")):
            self.hello_lines.append(line)
            return
        if self.expect_display:
            self.display.append(line)
            return
        self.fail("not-protocol", f"unexpected stdout line {line!r}")

    def check_bestmove(self, job, line, t):
        fields = line.split()
        game, dialect, legal, board, position = job.snapshot
        if job.waits and job.stopped is None and (job.pondering or job.limits.get("infinite")):
            self.fail("early-bestmove", f"{line!r} for {job.line!r} before "
                                        f"{'ponderhit or ' if job.pondering else ''}stop")
        if dialect == "ugi" and len(fields) != 2:
            self.fail("bestmove-form", f"UGI bestmove is two tokens: {line!r}")
        if not (len(fields) == 2 or (len(fields) == 4 and fields[2] == "ponder")):
            self.fail("bestmove-form", repr(line))
        best = fields[1]
        if job.deadline is not None:
            worst(f"{game} search past its time limit (ms)",
                  round((t - (job.deadline - self.slack(job))) * 1000))
        if job.stopped is not None:
            worst(f"{game} answer after the command that ends it (ms)", round((t - job.stopped) * 1000))
        STATS["bestmoves checked"] += 1
        STATS[f"bestmoves checked by {'library' if board is not None else 'perft 1'}"] += 1
        claim = game == "shogi" and dialect == "usi" and board is not None and board.is_nyugyoku()
        if best == "win":
            if not claim:
                self.fail("bad-win", f"{line!r} after {position!r} ({job.line!r})")
            return
        if claim:
            self.fail("no-win", f"{line!r} where the declaration wins: {position!r}")
        if legal is None:
            return
        if best == NO_MOVE[dialect]:
            if legal:
                self.fail("bad-none", f"{line!r} with legal moves {legal[:8]} after "
                                      f"{position!r} ({job.line!r})")
            return
        if best not in legal:
            self.fail("illegal-bestmove", f"{line!r} not among {sorted(legal)[:12]}... after "
                                          f"{position!r} ({job.line!r})")
        if job.searchmoves and best not in job.searchmoves:
            self.fail("searchmoves", f"{line!r} not in searchmoves {job.searchmoves}")
        if board is not None:
            if best not in lib_legal(game, board):
                self.fail("illegal-bestmove", f"{line!r} illegal for the library after "
                                              f"{position!r}")
            if len(fields) == 4:
                after = lib_after(game, board, best)
                if fields[3] not in lib_legal(game, after):
                    self.fail("illegal-ponder", f"{line!r}: ponder move illegal after {best}")

    def check_checkmate(self, job, line, t):
        board = job.snapshot[3]
        words = line.split()[1:]
        if words in (["nomate"], ["timeout"], ["notimplemented"]) or board is None:
            return
        STATS["mates checked"] += 1
        b = board.copy()
        for i, mv in enumerate(words):
            move = b.move_from_usi(mv)
            if not move or not b.is_legal(move):
                self.fail("bad-checkmate", f"{line!r}: {mv} illegal after {job.snapshot[4]}")
            b.push(move)
            if i % 2 == 0 and not b.is_check():
                self.fail("bad-checkmate", f"{line!r}: {mv} gives no check")
        if len(words) % 2 == 0 or not b.is_game_over():
            self.fail("bad-checkmate", f"{line!r} does not end in mate")

    def check_perft(self, job, line):
        count = int(line.split(": ")[1])
        legal = job.snapshot[2]
        if job.perft_depth == 1 and legal is not None and count != len(legal):
            self.fail("perft-count", f"{line!r}, {len(legal)} legal moves, after {job.snapshot[4]}")
        if job.perft_depth == 0 and count != 1:
            self.fail("perft-count", f"go perft 0: {line!r}")

    # ---- sending

    def sync(self):
        """isready, then every line up to its readyok; returns the errors of the window."""
        asked = [w["t"] for w in self.window if w["kind"] == "isready"]
        t0 = self.proc.send("isready")
        asked.append(t0)
        self.readyoks = []
        while len(self.readyoks) < len(asked):
            if time.monotonic() > t0 + READY + 4:
                self.fail("isready-late", "no readyok within 5 s")
            self.read(0.05)
        # isready also waits for what the commands before it do: a new hash table of up
        # to 1 GB is filled (by setoption, a new game's settings, or cleared by ucinewgame).
        heavy = any(w["kind"] in ("setoption", "newgame", "hello") for w in self.window)
        for sent, answered in zip(asked, self.readyoks):
            if self.jobs:
                worst("readyok during a job (ms)", round((answered - sent) * 1000))
            if answered - sent > (5.0 if heavy else READY):
                self.fail("isready-late", f"readyok after {answered - sent:.2f}s "
                                          f"(window {[w['text'][:80] for w in self.window]})")
        errors = self.errors
        self.errors = 0
        return errors

    def new_window(self):
        self.window = []
        self.errors = 0
        self.readyoks = []
        self.responses = []
        self.deploys = []
        self.hello_lines = []
        self.display = []
        self.expect_hello = False
        self.expect_display = False

    def run(self):
        extra = ["--game", self.start_game] if self.start_game else []
        self.proc = Proc(self.args.binary, extra, self.args.cache)
        try:
            if self.start_game:
                self.model.options = dict(self.oracles[self.start_game].specs)
                self.model.history = self.rule_history() + ["position startpos"]
                self.refresh_position()
            steps = self.replay if self.replay is not None else range(self.length)
            for step in steps:
                if self.quitting:
                    break
                action = step if self.replay is not None else self.generate()
                if self.replay is None:
                    self.done.append(action)
                self.execute(action)
            if not self.quitting:
                self.finish()
            self.check_stderr()
        except RuntimeError as e:
            self.fail("oracle", str(e))
        finally:
            self.proc.kill()

    def finish(self):
        if self.jobs:
            self.done.append(("stop", False))
            self.execute(self.done[-1])
        self.done.append(("quit", False) if self.rng.random() < 0.7 else ("#eof", False))
        self.execute(self.done[-1])

    def execute(self, action):
        line, burst = action
        if line.startswith("#sleep "):
            self.pump(float(line.split()[1]))
            return
        if line == "#eof":
            self.quitting = True
            t = time.monotonic()
            self.proc.close()
            self.expect_exit(t)
            return
        if line.startswith("#bytes "):
            data = bytes.fromhex(line.split()[1])
            text = data.decode("utf-8", "replace")
        else:
            data = line.encode()
            text = line
        self.send_line(data, text, burst)

    def expect_exit(self, t):
        for job in self.jobs:
            job.stopped = job.stopped or t
        while time.monotonic() < t + 1.0:
            if self.proc.poll() is not None:
                break
            self.read(0.02)
        # Lines printed on the way out (a stopped search's bestmove) are still checked.
        while True:
            item = self.proc.get(0.2)
            if item is None or item[1] is None:
                break
            self.on_line(*item)
        if self.proc.poll() is None:
            time.sleep(0.5)
            if self.proc.poll() is None:
                self.fail("no-exit", "the engine did not exit within a second of quit/EOF")
        self.check_stderr()

    def send_line(self, data, text, burst):
        m = self.model
        kind, detail = interpret(text, m.game)
        expect = self.expectation(kind, detail, text)
        entry = {"text": text, "kind": kind, "detail": detail, "expect": expect,
                 "before": list(self.jobs), "job": None, "ends": False, "game": m.game}
        t = self.proc.send(data)
        entry["t"] = t
        STATS[f"sent {kind}"] += 1
        if kind == "quit":
            self.quitting = True
            self.expect_exit(t)
            return
        if kind == "hello":
            self.expect_hello = True
        if kind == "d":
            self.expect_display = True
        if kind in ("go", "perft", "mate") and expect != "error":
            entry["job"] = self.start_job(kind, detail, text, t)
        elif expect == "ok":
            self.apply(entry)
        self.window.append(entry)
        if burst:
            return
        errors = self.sync()
        self.settle(errors)
        self.new_window()

    # ---- expectations and the model

    def expectation(self, kind, detail, text):
        """'ok', 'error' or None (unknown) for a command in the current state."""
        m = self.model
        if kind == "blank":
            return "ok"
        if kind == "bad":
            return "error"
        if kind in ("isready", "hello", "quit"):
            return "ok"
        if kind == "setoption":
            return self.option_expectation(*detail)
        if m.game is None:
            return "error"
        if kind in ("newgame", "d", "query", "gameover", "stop"):
            return "ok"
        if kind == "ponderhit":
            job = self.jobs[-1] if self.jobs else None
            return "ok" if job and job.pondering and job.stopped is None else "error"
        if kind == "deploy":
            return "ok" if m.game == "junqi" else "error"
        if kind in ("go", "perft", "mate"):
            if kind == "go" and detail is None:
                return "error"
            if self.jobs:
                job = self.jobs[-1]
                if job.stopped is None and job.kind == "search" and job.waits and (
                        job.pondering or job.limits.get("infinite")):
                    return "error"
                return None
            if kind == "go" and detail.get("searchmoves") is not None:
                if not all(mv in m.legal for mv in detail["searchmoves"]):
                    return "error"
            return "ok"
        if kind == "position":
            result = self.oracles[m.game].evaluate(self.rule_history() + [text.strip()])
            return "ok" if result is not None else "error"
        return None

    def option_expectation(self, name, value):
        """Every option a game declares may be set at any time: the current game's engine
        takes it, or it is checked and kept for its game (README, Options)."""
        m = self.model
        lower = name.lower()
        if lower == "game":
            return "ok" if value.lower() in GAMES else "error"
        spec = m.options.get(self.alias(lower)) if m.game else None
        if spec is None:
            specs = [o.specs[lower] for o in self.oracles.values() if lower in o.specs]
            if not specs:
                return "error"
            spec = specs[0]
            if not m.game:
                # Kept for later: an unallocatable hash is only found when it is applied.
                return "ok" if valid_value(spec, value) else "error"
        if spec["name"] == "Hash" and valid_value(spec, value) and int(value) > 4096:
            return None
        return "ok" if valid_value(spec, value) else "error"

    def alias(self, name):
        if self.model.game and self.model.session_dialect() == "usi":
            return {"usi_hash": "hash", "usi_ponder": "ponder"}.get(name, name)
        return name

    def settle(self, errors):
        """After a window's readyok: its error count against the expectations, the jobs it
        ended, its answers, and the position."""
        window = self.window
        known_bad = sum(1 for w in window if w["expect"] == "error")
        unknown = sum(1 for w in window if w["expect"] is None)
        lines = [w["text"][:100] for w in window]
        if errors < known_bad or errors > known_bad + unknown:
            self.fail("errors", f"{errors} error lines for {lines} "
                                f"(expected {known_bad}..{known_bad + unknown})")
        if unknown and len(window) > 1:
            raise Lost("a burst with a command of unknown outcome")
        STATS["error lines"] += errors
        for w in window:
            ok = w["expect"] == "ok" if w["expect"] is not None else errors == known_bad
            w["ok"] = ok
            STATS[f"{'accepted' if ok else 'refused'} {w['kind']}"] += 1
            if w["job"] is not None and not ok and w["job"] in self.jobs:
                self.jobs.remove(w["job"])
            elif w["expect"] is None and ok and w["job"] is None:
                self.apply(w)
        # A command that ends the running job returns only once it has answered.
        for w in window:
            if w["ok"] and w["ends"]:
                for job in w["before"]:
                    if job in self.jobs:
                        self.fail("stop-late", f"{job.line!r} had not answered by the readyok "
                                               f"after {w['text'][:80]!r}")
        queries = sum(1 for w in window if w["kind"] == "query" and w["ok"])
        if len(self.responses) != queries:
            self.fail("response", f"{self.responses} for {lines}")
        if queries and window[-1]["kind"] == "query" and self.model.game == "chess":
            self.check_query(window[-1]["detail"])
        deploys = sum(1 for w in window if w["kind"] == "deploy" and w["ok"])
        if len(self.deploys) != deploys:
            self.fail("deploy", f"{self.deploys} for {lines}")
        for dline in self.deploys:
            lineup = dline.split()[1]
            setup = f"position setup S:{lineup} E:{lineup} N:{lineup} W:{lineup}"
            if not self.oracles["junqi"].accepts(setup):
                self.fail("bad-deploy", f"{dline!r} is refused by {setup!r}")
        if any(w["kind"] == "hello" for w in window):
            if not any(l in ("uciok", "usiok", "ugiok") for l in self.hello_lines):
                self.fail("hello", f"no handshake answer: {self.hello_lines}")
            if self.model.game:
                self.model.options = option_specs(self.hello_lines)
        if any(w["kind"] == "d" and w["ok"] for w in window) and self.model.finger is not None:
            if fingerprint(self.display) != self.model.finger:
                self.fail("d", f"d shows {fingerprint(self.display)}, expected {self.model.finger}")
        changers = [w for w in window if w["kind"] in ("position", "setoption", "newgame", "hello")]
        self.new_window()
        for w in changers:
            if not w["ok"] and w["game"] is not None and self.model.finger is not None:
                self.check_unchanged(w["text"])
        if changers and self.model.game is not None:
            self.refresh_position()

    def check_query(self, what):
        board = self.model.board
        if board is None or what not in ("gameover", "result"):
            return
        outcome = board.outcome(claim_draw=True)
        if what == "gameover":
            want = f"response {'true' if outcome else 'false'}"
        elif not outcome:
            want = "response none"
        elif outcome.winner is None:
            want = "response draw"
        else:
            want = f"response {'p1win' if outcome.winner else 'p2win'}"
        if self.responses[-1] != want:
            self.fail("query", f"{self.responses[-1]!r}, python-chess says {want!r} for "
                               f"{board.fen()}")

    def end_jobs(self, entry):
        """`entry` ends the running job: it must answer soon, and before the next readyok."""
        entry["ends"] = True
        for job in entry["before"]:
            if job.stopped is None:
                job.stopped = entry["t"]

    def apply(self, entry):
        """The model after an accepted command."""
        m = self.model
        kind, detail, text = entry["kind"], entry["detail"], entry["text"]
        if kind == "hello":
            m.dialect = detail
            new_game = HELLOS[detail]
            if not m.fixed and m.game != new_game:
                m.game = new_game
                self.new_session(entry)
            elif not m.session:
                self.new_session(entry)
            return
        if kind == "setoption":
            name, value = detail
            lower = name.lower()
            if lower == "game":
                value = value.lower()
                m.fixed = True
                if m.session and m.game == value:
                    return
                m.game = value
                self.new_session(entry)
                return
            spec = m.options.get(self.alias(lower)) if m.game else None
            if spec:
                lower = spec["name"].lower()
                value = normal_value(spec, value)
                self.end_jobs(entry)
                if spec["kind"] != "button":
                    m.settings[lower] = (spec["name"], value)
                if lower in RULE_OPTIONS[m.game]:
                    m.history.append(f"setoption name {spec['name']} value {value}")
            else:
                if number(value, I64) is not None:
                    value = str(int(value))
                else:
                    value = value.lower()
                m.settings[lower] = (name, value)
            return
        if kind == "newgame":
            self.end_jobs(entry)
            m.history = self.rule_history() + ["position startpos"]
            return
        if kind in ("gameover", "stop"):
            self.end_jobs(entry)
            return
        if kind == "position":
            self.end_jobs(entry)
            m.history = self.rule_history() + [text.strip()]
            return
        if kind == "ponderhit":
            job = self.jobs[-1]
            job.pondering = False
            self.set_deadline(job, entry["t"])
            return

    def rule_history(self):
        m = self.model
        out = []
        for lower, (name, default) in RULE_OPTIONS[m.game].items():
            value = m.settings.get(lower, (name, default))[1]
            out.append(f"setoption name {name} value {value}")
        return out

    def new_session(self, entry):
        m = self.model
        self.end_jobs(entry)
        m.session = True
        m.history = self.rule_history() + ["position startpos"]
        m.options = dict(self.oracles[m.game].specs)

    def check_unchanged(self, text):
        shown = self.show()
        if shown != self.model.finger:
            self.fail("changed", f"refused {text[:100]!r} changed the position: "
                                 f"{self.model.finger} -> {shown}")

    def show(self):
        self.new_window()
        self.expect_display = True
        self.proc.send("d")
        self.sync()
        shown = fingerprint(self.display)
        self.new_window()
        return shown

    def refresh_position(self):
        """After a state change: the engine's `d` against the oracle's for the same
        history, and the legal moves and library board of the new position."""
        m = self.model
        shown = self.show()
        result = self.oracles[m.game].evaluate(m.history)
        if result is None:
            self.fail("oracle-refused", f"the engine took {m.history} but a fresh engine refuses it")
        m.legal, oracle_finger, m.notation = result
        if shown != oracle_finger:
            self.fail("state", f"after {m.history}: d shows {shown}, a fresh engine {oracle_finger}")
        m.finger = shown
        m.board = None
        if m.game in ("chess", "shogi"):
            position = m.history[-1]
            board = lib_board(m.game, position)
            if board is False:
                self.fail("verdict", f"the engine took {position[:200]!r}, the {m.game} library "
                                     "refuses its moves")
            if board is not None:
                m.board = board
                self.compare_notation(board)

    def compare_notation(self, board):
        m = self.model
        ours = m.notation.split()
        if m.game == "chess":
            theirs = board.fen().split()
            if ours[:3] != theirs[:3] or ours[4:] != theirs[4:]:
                self.fail("fen", f"d says {m.notation!r}, python-chess {board.fen()!r}")
        else:
            theirs = board.sfen().split()
            if ours[:3] != theirs[:3]:
                self.fail("sfen", f"d says {m.notation!r}, cshogi {board.sfen()!r}")
        if sorted(lib_legal(m.game, board)) != sorted(m.legal):
            self.fail("movegen", f"perft 1 moves differ from the library's at {m.notation}")

    def start_job(self, kind, detail, text, t):
        m = self.model
        snapshot = (m.game, m.session_dialect(), m.legal, m.board, m.history[-1] if m.history else None)
        job = Job("search" if kind == "go" else kind, text, t, snapshot)
        job.limits = detail if kind == "go" else {}
        if kind == "go":
            job.waits = bool(detail.get("infinite") or detail.get("ponder"))
            job.pondering = bool(detail.get("ponder"))
            job.searchmoves = detail.get("searchmoves")
            if not job.waits:
                self.set_deadline(job, t)
        elif kind == "mate":
            job.deadline = None if detail is None else t + min(detail / 1000, m.mtl() / 1000) + SLACK
        else:
            job.perft_depth = detail
        self.jobs.append(job)
        return job

    def slack(self, job):
        return getattr(job, "slack", SLACK)

    def set_deadline(self, job, t):
        limits = job.limits
        mtl = self.model.mtl() / 1000
        if limits.get("infinite"):
            job.deadline = None
            return
        slack = job.slack = SLACK + 0.1 * max(0, self.model.threads() - 2)
        if "movetime" in limits:
            job.deadline = t + min(max(limits["movetime"], 0) / 1000, mtl) + slack
        else:
            job.deadline = t + mtl + slack

    # ---- generation

    def generate(self):
        m = self.model
        r = self.rng
        if self.pending:
            follow, self.pending = self.pending, None
            return (follow, False)
        # A search that waits, or a long job, is ended sooner or later.
        if self.jobs:
            job = self.jobs[-1]
            age = time.monotonic() - job.sent
            if job.pondering and job.stopped is None and r.random() < 0.3:
                return (r.choice(["ponderhit", "#sleep 0.05", "#sleep 0.2"]), False)
            if job.deadline is not None and job.deadline - job.sent <= 2 and r.random() < 0.5:
                left = job.deadline - self.slack(job) - time.monotonic()
                return (f"#sleep {max(0.01, min(0.4, left + 0.02)):.2f}", False)
            if (job.waits or job.deadline is None or job.deadline - job.sent > 2) and age > NO_LIMIT_STOP * r.random() * 2:
                if job.pondering and r.random() < 0.5:
                    return ("ponderhit", False)
                return (r.choice(["stop", "stop", "stop", self.position_line() if m.game else "stop"]), False)
        if m.game is None:
            choice = r.choices(["hello", "setopt", "junk", "other"], [5, 2, 1, 1])[0]
            if choice == "hello":
                return (r.choice(list(HELLOS)), False)
            if choice == "setopt":
                return (self.setoption_line(), False)
            if choice == "junk":
                return (self.junk_line(), False)
            return (r.choice(["isready", "position startpos", "go depth 1", "stop", "d",
                              "setoption name Game value " + r.choice(GAMES)]), False)
        weights = {
            "position": 14, "badposition": 6, "go": 16, "badgo": 4, "perft": 5, "mate": 3,
            "deploy": 2, "stop": 6, "ponderhit": 3, "isready": 3, "setopt": 9, "game": 1,
            "newgame": 3, "query": 3, "d": 2, "hello": 2, "gameover": 1, "junk": 8,
            "sleep": 6, "quit": 0.4, "burst": 3,
        }
        choice = r.choices(list(weights), list(weights.values()))[0]
        if choice == "position":
            return (self.position_line(), False)
        if choice == "badposition":
            return (self.mutate_position(self.position_line()), False)
        if choice == "go":
            return (self.go_line(), False)
        if choice == "badgo":
            return (self.mutate_go(self.go_line()), False)
        if choice == "perft":
            depth = r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7])
            return (f"go perft {depth}", False)
        if choice == "mate":
            return (r.choice([f"go mate {r.randint(0, 400)}", "go mate infinite", "go mate",
                              f"go mate {r.choice([1000, 2000, 3000])}",
                              "go mate -5", f"go mate {r.randint(1, 3)}"]), False)
        if choice == "deploy":
            return ("go deploy", False)
        if choice == "stop":
            return ("stop", False)
        if choice == "ponderhit":
            return ("ponderhit", False)
        if choice == "isready":
            return ("isready", False)
        if choice == "setopt":
            return (self.setoption_line(), False)
        if choice == "game":
            if self.start_game and r.random() < 0.7:
                return (f"setoption name Game value {self.start_game}", False)
            return ("setoption name Game value " + r.choice(GAMES + ["xiangqi", "", "Chess"]), False)
        if choice == "newgame":
            return (r.choice(["ucinewgame", "usinewgame", "uginewgame"]), False)
        if choice == "query":
            return ("query " + r.choice(["gameover", "p1turn", "result", "turn"]), False)
        if choice == "d":
            return ("d", False)
        if choice == "hello":
            return (r.choice([DEFAULT_HELLO[m.game]] * 3 + list(HELLOS)), False)
        if choice == "gameover":
            return (r.choice(["gameover win", "gameover lose", "gameover draw", "gameover"]), False)
        if choice == "junk":
            return (self.junk_line(), False)
        if choice == "sleep":
            return (f"#sleep {r.choice([0.02, 0.05, 0.1, 0.2, 0.4])}", False)
        if choice == "quit":
            return (r.choice(["quit", "#eof"]), False)
        # A burst: a go and what ends it, with no isready in between.
        go = f"go movetime {r.randint(1, 50)}" if r.random() < 0.5 else "go infinite"
        if self.jobs:
            return ("stop", False)
        follow = r.choice(["stop", "stop", self.position_line(), "isready", "ucinewgame" if
                           DEFAULT_HELLO[m.game] == "uci" else "stop"])
        self.pending = follow
        return (go, True) if self.model.legal is not None else ("stop", False)

    def random_line(self, board, plies, name):
        """Up to `plies` random legal moves played on a python-chess or cshogi board, by
        their names."""
        moves = []
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            mv = self.rng.choice(legal)
            moves.append(name(mv))
            board.push(mv)
        return moves

    def position_line(self):
        m = self.model
        r = self.rng
        game = m.game
        plies = r.choice([0, 0, 1, 2, 3, 5, 8, 12, 20, 40, 80])
        if game == "chess":
            base = "startpos" if r.random() < 0.5 else "fen " + r.choice(CHESS_FENS)
            board = chess.Board() if base == "startpos" else chess.Board(base[4:])
            moves = self.random_line(board, plies, chess.Move.uci)
            if moves and r.random() < 0.2:
                return f"position fen {board.fen()}"
        elif game == "shogi":
            base = "startpos" if r.random() < 0.5 else "sfen " + r.choice(SHOGI_SFENS)
            board = cshogi.Board() if base == "startpos" else cshogi.Board(base[5:])
            moves = self.random_line(board, plies, cshogi.move_to_usi)
        else:
            oracle = self.oracles[game]
            if game == "junqi" and r.random() < 0.3:
                lineups = [oracle.deploy() if r.random() < 0.5 else "adgicegebigckhfdjhjkfljhi"
                           for _ in range(4)]
                base = "setup " + " ".join(f"{s}:{l}" for s, l in zip("SENW", lineups))
            elif game == "foursquare" and r.random() < 0.3:
                base = "fen " + r.choice(["bbbb/4/4/wwww b", "bb2/b3/1w2/w3 w", "b1b1/1w2/2b1/w1w1 w 7",
                                          "bbb1/4/4/1www b 10", "bbbb/4/4/w3 w"])
            else:
                base = "startpos"
            moves = []
            rules = self.rule_history()
            plies = min(plies, 30)
            for _ in range(plies):
                line = f"position {base}" + (" moves " + " ".join(moves) if moves else "")
                result = oracle.evaluate(rules + [line])
                if not result or not result[0]:
                    break
                if game == "junqi" and r.random() < 0.08:
                    moves.append(r.choice(["pass", "pass", "timeout"]))
                else:
                    moves.append(r.choice(result[0]))
            if moves and r.random() < 0.2:
                line = f"position {base} moves " + " ".join(moves)
                result = oracle.evaluate(rules + [line])
                if result and result[2]:
                    return f"position fen {result[2]}"
            if game == "junqi" and r.random() < 0.1:
                moves.append(r.choice(["pass", "timeout", "resign"]))
        return f"position {base}" + (" moves " + " ".join(moves) if moves else "")

    def mutate_position(self, line):
        r = self.rng
        if r.random() < 0.4:
            line = "position " + r.choice(WEIRD[self.model.game])
            if r.random() < 0.5:
                return line
        tokens = line.split(" ")
        how = r.randrange(9)
        if how == 0 and "moves" in tokens:       # an illegal or garbled move
            i = tokens.index("moves")
            j = r.randint(i + 1, len(tokens))
            tokens.insert(j, r.choice(["e2e5", "a1a1", "0000", "e7e8x", "zz", "7g7f+", "P*0e",
                                       "i1i9", "a4a2", "pass", "", "O-O", "e2", "moves",
                                       "a9a9+", "K*5e", "\u00e92e4"]))
        elif how == 1:                            # a character changed in the position
            text = " ".join(tokens)
            if len(text) > 10:
                k = r.randrange(9, len(text))
                text = text[:k] + r.choice("0123456789/ kKqQpPbBrRnN-+*wbx\u00e9") + text[k + 1:]
            return text
        elif how == 2:                            # a character deleted
            text = " ".join(tokens)
            k = r.randrange(9, max(10, len(text)))
            return text[:k] + text[k + 1:]
        elif how == 3:                            # a field dropped or doubled
            if len(tokens) > 2:
                k = r.randrange(2, len(tokens))
                if r.random() < 0.5:
                    del tokens[k]
                else:
                    tokens.insert(k, tokens[k])
        elif how == 4:                            # huge or negative counters
            tokens.insert(min(len(tokens), r.randint(2, 8)),
                          r.choice(["-1", "99999999999999999999", "4294967296", "0", "-0", "+3"]))
        elif how == 5:                            # a different keyword
            tokens[1] = r.choice(["fen", "sfen", "setup", "startpos", "Startpos", "", "fen fen"])
        elif how == 6:                            # moves without a list, or twice
            tokens.append(r.choice(["moves", "moves moves", "moves e2e4 moves"]))
        elif how == 7:                            # a long tail
            tokens += [r.choice(["e2e4", "a4a3", "7g7f", "i6i7"])] * r.randint(50, 3000)
        else:                                     # a piece letter or count that cannot be
            text = " ".join(tokens)
            return text.replace("/", r.choice(["//", "/9/", "/X/", "/8/8/"]), 1)
        return " ".join(tokens)

    def go_line(self):
        m = self.model
        r = self.rng
        parts = []
        for _ in range(r.choice([1, 1, 1, 2, 3])):
            what = r.choices(["depth", "movetime", "nodes", "clock", "infinite", "ponder", "mate"],
                             [6, 8, 3, 5, 2, 4, 1])[0]
            if what == "depth":
                parts.append(f"depth {r.randint(0, 6)}")
            elif what == "movetime":
                parts.append(f"movetime {r.randint(0, 300)}")
            elif what == "nodes":
                parts.append(f"nodes {r.choice([0, 1, 10, 1000, 50000, 10 ** 12])}")
            elif what == "clock":
                owners = CLOCKS[m.game]
                for owner in r.sample(owners, r.randint(1, len(owners))):
                    parts.append(f"{owner}time {r.choice([0, 1, 50, 500, 5000, 60000, -100])}")
                    if r.random() < 0.5:
                        parts.append(f"{owner}inc {r.choice([0, 10, 100, 2000])}")
                if r.random() < 0.3:
                    parts.append(f"movestogo {r.randint(0, 40)}")
                if m.game == "shogi" and r.random() < 0.5:
                    parts.append(f"byoyomi {r.choice([0, 100, 300, 1000])}")
            elif what == "infinite":
                parts.append("infinite")
            elif what == "ponder":
                parts.append("ponder")
            elif what == "mate" and m.game != "shogi":
                parts.append(f"mate {r.randint(0, 4)}")
        if r.random() < 0.15 and m.legal:
            k = r.randint(1, min(4, len(m.legal)))
            moves = r.sample(m.legal, k)
            if r.random() < 0.3:
                moves.append(r.choice(["e2e5", "a1a1", "pass", "zz", "0000", "resign", "7g7f+"]))
            parts.append("searchmoves " + " ".join(moves))
        return "go " + " ".join(parts)

    def mutate_go(self, line):
        r = self.rng
        tokens = line.split()
        how = r.randrange(7)
        if how == 0:
            tokens.append(r.choice(["depth", "movetime", "nodes", "wtime", "p1time", "btime"]))
        elif how == 1:
            tokens.insert(r.randint(1, len(tokens)), r.choice(["depth x", "movetime -", "nodes 1.5",
                                                              "depth 99999999999", "perft",
                                                              "movetime 1e3", "mate", "wtime"]))
        elif how == 2:
            tokens.append("depth 2 " * r.randint(2, 5))
        elif how == 3:
            tokens = ["go", "perft", r.choice(["-1", "65", "x", "3 3", "", "99999999999"])]
        elif how == 4:
            tokens.append("searchmoves")
        elif how == 5:
            tokens = ["go", r.choice(["deploy now", "mate", "perft", "infinite infinite",
                                      "ponder ponder movetime 5", "searchmoves searchmoves"])]
        else:
            tokens = ["go", "movetime", str(r.choice([2 ** 64, -(2 ** 63), 2 ** 63 - 1, 10 ** 30]))]
        return " ".join(tokens)

    def setoption_line(self):
        m = self.model
        r = self.rng
        specs = [s for s in m.options.values() if s] if m.options else []
        if r.random() < 0.15:
            # An option of another game (or, before the game is chosen, of any game).
            specs = [spec for g, o in self.oracles.items() if g != m.game for spec in o.specs.values()]
        if not specs or r.random() < 0.1:
            name = r.choice(["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead",
                             "MoveTimeLimit", "MaxPlies", "NoCombatDrawPlies", "MaxPasses",
                             "Tablebase", "USI_Hash", "USI_Ponder", "NoSuchOption", "Game"])
            specs = [{"name": name, "kind": "spin", "min": 0, "max": 100}]
        spec = r.choice(specs)
        name = spec["name"]
        if r.random() < 0.1:
            name = r.choice([name.lower(), name.upper(), name + " ", "  " + name])
        good = r.random() < 0.65
        kind = spec["kind"]
        if kind == "spin":
            lo, hi = spec["min"], spec["max"]
            if spec["name"] == "Hash":
                # Big enough, now and then, that filling the table takes a while.
                hi = min(hi, 1024 if r.random() < 0.1 else 256)
            if spec["name"] == "Threads":
                hi = min(hi, 3)
            if spec["name"] == "MultiPV":
                hi = min(hi, 8) if r.random() < 0.9 else hi
            if spec["name"] == "MoveTimeLimit":
                hi = 2000
            if spec["name"] == "Move Overhead":
                hi = min(hi, 200)
            value = str(r.choice([lo, lo + 1, hi, r.randint(lo, min(hi, lo + 10)), r.randint(lo, hi),
                                  r.randint(lo, hi)])) if good else r.choice(
                [str(lo - 1), str(spec["max"] + 1), "abc", "", "1.5", "99999999999999999999",
                 "-99999999999999999999", "0x10", "1e3", "5 5", "value"])
        elif kind == "check":
            value = r.choice(["true", "false", "TRUE"]) if good else r.choice(["yes", "1", "", "on"])
        elif kind == "combo":
            value = r.choice(spec["vars"]) if good else r.choice(["", "none", "xiangqi"])
        else:
            value = None if good else r.choice(["", "1", "now"])
        if spec["name"] == "Hash" and r.random() < 0.2 and huge_hash_fails():
            value = "65536"
        if value is None:
            return f"setoption name {name}"
        if r.random() < 0.05:
            return f"setoption name {name} value"
        if r.random() < 0.03:
            return f"setoption {name} value {value}"
        return f"setoption name {name} value {value}"

    def junk_line(self):
        r = self.rng
        how = r.randrange(8)
        words = ["uci", "usi", "ugi", "isready", "setoption", "name", "value", "position",
                 "startpos", "fen", "sfen", "moves", "go", "perft", "stop", "ponderhit", "query",
                 "d", "ucinewgame", "gameover", "depth", "movetime", "infinite", "ponder",
                 "searchmoves", "register", "debug", "Hash", "mate", "deploy"]
        if how == 0:
            n = r.randint(1, 80)
            data = bytes(r.choice([r.randrange(256), r.randrange(32, 127)]) for _ in range(n))
            data = data.replace(b"\n", b" ")
            return "#bytes " + data.hex()
        if how == 1:
            return " ".join(r.choice(words) for _ in range(r.randint(1, 8)))
        if how == 2:
            w = r.choice(words)
            k = r.randrange(len(w))
            return w[:k] + w[k + 1:] + " " + r.choice(["", "x", "1"])
        if how == 3:
            return r.choice(["x" * r.randint(1, 200000), "go depth " + "9" * 5000,
                             "position startpos moves " + "e2e4 " * 20000])
        if how == 4:
            return r.choice(words) + r.choice(["\t", "\x0b", "\x0c", "\r", "\u00a0", "\x1f", "\x00"]) + r.choice(words)
        if how == 5:
            return r.choice(["isready now", "stop now", "ponderhit 1", "d board", "uci 1",
                             "query", "query turn turn", "gameover maybe", "register later",
                             "debug on", "   ", "\t", "setoption", "setoption name", "setoption value 1",
                             "position", "go perft", "ucinewgame again"])
        if how == 6:
            return "x" * (1 << 20) + "y" * r.randint(1, 10)
        return r.choice(["go", "go movetime 1", "go depth 1", "go infinite", "go ponder",
                         "go searchmoves", "go nodes 1"]) + r.choice(["", " x", " depth", " 5"])


# ---------------------------------------------------------------- driving

def describe(actions):
    out = []
    for line, burst in actions:
        if line.startswith("#bytes "):
            data = bytes.fromhex(line.split()[1])
            out.append(f"#bytes {data.hex()}   ({data!r:.80})")
        elif len(line) > 300:
            out.append(line[:150] + f"... ({len(line)} characters)")
        else:
            out.append(line)
        if burst:
            out[-1] = "#burst\n" + out[-1]
    return out


def attempt(args, game, actions, oracles):
    session = Session(args, game, random.Random(0), oracles, actions=actions)
    try:
        session.run()
    except Failure as f:
        return f
    except Lost:
        return None
    return None


def minimise(args, game, actions, failure, oracles, budget=40):
    """Removes commands (halves, then quarters, ... then one at a time) while the same
    kind of failure recurs."""
    kind = failure.kind
    best = list(actions)
    chunk = max(1, len(best) // 2)
    tries = 0
    while chunk >= 1 and tries < budget:
        i = 0
        changed = False
        while i < len(best) and tries < budget:
            candidate = best[:i] + best[i + chunk:]
            tries += 1
            if candidate and (attempt(args, game, candidate, oracles) or Failure("", "")).kind == kind:
                best = candidate
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return best


def read_replay(path):
    actions = []
    burst = False
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("  > "):
            line = line[4:]
        if line == "#burst":
            burst = True
            continue
        if not line.strip() and not line:
            continue
        actions.append((line, burst))
        burst = False
    return actions


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
