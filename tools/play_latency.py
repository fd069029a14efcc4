#!/usr/bin/env python3
"""How long `qiyi play` takes to answer a person's move, measured as a page sees it.

    python3 tools/play_latency.py --bin target/release/qiyi --game chess --movetime 1

Starts `qiyi play` with qiyi engines at the other seats, connects to the page's WebSocket
as a browser would, and plays random legal moves. For each move it times two things from
the moment the move is sent: the state that shows the move (the server's own delay), and
the state that shows the engines' replies (the engines' thinking plus the server's
delay). With `--movetime 1` the engines answer in a few milliseconds, so the second
figure is nearly all server. Needs `python3 -m pip install websocket-client`.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the qiyi binary")
    parser.add_argument("--game", default="chess", help="chess, shogi, junqi or foursquare")
    parser.add_argument("--seat", default=None, help="the person's seat (default the first)")
    parser.add_argument("--movetime", type=int, default=1, help="engine milliseconds per move")
    parser.add_argument("--moves", type=int, default=40, help="moves to time at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        from websocket import create_connection
    except ImportError:
        sys.exit("needs websocket-client: python3 -m pip install websocket-client")

    command = [args.bin, "play", "--port", "0", "--game", args.game, "--movetime", str(args.movetime)]
    if args.seat:
        command += ["--seat", args.seat]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()
        url = server.stdout.readline().split()[-1]
        port = url.split(":")[2].split("/")[0]
        page = create_connection(url.replace("http", "ws", 1) + "ws", origin="http://127.0.0.1:%s" % port, timeout=60)
        rng = random.Random(args.seed)
        shown, replied = [], []

        def state():
            while True:
                message = json.loads(page.recv())
                if message["type"] == "state":
                    return message

        current = state()
        if current["phase"] == "deploy":
            page.send(json.dumps({"type": "ready"}))
        while len(replied) < args.moves:
            while not (current["phase"] == "over" or (current["phase"] == "play" and current["turn"] == current["you"] and current["legal"])):
                current = state()
            if current["phase"] == "over":
                break
            sent = time.perf_counter()
            page.send(json.dumps({"type": "move", "move": rng.choice(current["legal"])["text"]}))
            current = state()
            shown.append(time.perf_counter() - sent)
            plies = len(current["moves"])
            while len(current["moves"]) == plies and current["phase"] != "over":
                current = state()
            replied.append(time.perf_counter() - sent)
    finally:
        server.kill()

    def summary(times):
        return "median %.1f ms, max %.1f ms" % (1000 * statistics.median(times), 1000 * max(times))

    print("%s, %d moves: the move shown %s; the engines' reply shown %s (movetime %d ms)"
          % (args.game, len(replied), summary(shown), summary(replied), args.movetime))


if __name__ == "__main__":
    main()
