"""One session: a fresh engine, a sequence of commands (generated or replayed), every
answer checked as it comes. The model of the engine's state it keeps tells what each
command should do: be accepted or refused, start or end a job, change the position."""

import re
import time

from .boards import lib_board
from .checks import (READY, SLACK, STATS, STOP, check_bestmove, check_checkmate, check_info,
                     check_perft, check_query, compare_notation, fail, worst)
from .generate import Generator
from .oracles import Proc, fingerprint
from .protocol import (DEFAULT_HELLO, GAMES, HELLOS, I64, RULE_OPTIONS, eval_file_expectation,
                       interpret, normal_value, number, option_specs, valid_value)


class Lost(Exception):
    """The fuzzer no longer knows the engine's state (a mutated command did something it
    cannot model): the session ends early, without a verdict."""


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
        self.slack = SLACK            # how far past its deadline it may answer
        self.wdl = False              # UCI_ShowWDL on when it started: info lines give wdl


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

    def session_dialect(self):
        return self.dialect or DEFAULT_HELLO[self.game]

    def mtl(self):
        return int(self.settings.get("movetimelimit", ("", "60000"))[1])

    def threads(self):
        return int(self.settings.get("threads", ("", "1"))[1])

    def chess960(self):
        """`UCI_Chess960`: chess castling is named king takes rook, FENs print
        Shredder-FEN."""
        return self.settings.get("uci_chess960", ("", "false"))[1] == "true"

    def position(self):
        """The position command of the history (rule options may follow it)."""
        return next((line for line in reversed(self.history) if line.startswith("position")),
                    None)

    def show_wdl(self):
        """Whether a search's info lines give `wdl`: `UCI_ShowWDL` is on (set for this
        game, or kept from before it was chosen) and this game declares it."""
        return ("uci_showwdl" in self.options
                and self.settings.get("uci_showwdl", ("", "false"))[1] == "true")

    def rule_history(self):
        """The rule options' `setoption` lines, which the oracle is told before a position."""
        out = []
        for lower, (name, default) in RULE_OPTIONS[self.game].items():
            value = self.settings.get(lower, (name, default))[1]
            out.append(f"setoption name {name} value {value}")
        return out


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
        self.after_nodes = False
        self.generator = Generator(rng, self.model, self.jobs, oracles, game)
        self.new_window()

    # ---- low level

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
                fail("exit", f"the engine exited (code {self.proc.poll()})")
            return item
        self.on_line(t, line)
        return item

    def check_stderr(self):
        text = "".join(self.proc.stderr)
        if "panicked" in text:
            fail("panic", text.strip()[-600:])

    def check_deadlines(self, now):
        for job in self.jobs:
            if job.deadline is not None and now > job.deadline:
                fail("late", f"{job.line!r}: no answer {now - job.sent:.2f}s after it "
                             f"(deadline {job.deadline - job.sent:.2f}s)")
            if job.stopped is not None and now > job.stopped + STOP:
                fail("stop-late", f"{job.line!r}: still running {now - job.stopped:.2f}s "
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
                fail("stray-bestmove", f"{line!r} with no search running")
            self.jobs.pop(0)
            check_bestmove(job, line, t)
            return
        if line.startswith("checkmate"):
            if not job or job.kind != "mate":
                fail("stray-checkmate", f"{line!r} with no mate search running")
            self.jobs.pop(0)
            check_checkmate(job, line)
            return
        if line.startswith("info string perft stopped"):
            STATS["perfts stopped"] += 1
            if not job or job.kind != "perft":
                fail("stray-perft", f"{line!r} with no perft running")
            if job.stopped is not None:
                worst(f"{job.snapshot[0]} perft stopped after the command that ends it (ms)",
                      round((t - job.stopped) * 1000))
            if job.stopped is None:
                fail("perft-stopped", f"{job.line!r} stopped without a stop")
            self.jobs.pop(0)
            return
        if line.startswith("Nodes searched: "):
            if not job or job.kind != "perft":
                fail("stray-perft", f"{line!r} with no perft running")
            self.jobs.pop(0)
            self.after_nodes = True
            check_perft(job, line)
            return
        if job and job.kind == "perft" and (re.fullmatch(r"\S+: \d+", line) or line == ""):
            return  # a root move's count: only the total is checked
        if line == "" and after_nodes:
            return
        if line.startswith("info "):
            if not job or job.kind != "search":
                fail("stray-info", f"{line!r} with no search running")
            check_info(job, line)
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
        fail("not-protocol", f"unexpected stdout line {line!r}")

    # ---- sending

    def sync(self):
        """isready, then every line up to its readyok; returns the errors of the window."""
        asked = [w["t"] for w in self.window if w["kind"] == "isready"]
        t0 = self.proc.send("isready")
        asked.append(t0)
        self.readyoks = []
        while len(self.readyoks) < len(asked):
            if time.monotonic() > t0 + READY + 4:
                fail("isready-late", "no readyok within 5 s")
            self.read(0.05)
        # isready also waits for what the commands before it do: a new hash table of up
        # to 1 GB is filled (by setoption, a new game's settings, or cleared by ucinewgame).
        heavy = any(w["kind"] in ("setoption", "newgame", "hello") for w in self.window)
        for sent, answered in zip(asked, self.readyoks):
            if self.jobs:
                worst("readyok during a job (ms)", round((answered - sent) * 1000))
            if answered - sent > (5.0 if heavy else READY):
                fail("isready-late", f"readyok after {answered - sent:.2f}s "
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
                self.model.history = self.model.rule_history() + ["position startpos"]
                self.refresh_position()
            steps = self.replay if self.replay is not None else range(self.length)
            for step in steps:
                if self.quitting:
                    break
                action = step if self.replay is not None else self.generator.generate()
                if self.replay is None:
                    self.done.append(action)
                self.execute(action)
            if not self.quitting:
                self.finish()
            self.check_stderr()
        except RuntimeError as e:
            fail("oracle", str(e))
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
                fail("no-exit", "the engine did not exit within a second of quit/EOF")
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
            result = self.oracles[m.game].evaluate(m.rule_history() + [text.strip()])
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
        declared = spec is not None   # by the current game, whose engine takes it now
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
        if spec["name"] == "EvalFile" and declared:
            # The current game's evaluation reads the network now; a file it cannot read
            # is refused and the evaluation kept. Another game's is only kept.
            verdict = eval_file_expectation(spec, value)
            if verdict == "read":
                verdict = "ok" if self.oracles[m.game].takes_eval_file(value) else "error"
            STATS[f"EvalFile {'taken' if verdict == 'ok' else 'refused'} ({m.game})"] += 1
            return verdict
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
            fail("errors", f"{errors} error lines for {lines} "
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
                        fail("stop-late", f"{job.line!r} had not answered by the readyok "
                                          f"after {w['text'][:80]!r}")
        queries = sum(1 for w in window if w["kind"] == "query" and w["ok"])
        if len(self.responses) != queries:
            fail("response", f"{self.responses} for {lines}")
        if queries and window[-1]["kind"] == "query" and self.model.game == "chess":
            check_query(self.model.board, window[-1]["detail"], self.responses[-1])
        deploys = sum(1 for w in window if w["kind"] == "deploy" and w["ok"])
        if len(self.deploys) != deploys:
            fail("deploy", f"{self.deploys} for {lines}")
        for dline in self.deploys:
            lineup = dline.split()[1]
            setup = f"position setup S:{lineup} E:{lineup} N:{lineup} W:{lineup}"
            if not self.oracles["junqi"].accepts(setup):
                fail("bad-deploy", f"{dline!r} is refused by {setup!r}")
        if any(w["kind"] == "hello" for w in window):
            if not any(l in ("uciok", "usiok", "ugiok") for l in self.hello_lines):
                fail("hello", f"no handshake answer: {self.hello_lines}")
            if self.model.game:
                self.model.options = option_specs(self.hello_lines)
        if any(w["kind"] == "d" and w["ok"] for w in window) and self.model.finger is not None:
            if fingerprint(self.display) != self.model.finger:
                fail("d", f"d shows {fingerprint(self.display)}, expected {self.model.finger}")
        changers = [w for w in window if w["kind"] in ("position", "setoption", "newgame", "hello")]
        self.new_window()
        for w in changers:
            if not w["ok"] and w["game"] is not None and self.model.finger is not None:
                self.check_unchanged(w["text"])
        if changers and self.model.game is not None:
            self.refresh_position()

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
            m.history = m.rule_history() + ["position startpos"]
            return
        if kind in ("gameover", "stop"):
            self.end_jobs(entry)
            return
        if kind == "position":
            self.end_jobs(entry)
            m.history = m.rule_history() + [text.strip()]
            return
        if kind == "ponderhit":
            job = self.jobs[-1]
            job.pondering = False
            self.set_deadline(job, entry["t"])
            return

    def new_session(self, entry):
        m = self.model
        self.end_jobs(entry)
        m.session = True
        m.history = m.rule_history() + ["position startpos"]
        m.options = dict(self.oracles[m.game].specs)

    def check_unchanged(self, text):
        shown = self.show()
        if shown != self.model.finger:
            fail("changed", f"refused {text[:100]!r} changed the position: "
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
            fail("oracle-refused", f"the engine took {m.history} but a fresh engine refuses it")
        m.legal, oracle_finger, m.notation = result
        if shown != oracle_finger:
            fail("state", f"after {m.history}: d shows {shown}, a fresh engine {oracle_finger}")
        m.finger = shown
        m.board = None
        if m.game in ("chess", "shogi"):
            position = m.position()
            board = lib_board(m.game, position, m.game == "chess" and m.chess960())
            if board is False:
                fail("verdict", f"the engine took {position[:200]!r}, the {m.game} library "
                                "refuses its moves")
            if board is not None:
                m.board = board
                if m.game == "chess" and m.chess960():
                    STATS["chess boards checked under UCI_Chess960"] += 1
                compare_notation(m.game, board, m.notation, m.legal)

    def start_job(self, kind, detail, text, t):
        m = self.model
        snapshot = (m.game, m.session_dialect(), m.legal, m.board, m.position())
        job = Job("search" if kind == "go" else kind, text, t, snapshot)
        job.limits = detail if kind == "go" else {}
        job.wdl = m.show_wdl()
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
