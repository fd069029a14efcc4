#!/usr/bin/env python3
"""Differential oracle for qiyi's shogi rules, driven by tests/shogi_python.rs.

Uses cshogi's own move generation (not qiyi's) on two kinds of positions:

* random playouts from the start position and from edge-case positions, with moves drawn
  with a bias towards captures, promotions, drops and checks, so that hands fill up and
  the rules that are easy to get wrong come up often;
* random sparse positions built around an exposed gote king with sente holding a pawn,
  where pawn-drop mates (uchifuzume), pins of the would-be capturer and flight squares
  come up far more often than in games.

For each sampled position it prints:

    SFEN <board.sfen()>
    MOVES <legal moves in USI, sorted>
    AFTER <sfen after each legal move, in the order of MOVES, separated by '|'>
    PERFT <perft(2)>
    FLAGS <check> <uchifuzume>

`check` is 1 when the side to move is in check; `uchifuzume` is 1 when a pawn drop in
front of the enemy king is left out of the legal moves for no reason other than that it
would mate (the side to move holds a pawn, is not in check, the square is empty and not
on the last rank, and the file has no pawn of its own). The output is deterministic for
a given cshogi version.
"""

import random
import sys

try:
    import cshogi
except ImportError:
    sys.stderr.write("cshogi is missing: install it with `pip install cshogi`\n")
    sys.exit(3)

STARTS = [
    cshogi.STARTING_SFEN,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "ln1g3nl/1r1sg1k2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/2G3SR1/LN2KG1NL b Bbp 1",
    "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "7nl/5Psk1/6ppp/9/9/9/9/9/4K4 b RGPr 1",
    "3g1k3/9/4P4/9/9/9/9/9/4K4 b P 1",
]

GAMES_PER_START = 30
MAX_PLIES = 160
SPARSE_MATES = 60
SPARSE_OTHERS = 200

# How many pieces of each kind the set has.
SET = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2, "k": 2}


def weight(board, move):
    """Favour the moves that exercise the rules: captures, promotions, drops, checks."""
    w = 1.0
    if cshogi.move_is_drop(move):
        w += 1.5
    else:
        if board.piece(cshogi.move_to(move)) != cshogi.NONE:
            w += 3.0
        if cshogi.move_is_promotion(move):
            w += 2.0
    board.push(move)
    if board.is_check():
        w += 3.0
    board.pop()
    return w


def perft(board, depth):
    if depth == 1:
        return len(board.legal_moves)
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def uchifuzume_excluded(board, legal):
    """Whether a pawn drop in front of the enemy king is missing only because it mates."""
    us = board.turn
    if board.is_check() or board.pieces_in_hand[us][cshogi.HPAWN] == 0:
        return False
    ksq = board.king_square(1 - us)
    if ksq is None:
        return False
    file, rank = ksq // 9, ksq % 9
    rank += 1 if us == cshogi.BLACK else -1
    if not 0 <= rank <= 8:
        return False
    last = 0 if us == cshogi.BLACK else 8
    sq = file * 9 + rank
    if rank == last or board.piece(sq) != cshogi.NONE:
        return False
    own_pawn = cshogi.BPAWN if us == cshogi.BLACK else cshogi.WPAWN
    if any(board.piece(file * 9 + r) == own_pawn for r in range(9)):
        return False
    name = "P*%d%s" % (file + 1, "abcdefghi"[rank])
    return name not in legal


def record(board, out):
    legal = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
    after = []
    for name in legal:
        board.push_usi(name)
        after.append(board.sfen())
        board.pop()
    out.append("SFEN %s\n" % board.sfen())
    out.append("MOVES %s\n" % " ".join(legal))
    out.append("AFTER %s\n" % "|".join(after))
    out.append("PERFT %d\n" % (perft(board, 2) if legal else 0))
    out.append("FLAGS %d %d\n" % (int(board.is_check()), int(uchifuzume_excluded(board, legal))))


def dead(kind, color, rank):
    """Whether a piece letter could never move from that rank (0 = a)."""
    far = rank if color == 0 else 8 - rank
    return (kind in "PL" and far == 0) or (kind == "N" and far <= 1)


def sparse_position(rng):
    """An exposed gote king on its back ranks, a few sente attackers and gote defenders,
    sente to move with a pawn in hand. None when the draw breaks a rule."""
    grid = [[None] * 9 for _ in range(9)]  # grid[rank][col], col 0 = file 9
    king_rank, king_col = rng.randrange(0, 3), rng.randrange(0, 9)
    grid[king_rank][king_col] = "k"
    grid[rng.randrange(6, 9)][rng.randrange(0, 9)] = "K"
    pool = ["G", "S", "N", "L", "B", "R", "+P", "+B", "+R", "P"]
    for _ in range(rng.randrange(1, 6)):
        for piece in (rng.choice(pool), rng.choice(pool).lower()):
            # Most pieces crowd the king, where they guard, pin and block.
            if rng.random() < 0.8:
                rank = min(8, max(0, king_rank + rng.randrange(-2, 4)))
                col = min(8, max(0, king_col + rng.randrange(-3, 4)))
            else:
                rank, col = rng.randrange(0, 6), rng.randrange(0, 9)
            color = 0 if piece[-1].isupper() else 1
            if grid[rank][col] or dead(piece[-1].upper(), color, rank):
                continue
            if piece[-1] in "Pp" and piece[0] != "+":
                if any(grid[r][col] == piece for r in range(9)):
                    continue
            grid[rank][col] = piece
    rows = []
    for rank in range(9):
        text, empty = "", 0
        for col in range(9):
            if grid[rank][col] is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += grid[rank][col]
        rows.append(text + (str(empty) if empty else ""))
    extra = "".join(rng.sample("GSNL", rng.randrange(0, 3)))
    hands = "P" + extra + rng.choice(["", "p", "g", "s"])
    board_text = "/".join(rows)
    # The set's limits, board and hands together.
    letters = [c.lower() for c in board_text + hands if c.isalpha()]
    if any(letters.count(k) > n for k, n in SET.items()):
        return None
    # Gote, not to move, must not stand in check.
    if cshogi.Board("%s w %s 1" % (board_text, hands)).is_check():
        return None
    return cshogi.Board("%s b %s 1" % (board_text, hands))


def main():
    rng = random.Random(20240611)
    seen = set()
    out = []

    def sample(board):
        key = board.sfen()
        if key not in seen:
            seen.add(key)
            record(board, out)

    for start in STARTS:
        for _ in range(GAMES_PER_START):
            board = cshogi.Board(start)
            plies = rng.randrange(0, MAX_PLIES)
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                weights = [weight(board, m) for m in moves]
                board.push(rng.choices(moves, weights)[0])
                # Checks last one ply: stop there often enough.
                if board.is_check() and rng.random() < 0.3:
                    break
            sample(board)
    # Keep every sparse position where the pawn-drop mate rule bites, and a fixed number of
    # the others (flights, capturers and interpositions that make the drop legal).
    mates = others = 0
    while mates < SPARSE_MATES or others < SPARSE_OTHERS:
        board = sparse_position(rng)
        if board is None:
            continue
        legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
        if uchifuzume_excluded(board, legal):
            if mates < SPARSE_MATES:
                sample(board)
                mates += 1
        elif others < SPARSE_OTHERS:
            sample(board)
            others += 1
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
