"""The chess and shogi libraries (python-chess, cshogi), each optional: the games without
one are still fuzzed, against the second engine alone. The board a position command
describes, its legal moves, and the board after a move."""

import re

try:
    import chess
except ImportError:  # pragma: no cover
    chess = None
try:
    import cshogi
except ImportError:  # pragma: no cover
    cshogi = None

from .positions import SHOGI_SFENS
from .protocol import split


def lib_board(game, line, chess960=False):
    """The python-chess or cshogi board a position command describes, None when the library
    does not read it, or False when the library says the command is illegal. `chess960`:
    `UCI_Chess960` is on, so castling is named king takes rook."""
    tokens = split(line)
    if "moves" in tokens:
        i = tokens.index("moves")
        spec, moves = tokens[1:i], tokens[i + 1:]
    else:
        spec, moves = tokens[1:], []
    if game == "chess" and chess is not None:
        try:
            if spec == ["startpos"]:
                board = chess.Board(chess960=chess960)
            elif len(spec) >= 2 and spec[0] == "fen" and spec[1:] and len(spec) in (5, 7):
                board = chess.Board(" ".join(spec[1:]), chess960=chess960)
                if not board.is_valid() or board.fen() != " ".join(spec[1:] if len(spec) == 7 else spec[1:] + ["0", "1"]):
                    return None
            else:
                return None
        except ValueError:
            return None
        for mv in moves:
            try:
                move = chess.Move.from_uci(mv)
            except (ValueError, chess.InvalidMoveError):
                return False
            if move not in board.legal_moves or mv != move.uci():
                return False
            board.push(move)
        return board
    if game == "shogi" and cshogi is not None:
        if spec == ["startpos"]:
            board = cshogi.Board()
        elif len(spec) == 5 and spec[0] == "sfen" and " ".join(spec[1:]) in SHOGI_SFENS:
            board = cshogi.Board(" ".join(spec[1:]))
        else:
            return None
        for mv in moves:
            move = board.move_from_usi(mv) if re.fullmatch(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]", mv) else 0
            if not move or not board.is_legal(move) or cshogi.move_to_usi(move) != mv:
                return False
            board.push(move)
        return board
    return None


def lib_legal(game, board):
    if game == "chess":
        return [m.uci() for m in board.legal_moves]
    return [cshogi.move_to_usi(m) for m in board.legal_moves]


def lib_after(game, board, mv):
    b = board.copy()
    if game == "chess":
        b.push(chess.Move.from_uci(mv))
    else:
        b.push(b.move_from_usi(mv))
    return b

