#!/usr/bin/env python3
"""python-chess's `chess.engine` drives qiyi over UCI with every feature it offers:
a short game with pondering, analysis with MultiPV 3, limits by time, depth, nodes and
mate, win/draw/loss, strength limiting, `searchmoves`, stopping an infinite analysis,
and Chess960 games (python-chess sets UCI_Chess960 itself and sends Shredder-FENs and
king-takes-rook castling). Run by tests/chess_client.rs with the binary's path; exits
non-zero (with a message) on the first failure.
"""
import sys
import time

import chess
import chess.engine


def check(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)


def main(path):
    engine = chess.engine.SimpleEngine.popen_uci([path])
    try:
        check(engine.id.get("name", "").startswith("qiyi"), "id name %r" % engine.id)
        for option in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "MoveTimeLimit"]:
            check(option in engine.options, "option %s not declared" % option)
        engine.configure({"Hash": 32, "Threads": 2})

        # A short game against itself, pondering on the expected reply.
        board = chess.Board()
        for _ in range(12):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(time=0.1), ponder=True)
            check(result.move in board.legal_moves, "illegal move %s in %s" % (result.move, board.fen()))
            if result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                check(result.ponder in after.legal_moves, "illegal ponder move %s" % result.ponder)
            board.push(result.move)

        # Analysis with MultiPV 3: three distinct, legal principal variations.
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check(len(infos) == 3, "multipv gave %d lines" % len(infos))
        firsts = set()
        for info in infos:
            check("score" in info and "pv" in info and info["depth"] >= 6, "incomplete info %r" % info)
            replay = board.copy()
            for move in info["pv"]:
                check(move in replay.legal_moves, "illegal pv move %s" % move)
                replay.push(move)
            firsts.add(info["pv"][0])
        check(len(firsts) == 3, "multipv lines share a first move")

        # Limits by depth, nodes and time.
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        check(info["depth"] == 5, "depth limit gave depth %r" % info.get("depth"))
        info = engine.analyse(board, chess.engine.Limit(nodes=20000))
        check(info.get("nodes", 0) <= 25000, "nodes limit overshot: %r" % info.get("nodes"))
        start = time.monotonic()
        engine.play(board, chess.engine.Limit(time=0.5))
        took = time.monotonic() - start
        # Kept, give or take what a loaded machine adds: a search that ignored the limit
        # would not answer at all.
        check(took < 0.5 + 2.5, "time limit 0.5 s took %.3f s" % took)
        start = time.monotonic()
        engine.play(board, chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.01, black_inc=0.01))
        took = time.monotonic() - start
        check(took < 1.0, "2 s clock: %.3f s used on one move, half or more" % took)

        # Mate limit: a mate in 2 is found and reported as mate.
        mate_in_two = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        result = engine.play(mate_in_two, chess.engine.Limit(mate=1), info=chess.engine.INFO_SCORE)
        check(result.move == chess.Move.from_uci("h5f7"), "missed Qxf7# : %s" % result.move)
        score = result.info["score"].white()
        check(score.is_mate() and score.mate() == 1, "mate score %r" % score)

        # Win/draw/loss with UCI_ShowWDL: python-chess reads `wdl` from each info line; a
        # position a queen up reads as mostly won for the side to move, and it is off
        # again once unset.
        check("UCI_ShowWDL" in engine.options, "option UCI_ShowWDL not declared")
        check(engine.options["UCI_ShowWDL"].default is False, "UCI_ShowWDL on by default")
        engine.configure({"UCI_ShowWDL": True})
        queen_up = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
        info = engine.analyse(queen_up, chess.engine.Limit(depth=6))
        check("wdl" in info, "no wdl in %r" % info)
        wdl = info["wdl"].relative
        check(wdl.total() == 1000, "wdl %r does not sum to 1000" % (wdl,))
        check(wdl.wins > 900, "a queen up, wdl %r" % (wdl,))
        engine.configure({"UCI_ShowWDL": False})
        info = engine.analyse(queen_up, chess.engine.Limit(depth=4))
        check("wdl" not in info, "wdl %r with UCI_ShowWDL off" % info.get("wdl"))

        # Strength limiting as Stockfish offers it: at the lowest UCI_Elo the search stops
        # within two plies and still plays a legal move; with UCI_LimitStrength off again,
        # depth limits are the client's.
        check("UCI_LimitStrength" in engine.options, "option UCI_LimitStrength not declared")
        check(engine.options["UCI_LimitStrength"].default is False, "UCI_LimitStrength on by default")
        elo = engine.options.get("UCI_Elo")
        check(elo is not None and elo.type == "spin" and elo.min < elo.max, "UCI_Elo %r" % (elo,))
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": elo.min})
        result = engine.play(board, chess.engine.Limit(depth=10), info=chess.engine.INFO_BASIC)
        check(result.move in board.legal_moves, "limited: illegal move %s" % result.move)
        check(result.info.get("depth", 99) <= 2, "limited search reached depth %r" % result.info.get("depth"))
        engine.configure({"UCI_LimitStrength": False})
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        check(info["depth"] == 6, "unlimited again, depth %r" % info.get("depth"))

        # searchmoves restricts the root.
        only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
        result = engine.play(board, chess.engine.Limit(depth=4), root_moves=only)
        check(result.move in only, "searchmoves ignored: %s" % result.move)

        # Infinite analysis, stopped from the client.
        with engine.analysis(board) as analysis:
            time.sleep(0.5)
            analysis.stop()
            best = analysis.wait()
        check(best.move in board.legal_moves, "analysis best move %s" % best.move)

        # Chess960: whole games from seeded starts (one double Fischer random), every move
        # legal in python-chess's eyes. Castling is king takes rook both ways.
        check("UCI_Chess960" in engine.options, "option UCI_Chess960 not declared")
        castlings = 0
        for start in [518, 0, 959, "nrkbbqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQRNB w FAhb - 0 1"]:
            if isinstance(start, int):
                board = chess.Board.from_chess960_pos(start)
            else:
                board = chess.Board(start, chess960=True)
            while not board.is_game_over(claim_draw=True) and board.ply() < 160:
                result = engine.play(board, chess.engine.Limit(nodes=3000))
                check(result.move in board.legal_moves,
                      "illegal Chess960 move %s in %s" % (result.move, board.fen()))
                castlings += board.is_castling(result.move)
                board.push(result.move)
        # A castling the engine must choose, with the king staying on its square.
        board = chess.Board("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", chess960=True)
        castle = chess.Move.from_uci("g1h1")
        check(board.is_castling(castle), "g1h1 castles in python-chess")
        result = engine.play(board, chess.engine.Limit(depth=4), root_moves=[castle])
        check(result.move == castle, "searchmoves g1h1 gave %s" % result.move)
        board.push(castle)
        check(board.fen() == "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1", board.fen())
        result = engine.play(board, chess.engine.Limit(depth=4), root_moves=[chess.Move.from_uci("g8h8")])
        check(result.move == chess.Move.from_uci("g8h8"), "black's castling gave %s" % result.move)
        castlings += 2
        check(castlings >= 3, "only %d castlings in the Chess960 games" % castlings)

        # No legal move: python-chess accepts `bestmove (none)`.
        mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        result = engine.play(mated, chess.engine.Limit(depth=3))
        check(result.move is None, "move %s in a mated position" % result.move)
    finally:
        engine.quit()
    print("python-chess client: all checks passed")


if __name__ == "__main__":
    main(sys.argv[1])
