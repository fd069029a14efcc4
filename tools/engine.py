"""The few lines every script here needs to drive a USI engine: start it, send lines,
wait for a line that starts with a given word, and the `usi` / options / `isready`
handshake."""
import shlex
import subprocess


class Engine:
    def __init__(self, command, options=()):
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for option in options:
            name, value = option.split("=", 1)
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def line(self):
        """The engine's next line, stripped."""
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("the engine exited")
        return line.strip()

    def wait(self, start):
        """Reads up to the first line that starts with `start`, and returns it."""
        while True:
            line = self.line()
            if line.startswith(start):
                return line

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

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def quit(self):
        self.send("quit")
        self.process.wait()
