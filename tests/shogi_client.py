#!/usr/bin/env python3
"""cshogi's `cshogi.usi.Engine` drives qiyi over USI with every command a shogi GUI
sends: usi, setoption, isready, usinewgame, position, go byoyomi/btime/wtime, go ponder with
ponderhit and stop, go infinite with stop, go mate, gameover and quit; the tournament
options EnteringKingRule and MaxMovesToDraw; then a 30-ply game
at 300 ms byoyomi in which cshogi checks that every move is legal and the referee's clock
that none is late. Run by tests/shogi_client.rs with the binary's path; exits non-zero
(with a message) on the first failure.
"""
import os
import sys
import threading
import time

import cshogi
from cshogi.usi import Engine

BYOYOMI = 300
# What a move may take beyond its byoyomi before a referee would flag it.
LATE_MS = 150


def check(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)


def legal(board, move):
    try:
        mv = board.move_from_usi(move)
    except Exception:
        return False
    return mv != 0 and board.is_legal(mv)


def send(engine, line):
    engine.proc.stdin.write(line.encode("ascii") + b"\n")
    engine.proc.stdin.flush()


def read_until(engine, prefix, timeout=10.0):
    """Lines up to the first starting with `prefix`, read on a thread so a silent engine
    fails the test instead of hanging it."""
    lines = []
    done = threading.Event()

    def reader():
        while True:
            line = engine.proc.stdout.readline()
            if not line:
                break
            text = line.decode().strip()
            lines.append(text)
            if text.startswith(prefix):
                break
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    check(done.wait(timeout), "no '%s' within %.0f s; saw %r" % (prefix, timeout, lines))
    check(lines and lines[-1].startswith(prefix), "engine closed before '%s': %r" % (prefix, lines))
    return lines


def main(path):
    engine = Engine(path)
    try:
        check(engine.name.startswith("qiyi"), "id name %r" % engine.name)
        options = engine.usi()
        for option in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead"]:
            check(any(l.startswith("option name %s type" % option) for l in options),
                  "option %s not declared: %r" % (option, options))
        engine.setoption("USI_Hash", 32)
        engine.setoption("USI_Ponder", "true")
        engine.isready()
        engine.usinewgame()

        # A move from the start, with info lines that cshogi can read.
        board = cshogi.Board()
        infos = []
        engine.position()
        move, ponder = engine.go(byoyomi=200, listener=infos.append)
        check(legal(board, move), "illegal first move %s" % move)
        check(any(l.startswith("info depth") and " pv " in l for l in infos), "no info: %r" % infos)

        # Pondering: go ponder on the expected reply, then ponderhit.
        board.push_usi(move)
        if ponder is None:
            ponder = cshogi.move_to_usi(next(iter(board.legal_moves)))
        check(legal(board, ponder), "illegal ponder move %s" % ponder)
        board.push_usi(ponder)
        moves = [move, ponder]
        engine.position(moves)
        send(engine, "go ponder btime 10000 wtime 10000 byoyomi 200")
        time.sleep(0.3)
        start = time.monotonic()
        engine.ponderhit()
        lines = read_until(engine, "bestmove")
        took = time.monotonic() - start
        best = lines[-1].split()[1]
        check(legal(board, best), "illegal move after ponderhit %s" % best)
        # The clock starts at ponderhit: 10 s main time and 200 ms byoyomi allow a few
        # hundred milliseconds, and never more than a fifth of the main time.
        check(took < 2.0, "ponderhit answer took %.3f s" % took)

        # Pondering that misses: stop answers at once with a legal move of that position.
        send(engine, "go ponder btime 10000 wtime 10000 byoyomi 200")
        time.sleep(0.2)
        start = time.monotonic()
        engine.stop()
        lines = read_until(engine, "bestmove")
        # At once, give or take what a loaded machine adds; a ponder search that ignored
        # stop would never answer.
        took = time.monotonic() - start
        check(took < 3.0, "stop after ponder took %.3f s" % took)
        check(legal(board, lines[-1].split()[1]), "illegal move after stop: %r" % lines[-1])

        # Infinite analysis, stopped.
        send(engine, "go infinite")
        time.sleep(0.3)
        engine.stop()
        lines = read_until(engine, "bestmove")
        check(legal(board, lines[-1].split()[1]), "illegal move after go infinite")

        # A mate in one is played, and reported as a mate in plies.
        mate = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
        engine.position(sfen="sfen " + mate)
        infos = []
        move, _ = engine.go(byoyomi=300, listener=infos.append)
        check(move == "G*5b", "missed the mate G*5b: %s" % move)
        check(any(" score mate 1 " in l for l in infos), "no 'score mate 1': %r" % infos[-3:])

        # A lost position: bestmove resign.
        engine.position(sfen="sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
        move, _ = engine.go(byoyomi=100)
        check(move == "resign", "no resign when mated: %s" % move)

        # The entering-king declaration: bestmove win exactly when it is valid.
        declare = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1"
        check(cshogi.Board(declare).is_nyugyoku(), "cshogi rejects the declaration")
        engine.position(sfen="sfen " + declare)
        move, _ = engine.go(byoyomi=100)
        check(move == "win", "no bestmove win: %s" % move)
        short = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLgsnl2p 1"
        check(not cshogi.Board(short).is_nyugyoku(), "cshogi accepts 27 points for sente")
        engine.position(sfen="sfen " + short)
        move, _ = engine.go(byoyomi=100)
        check(move != "win" and legal(cshogi.Board(short), move), "bad answer at 27: %s" % move)

        # EnteringKingRule: the 24-point rule wants 31 points (33 here declare, 28 do
        # not); without a rule nothing declares; back to CSA's 27-point rule.
        engine.setoption("EnteringKingRule", "CSARule24")
        engine.isready()
        engine.position(sfen="sfen " + declare)
        move, _ = engine.go(byoyomi=100)
        check(move != "win" and legal(cshogi.Board(declare), move), "28 points declared under CSARule24: %s" % move)
        rich = "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b RBGSNLPgsnlp 1"
        engine.position(sfen="sfen " + rich)
        move, _ = engine.go(byoyomi=100)
        check(move == "win", "33 points under CSARule24: %s" % move)
        engine.setoption("EnteringKingRule", "NoEnteringKing")
        engine.isready()
        engine.position(sfen="sfen " + rich)
        move, _ = engine.go(byoyomi=100)
        check(move != "win" and legal(cshogi.Board(rich), move), "declared without a rule: %s" % move)
        engine.setoption("EnteringKingRule", "CSARule27")
        engine.isready()

        # MaxMovesToDraw: a mate in five plies from ply 100 counts while the game lasts to
        # ply 104, and not when it ends at ply 103 (nor in the search: no mate score).
        late = "7nl/7k1/9/7pp/6N2/9/9/9/4K4 b GS 100"
        for limit, mates in [(0, True), (104, True), (103, False)]:
            engine.setoption("MaxMovesToDraw", str(limit))
            engine.isready()
            engine.position(sfen="sfen " + late)
            infos = []
            move, _ = engine.go(byoyomi=1000, listener=infos.append)
            check(legal(cshogi.Board(late), move), "illegal move %s at limit %d" % (move, limit))
            found = any(" score mate 5 " in l for l in infos)
            check(found == mates, "limit %d: mate in 5 reported %s: %r" % (limit, found, infos[-2:]))
        engine.setoption("MaxMovesToDraw", "0")
        engine.isready()

        # go mate: a mate found, proven impossible, or out of time.
        tsume = "7nl/7k1/9/7pp/6N2/9/9/9/4K4 b GS 1"
        engine.position(sfen="sfen " + tsume)
        answer = engine.go_mate(byoyomi=5000)
        replay = cshogi.Board(tsume)
        for move in answer.split():
            check(legal(replay, move), "illegal mate move %s in %s" % (move, answer))
            replay.push_usi(move)
        check(replay.is_game_over() and len(answer.split()) == 5,
              "checkmate line %r is not a mate in five" % answer)
        engine.position(sfen="sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1")
        check(engine.go_mate(byoyomi=1000) == "nomate", "a lone pawn mates?")
        engine.position(sfen="sfen 4k4/9/9/9/9/9/9/9/4K4 b R 1")
        check(engine.go_mate(byoyomi=300) == "timeout", "a lone rook proves something?")

        engine.gameover("win")
        engine.isready()

        # A 30-ply game at 300 ms byoyomi, both sides played by the engine.
        engine.usinewgame()
        board = cshogi.Board()
        moves = []
        slowest = 0
        for ply in range(30):
            if board.is_game_over():
                break
            engine.position(moves)
            start = time.monotonic()
            move, _ = engine.go(btime=0, wtime=0, byoyomi=BYOYOMI)
            took = (time.monotonic() - start) * 1000
            slowest = max(slowest, took)
            check(took <= BYOYOMI + LATE_MS, "ply %d: %s took %.0f ms" % (ply + 1, move, took))
            if move in ("resign", "win"):
                check(move != "win" or board.is_nyugyoku(), "false declaration at ply %d" % ply)
                break
            check(legal(board, move), "ply %d: illegal move %s in %s" % (ply + 1, move, board.sfen()))
            board.push_usi(move)
            moves.append(move)
        check(len(moves) >= 20, "the game ended after %d plies" % len(moves))
        engine.gameover("draw")
        print("game: %d plies, slowest move %.0f ms" % (len(moves), slowest))
    finally:
        engine.quit()
    print("cshogi USI client: all checks passed")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
