#!/usr/bin/env python3
"""Oracle for the chess game result the protocol reports (`query gameover`/`result`),
driven by tests/chess_result.rs.

Plays seeded random games rich in repetitions (pieces shuffled back and forth) and in
long quiet stretches (starts with the halfmove clock near fifty moves), and prints every
position reached with python-chess's verdict, `board.outcome(claim_draw=True)`: the
rules' end of the game, claimable draws included (threefold repetition or fifty moves,
now or by the move the player to move announces).

    CASE <start FEN>|<moves in UCI, space separated>|<none|draw|p1win|p2win>
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
    # Near the fifty-move limit, with and without mating material.
    "8/8/3k4/8/8/3K4/8/R7 w - - 93 80",
    "8/5k2/8/1n6/8/8/3K4/6R1 b - - 95 120",
    "4k3/8/8/8/8/8/4P3/4K2R w K - 96 60",
    # Few pieces: insufficient material arrives by captures.
    "8/8/4k3/3n4/8/3B4/4K3/8 w - - 0 1",
    "8/8/4k3/8/2b5/8/4K1N1/8 w - - 10 40",
    # A mating net, so that mates and stalemates come up too.
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
]

GAMES_PER_START = 12
MAX_PLIES = 90


def choose(board, rng, played):
    """Mostly reversible moves, and often the move that undoes our last one."""
    moves = list(board.legal_moves)
    if len(played) >= 2 and rng.random() < 0.45:
        last = played[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves:
            return back
    quiet = [m for m in moves if not board.is_capture(m) and
             board.piece_type_at(m.from_square) != chess.PAWN]
    if quiet and rng.random() < 0.85:
        return rng.choice(quiet)
    return rng.choice(moves)


def verdict(board):
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "none"
    if outcome.winner is None:
        return "draw"
    return "p1win" if outcome.winner == chess.WHITE else "p2win"


def main():
    rng = random.Random(20261123)
    for fen in STARTS:
        for _ in range(GAMES_PER_START):
            board = chess.Board(fen)
            played = []
            print(f"CASE {fen}||{verdict(board)}")
            for _ in range(MAX_PLIES):
                if board.is_game_over(claim_draw=False) or not any(board.legal_moves):
                    break
                move = choose(board, rng, played)
                board.push(move)
                played.append(move)
                moves = " ".join(m.uci() for m in played)
                print(f"CASE {fen}|{moves}|{verdict(board)}")
                # Go on past a claimable draw (nobody claimed it), but not past the
                # automatic ends (fivefold, seventy-five moves).


if __name__ == "__main__":
    main()
