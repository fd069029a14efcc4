"""The one engine driver the scripts in tools/ share: start an engine (qiyi or another
UCI/USI/UGI program), send lines, read its lines with or without a timeout, wait for a
line that starts with a given word, the handshake, `isready`, options, `go` and `quit`.

    from engine import Engine
    e = Engine("target/release/qiyi --game shogi", ["Hash=64"])   # usi, options, isready
    e.send("position startpos")
    move, score = e.go("nodes 20000")
    e.quit()

A reader thread timestamps each stdout line as it arrives, so a caller may wait with a
deadline (`get`, `until(..., timeout=)`) and measure latencies (the fuzzer); stdout is
read as bytes and decoded leniently, so a line that is not UTF-8 cannot stop the reader,
and `get` gives each line as it came, less its newline. Chess matches may use
python-chess's engine instead: `uci()` starts one from the same kind of command and
option list.

Run as a script, it starts an engine, sends each line of standard input and prints what
comes back (a quick way to try a command by hand):

    python3 tools/engine.py --protocol ugi "target/release/qiyi --game junqi"
"""
import argparse
import os
import queue
import shlex
import subprocess
import sys
import threading
import time


class Engine:
    """One engine process.

    `command` is a string (split as a shell would) or a list; `options` are `Name=value`
    strings sent as `setoption` after the handshake; `protocol` is the handshake word
    (`usi`, `uci`, `ugi`), or None to send nothing at start. `stderr`: None lets the
    engine's stderr through, "discard" drops it, "keep" collects it in `self.stderr`.
    `env` adds to (or, with a value of None, removes from) the environment. `strip`:
    whether `line`, `until` and the rest strip a line's leading and trailing blanks (False
    keeps the indentation of `d`'s lines; the end of line goes either way)."""

    def __init__(self, command, options=(), protocol="usi", stderr="discard", env=None,
                 strip=True):
        self.strip = strip
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        environment = None
        if env:
            environment = dict(os.environ)
            for name, value in env.items():
                if value is None:
                    environment.pop(name, None)
                else:
                    environment[name] = value
        err = {None: None, "discard": subprocess.DEVNULL, "keep": subprocess.PIPE}[stderr]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=err, env=environment)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read_out, daemon=True).start()
        if stderr == "keep":
            threading.Thread(target=self._read_err, daemon=True).start()
        self.handshake = []
        if protocol:
            self.send(protocol)
            self.handshake = self.until(protocol + "ok")
            for option in options:
                name, value = option.split("=", 1)
                self.setoption(name, value)
            self.ready()

    def _read_out(self):
        for raw in self.process.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def _read_err(self):
        for raw in self.process.stderr:
            self.stderr.append(raw.decode("utf-8", "replace"))

    # Writing.

    def send(self, data):
        """Sends a line (str, or bytes sent as they are) and returns when it was sent. A
        closed pipe is ignored: the reader sees the end of output."""
        if isinstance(data, str):
            data = data.encode()
        try:
            self.process.stdin.write(data + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass
        return time.monotonic()

    def setoption(self, name, value=None):
        self.send(f"setoption name {name}" + ("" if value is None else f" value {value}"))

    def close(self):
        """Closes the engine's input (the end of input)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass

    # Reading.

    def get(self, timeout=None):
        """The next `(arrival time, line)`; the line is None at the end of output. None
        when nothing came within `timeout` seconds (None: wait for ever)."""
        try:
            return self.lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return None

    def pending(self):
        """Whether a line has arrived and not been read."""
        return not self.lines.empty()

    def line(self, timeout=None):
        """The engine's next line (stripped unless `strip` is off). Exits the script when the engine has exited;
        raises TimeoutError when `timeout` passes first."""
        item = self.get(timeout)
        if item is None:
            raise TimeoutError("the engine did not answer in time")
        if item[1] is None:
            raise SystemExit("the engine exited")
        return item[1].strip() if self.strip else item[1]

    def until(self, start, timeout=None):
        """Every line up to and including the first that starts with `start`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen = []
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            seen.append(self.line(left))
            if seen[-1].startswith(start):
                return seen

    def wait(self, start, timeout=None):
        """Reads up to the first line that starts with `start`, and returns it."""
        return self.until(start, timeout)[-1]

    def ask(self, line, start, timeout=None):
        """Sends `line` and returns every line up to the first that starts with `start`."""
        self.send(line)
        return self.until(start, timeout)

    # The protocol.

    def ready(self, timeout=None):
        self.send("isready")
        self.wait("readyok", timeout)

    def go(self, limits):
        """Sends `go LIMITS` and reads to the answer: the best move's word and the last
        score reported, as `("cp", centipawns)`, `("mate", text)` (the text keeps its
        sign, `-3` or `+`) or None when no score came."""
        self.send(f"go {limits}")
        score = None
        while True:
            line = self.line()
            if line.startswith("info") and " score " in line:
                kind, value = line.split(" score ")[1].split()[:2]
                score = (kind, int(value)) if kind == "cp" else (kind, value)
            if line.startswith("bestmove"):
                return line.split()[1], score

    def perft_moves(self):
        """The legal moves of the current position, from `go perft 1`."""
        lines = self.ask("go perft 1", "Nodes searched")
        return [l.split(":")[0] for l in lines
                if ": " in l and not l.startswith(("Nodes", "info"))]

    # The process.

    def poll(self):
        return self.process.poll()

    def quit(self, timeout=5):
        self.send("quit")
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self):
        try:
            self.process.kill()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def uci(spec):
    """A python-chess engine from `[command, "Name=value", ...]` (a match runner's
    `--a ./qiyi EvalFile=net.nnue`), configured with those options."""
    import chess.engine

    command = shlex.split(spec[0]) if len(spec[0].split()) > 1 else spec[0]
    engine = chess.engine.SimpleEngine.popen_uci(command)
    options = dict(o.split("=", 1) for o in spec[1:])
    if options:
        engine.configure(options)
    return engine


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", help="the engine's command line")
    ap.add_argument("--protocol", default=None, help="handshake first: usi, uci or ugi")
    ap.add_argument("--option", action="append", default=[], help="Name=value, repeated")
    ap.add_argument("--linger", type=float, default=0.5,
                    help="seconds to go on printing after a line of input (default 0.5)")
    args = ap.parse_args()
    engine = Engine(args.command, args.option, protocol=args.protocol, stderr=None)
    for line in engine.handshake:
        print(line)
    for line in sys.stdin:
        engine.send(line.rstrip("\n"))
        while (item := engine.get(args.linger)) is not None and item[1] is not None:
            print(item[1])
    engine.quit()


if __name__ == "__main__":
    main()
