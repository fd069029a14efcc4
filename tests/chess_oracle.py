#!/usr/bin/env python3
"""Differential oracle for qiyi's chess rules, driven by tests/chess_python.rs.

Plays seeded random games with python-chess (its own move generation, not qiyi's) from
the start position and from edge-case positions, and prints, for each sampled position:

    FEN <board.fen()>
    MOVES <legal moves in UCI, sorted>
    PERFT <perft(2)> <perft(3)>

The moves are drawn with a bias towards captures, promotions, checks, castling and en
passant, so that the sample is rich in the rules that are easy to get wrong. The output
is deterministic for a given python-chess version.

With `--chess960` the games start from random Chess960 and double Fischer random
(different back ranks for the two sides) positions instead; the FEN line then gives the
Shredder-FEN and the X-FEN, separated by ` | `, and castling moves are king takes rook.
"""

import random
import sys

try:
    import chess
except ImportError:
    sys.stderr.write("python-chess is missing: install it with `pip install chess`\n")
    sys.exit(3)

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "4k3/3p1p2/8/4P3/4K3/8/8/8 b - - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1",
    "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
]

GAMES_PER_START = 24
MAX_PLIES = 70
CHESS960_GAMES = 300


def chess960_start(rng):
    """A Chess960 start, or one in four times a double Fischer random one."""
    white = chess.Board.from_chess960_pos(rng.randrange(960))
    if rng.random() < 0.75:
        return white
    black = chess.Board.from_chess960_pos(rng.randrange(960))
    ranks = white.board_fen().split("/")
    ranks[0] = black.board_fen().split("/")[0]
    board = chess.Board(None, chess960=True)
    board.set_board_fen("/".join(ranks))
    board.castling_rights = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    return board


def weight(board, move):
    """Favour the moves that exercise special rules."""
    w = 1.0
    if board.is_capture(move):
        w += 2.0
    if move.promotion:
        w += 4.0
    if board.is_castling(move) or board.is_en_passant(move):
        w += 6.0
    if board.gives_check(move):
        w += 2.0
    return w


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def main():
    chess960 = "--chess960" in sys.argv[1:]
    rng = random.Random(20240517)
    seen = set()
    out = []
    if chess960:
        starts = [None] * CHESS960_GAMES
    else:
        starts = [s for s in STARTS for _ in range(GAMES_PER_START)]
    for start in starts:
        board = chess960_start(rng) if chess960 else chess.Board(start)
        plies = rng.randrange(0, MAX_PLIES)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            weights = [weight(board, m) for m in moves]
            board.push(rng.choices(moves, weights)[0])
            # En passant is only available for one ply: stop there often enough.
            if board.has_legal_en_passant() and rng.random() < 0.5:
                break
            # Chess960 castling needs the first rank cleared between king and rook, so
            # random play seldom has it: stop there often too.
            if chess960 and rng.random() < 0.5 and any(map(board.is_castling, board.legal_moves)):
                break
        fen = board.fen()
        if chess960:
            fen = f"{board.fen(shredder=True)} | {fen}"
        if fen in seen:
            continue
        seen.add(fen)
        moves = sorted(m.uci() for m in board.legal_moves)
        p2 = perft(board, 2) if moves else 0
        p3 = perft(board, 3) if moves else 0
        out.append(f"FEN {fen}\nMOVES {' '.join(moves)}\nPERFT {p2} {p3}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
