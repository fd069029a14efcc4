"""The commands a session sends, drawn at random from what the model knows: positions
reached by random legal lines (on python-chess and cshogi boards for chess and shogi, by
the second engine's moves for Junqi and FourSquare) and mutated ones, searches and their
limits, options good and bad, junk, pauses, and what ends a running job."""

import os
import re
import time

from .boards import chess, cshogi
from .positions import CHESS_FENS, SHOGI_SFENS, WEIRD
from .protocol import CLOCKS, DEFAULT_HELLO, GAMES, HELLOS

NO_LIMIT_STOP = 1.5  # a search with no time limit of its own is stopped after this
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Files for `EvalFile`: a shogi network (a chess engine refuses it), a file that is no
# network, a directory; by absolute path, whatever the fuzzer's directory.
EVAL_FILES = [os.path.join(ROOT, "docs", "networks", "shogi-s44.nnue"),
              os.path.join(ROOT, "Cargo.toml"), os.path.join(ROOT, "docs")]


def huge_hash_fails():
    """Whether a 64 GiB table surely cannot be had here (more than memory and swap), so the
    fuzzer may ask for one to see it refused without touching the machine's memory."""
    try:
        info = open("/proc/meminfo").read()
        kb = sum(int(re.search(rf"^{k}:\s+(\d+)", info, re.M).group(1)) for k in ("MemTotal", "SwapTotal"))
        return kb < 60 * 1024 * 1024
    except (OSError, AttributeError):
        return False


class Generator:
    """Draws a session's actions, `(line, burst)` pairs: `burst` sends the line with no
    `isready` after it. It reads the session's model and running jobs, and may queue the
    command that follows a burst."""

    def __init__(self, rng, model, jobs, oracles, start_game):
        self.rng = rng
        self.model = model
        self.jobs = jobs
        self.oracles = oracles
        self.start_game = start_game
        self.pending = None

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
                left = job.deadline - job.slack - time.monotonic()
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
            # Under UCI_Chess960 castling is named king takes rook, as on a chess960 board.
            board = chess.Board(chess.STARTING_FEN if base == "startpos" else base[4:],
                                chess960=m.chess960())
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
            rules = self.model.rule_history()
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
        elif spec["name"] == "EvalFile":
            # Empty or <empty> (the hand-written evaluation), the default (the built-in
            # network), paths that do not exist, <internal> (no such name: a path too),
            # and files that exist, a network or not.
            value = r.choice(["", "<empty>", spec.get("default", "<empty>"), "<internal>",
                              "now", "/no/such/file.nnue"] + EVAL_FILES)
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
