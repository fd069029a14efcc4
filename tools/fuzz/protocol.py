"""The engine's command language as the fuzzer models it: the games and their
handshakes, the words and numbers Rust's parsing takes, a mirror of the command parser,
and the options an engine declares."""

import os
import re

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
# The options a game's positions carry (the engine re-applies them to every new position),
# which the oracle is told before a position: rules, and chess's castling notation.
RULE_OPTIONS = {"foursquare": {"maxplies": ("MaxPlies", "0")},
                "junqi": {"nocombatdrawplies": ("NoCombatDrawPlies", "50"),
                          "maxpasses": ("MaxPasses", "5")},
                "chess": {"uci_chess960": ("UCI_Chess960", "false")}, "shogi": {}}
# What Rust's `split_whitespace` splits on (Python's `split` also splits on \x1c-\x1f).
RUST_WS = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")


def split(line):
    return [t for t in RUST_WS.split(line) if t]


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
        if kind == "string":
            m = re.match(r" default (.*)$", rest)
            spec["default"] = m.group(1) if m else ""
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



NO_FILE = "<empty>"  # what `EvalFile` says, and may be set to, for no network


def eval_file_expectation(spec, value):
    """What the engine of a game that declares `EvalFile` does with a value: empty or
    `<empty>` is the hand-written evaluation, the declared default the built-in network
    (unless a file of that name exists), anything else a path read as a network. 'ok',
    'error' (no such file: one error line, the evaluation kept) or 'read' (a file that
    exists, which is accepted only if it is a network of that game)."""
    path = re.sub(rf"^{RUST_WS.pattern}|{RUST_WS.pattern}$", "", value)  # Rust's `trim`
    if path in ("", NO_FILE):
        return "ok"
    try:
        exists = os.path.exists(path)
    except ValueError:  # a NUL byte: no such file for the engine either
        exists = False
    if exists:
        return "read"
    return "ok" if path == spec.get("default") else "error"
