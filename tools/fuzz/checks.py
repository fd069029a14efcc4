"""The engine's promises checked on its answers, the failure raised when one is broken,
and the tallies the summary prints."""

import collections
import re

from .boards import lib_after, lib_legal
from .protocol import NO_MOVE

SLACK = 0.3          # seconds a timed search may run over its limit
READY = 1.0          # seconds within which isready is answered
STOP = 0.5           # seconds within which stop ends a job

STATS = collections.Counter()
WORST = {}


class Failure(Exception):
    def __init__(self, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def fail(kind, detail):
    raise Failure(kind, detail)


def worst(what, value):
    """Keeps the largest value seen of a latency, for the summary."""
    WORST[what] = max(WORST.get(what, value), value)


def check_bestmove(job, line, t):
    """A `bestmove` line against the position searched: its form, its timing, and its
    move legal (among `searchmoves` when given), `win` exactly when the declaration wins."""
    fields = line.split()
    game, dialect, legal, board, position = job.snapshot
    if job.waits and job.stopped is None and (job.pondering or job.limits.get("infinite")):
        fail("early-bestmove", f"{line!r} for {job.line!r} before "
                               f"{'ponderhit or ' if job.pondering else ''}stop")
    if dialect == "ugi" and len(fields) != 2:
        fail("bestmove-form", f"UGI bestmove is two tokens: {line!r}")
    if not (len(fields) == 2 or (len(fields) == 4 and fields[2] == "ponder")):
        fail("bestmove-form", repr(line))
    best = fields[1]
    if job.deadline is not None:
        worst(f"{game} search past its time limit (ms)",
              round((t - (job.deadline - job.slack)) * 1000))
    if job.stopped is not None:
        worst(f"{game} answer after the command that ends it (ms)", round((t - job.stopped) * 1000))
    STATS["bestmoves checked"] += 1
    STATS[f"bestmoves checked by {'library' if board is not None else 'perft 1'}"] += 1
    claim = game == "shogi" and dialect == "usi" and board is not None and board.is_nyugyoku()
    if best == "win":
        if not claim:
            fail("bad-win", f"{line!r} after {position!r} ({job.line!r})")
        return
    if claim:
        fail("no-win", f"{line!r} where the declaration wins: {position!r}")
    if legal is None:
        return
    if best == NO_MOVE[dialect]:
        if legal:
            fail("bad-none", f"{line!r} with legal moves {legal[:8]} after "
                             f"{position!r} ({job.line!r})")
        return
    if best not in legal:
        fail("illegal-bestmove", f"{line!r} not among {sorted(legal)[:12]}... after "
                                 f"{position!r} ({job.line!r})")
    if job.searchmoves and best not in job.searchmoves:
        fail("searchmoves", f"{line!r} not in searchmoves {job.searchmoves}")
    if board is not None:
        if best not in lib_legal(game, board):
            fail("illegal-bestmove", f"{line!r} illegal for the library after "
                                     f"{position!r}")
        if len(fields) == 4:
            after = lib_after(game, board, best)
            if fields[3] not in lib_legal(game, after):
                fail("illegal-ponder", f"{line!r}: ponder move illegal after {best}")


INFO = re.compile(r"info depth \d+ seldepth \d+ multipv \d+ score (cp -?\d+|mate [+-]?\d*)"
                  r"( lowerbound| upperbound)?( wdl (\d+) (\d+) (\d+))? nodes \d+ nps \d+ "
                  r"hashfull \d+ time \d+( pv( \S+)+)?")


def check_info(job, line):
    """A search's `info` line: its form, and `wdl W D L` exactly when `UCI_ShowWDL` was on
    for a game that declares it when the search started, the three per mille summing to
    1000, a mate for the side to move a certain win and a mate against it a certain
    loss."""
    m = INFO.fullmatch(line)
    if not m:
        fail("bad-info", repr(line))
    if m.group(3) is None:
        if job.wdl:
            fail("no-wdl", f"{line!r} without wdl, UCI_ShowWDL on ({job.line!r})")
        return
    if not job.wdl:
        fail("stray-wdl", f"{line!r} with wdl, UCI_ShowWDL off or not declared ({job.line!r})")
    STATS["wdl checked"] += 1
    wdl = [int(m.group(i)) for i in (4, 5, 6)]
    if sum(wdl) != 1000:
        fail("wdl", f"{line!r}: wdl sums to {sum(wdl)}, not 1000")
    score = m.group(1)
    if score.startswith("mate"):
        want = [0, 0, 1000] if score.startswith("mate -") else [1000, 0, 0]
        if wdl != want:
            fail("wdl", f"{line!r}: a mate score with wdl {wdl}, not {want}")


def check_checkmate(job, line):
    """A `checkmate` line: every move of the line legal, every one of ours a check, and
    the last a mate."""
    board = job.snapshot[3]
    words = line.split()[1:]
    if words in (["nomate"], ["timeout"], ["notimplemented"]) or board is None:
        return
    STATS["mates checked"] += 1
    b = board.copy()
    for i, mv in enumerate(words):
        move = b.move_from_usi(mv)
        if not move or not b.is_legal(move):
            fail("bad-checkmate", f"{line!r}: {mv} illegal after {job.snapshot[4]}")
        b.push(move)
        if i % 2 == 0 and not b.is_check():
            fail("bad-checkmate", f"{line!r}: {mv} gives no check")
    if len(words) % 2 == 0 or not b.is_game_over():
        fail("bad-checkmate", f"{line!r} does not end in mate")


def check_perft(job, line):
    """`go perft`'s count: the legal moves at depth 1, one position at depth 0."""
    count = int(line.split(": ")[1])
    legal = job.snapshot[2]
    if job.perft_depth == 1 and legal is not None and count != len(legal):
        fail("perft-count", f"{line!r}, {len(legal)} legal moves, after {job.snapshot[4]}")
    if job.perft_depth == 0 and count != 1:
        fail("perft-count", f"go perft 0: {line!r}")


def check_query(board, what, response):
    """A chess `query` answer against python-chess's verdict on `board`."""
    if board is None or what not in ("gameover", "result"):
        return
    outcome = board.outcome(claim_draw=True)
    if what == "gameover":
        want = f"response {'true' if outcome else 'false'}"
    elif not outcome:
        want = "response none"
    elif outcome.winner is None:
        want = "response draw"
    else:
        want = f"response {'p1win' if outcome.winner else 'p2win'}"
    if response != want:
        fail("query", f"{response!r}, python-chess says {want!r} for {board.fen()}")


def compare_notation(game, board, notation, legal):
    """`d`'s FEN or SFEN and the legal moves of `go perft 1` against the library's. Under
    `UCI_Chess960` (a chess960 board) the FEN is Shredder-FEN."""
    ours = notation.split()
    if game == "chess":
        fen = board.fen(shredder=board.chess960)
        theirs = fen.split()
        if ours[:3] != theirs[:3] or ours[4:] != theirs[4:]:
            fail("fen", f"d says {notation!r}, python-chess {fen!r}")
    else:
        theirs = board.sfen().split()
        if ours[:3] != theirs[:3]:
            fail("sfen", f"d says {notation!r}, cshogi {board.sfen()!r}")
    if sorted(lib_legal(game, board)) != sorted(legal):
        fail("movegen", f"perft 1 moves differ from the library's at {notation}")
