"""A failing sequence made small, printed, and read back: `minimise` removes commands
while the same kind of failure recurs, `describe` prints what is left, `read_replay` reads
such a printout (or any file of commands) for `--replay`."""

import random

from .checks import Failure
from .session import Lost, Session


def describe(actions):
    """The actions as lines to print: raw bytes shown, very long lines cut."""
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
    """Runs `actions` once in a fresh session: the failure, or None."""
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
    """The actions of a file of commands, one a line (`  > ` before a line, as `describe`
    is printed, is left out; `#burst` marks the next line)."""
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
