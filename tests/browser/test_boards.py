#!/usr/bin/env python3
"""Browser tests of `qiyi play`'s chess, shogi and FourSquare boards.

    python3 tests/browser/test_boards.py --bin target/debug/qiyi [--screenshots DIR]

Each test starts `qiyi play` (through harness.py), opens its URL in headless Chromium
and plays by clicking what a person clicks: one of its own `.piece`s, then a `.target`.
Chess and shogi play a few random moves against the engine (shogi prefers drops, then
captures, so the hands fill, and goes on until it has dropped a piece, 30 moves at most); FourSquare plays a whole game to its end. Every board is
photographed at 1280x800 and 390x844 into the screenshots directory. The last line is
`N passed, N failed`; the exit status is non-zero when any test failed or the browser
tools are missing. The checks are plain functions run by main(), not pytest tests; `-k
WORD` runs those whose name holds WORD, `--assets DIR` serves the page files from DIR
(QIYI_PLAY_ASSETS) instead of the ones built into the binary.
"""

import argparse
import os
import random
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import Browser, HarnessError, PlayServer, check_requirements, qiyi_bin_from  # noqa: E402

SIZES = [(1280, 800), (390, 844)]
ENGINE_TIMEOUT = 90.0  # one engine reply in a debug build, generously


class TestFailure(AssertionError):
    pass


def check(cond, message):
    if not cond:
        raise TestFailure(message)


def truthy(value):
    return str(value).lower() in ("true", "1", "yes")


class Context:
    def __init__(self, args):
        self.bin = args.bin
        self.shots = args.screenshots
        self.assets = args.assets
        self.rng = random.Random(args.seed)
        self.log_dir = tempfile.mkdtemp(prefix="qiyi-play-browser-")


# -- helpers on a running page ----------------------------------------------------------


def moves_count(b):
    return b.count("#moves li")


def open_game(b, server):
    b.open(server.urls[0])
    b.wait_css("#board svg")
    b.wait_attr("data-connected", ("true", "1"), timeout=30)
    b.wait(lambda: b.body_attr("data-phase") in ("play", "over"), "data-phase play", timeout=30)


def wait_my_turn(b, turn_texts, timeout=ENGINE_TIMEOUT):
    """Waits until it is this page's move or the game is over; returns the phase.
    Collects every `#turn` text seen meanwhile into turn_texts."""

    def ready():
        t = b.text("#turn")
        if t:
            turn_texts.add(t.strip())
        phase = b.body_attr("data-phase")
        if phase == "over":
            return "over"
        if truthy(b.body_attr("data-mine")) and b.css(".piece.movable, .hand-piece.movable"):
            return phase
        return None

    return b.wait(ready, lambda: "my turn (body %r)" % b.body_attrs(), timeout=timeout)


def answer_picker(b):
    """A promotion picker the shell shows: clicks its first choice, if there is one."""
    for sel in (
        "dialog[open] button",
        "[role=dialog] button",
        ".choose button",
        ".picker button",
        ".choices button",
        "#choose button",
    ):
        for button in b.css(sel):
            if button.is_displayed():
                button.click()
                return True
    return False


def send_and_wait(b, before, turn_texts, timeout=20.0):
    """After a target was clicked: waits until the move is in `#moves`, answering a
    promotion picker if one shows instead."""
    start = time.monotonic()
    picked = False
    while time.monotonic() - start < timeout:
        if moves_count(b) > before or b.body_attr("data-phase") == "over":
            return
        t = b.text("#turn")
        if t:
            turn_texts.add(t.strip())
        if not picked and time.monotonic() - start > 1.0:
            picked = answer_picker(b)
        time.sleep(0.05)
    raise TestFailure("the move did not reach #moves (still %d items)" % moves_count(b))


def candidate_moves(b, you, rng, scan_all):
    """[(from, [targets])] for this seat's pieces, in random order; stops at the first
    piece with targets unless scan_all."""
    squares = b.attrs('.piece.movable[data-seat="%d"]' % you, "data-square")
    if not squares:
        squares = b.attrs('.piece[data-seat="%d"]' % you, "data-square")
    rng.shuffle(squares)
    found = []
    for sq in squares:
        targets = b.select(sq)
        if targets:
            found.append((sq, targets))
            if not scan_all:
                break
    return found


def deselect(b):
    """Clicks the selected piece again, so no selection is left."""
    if b.css(".piece.selected, .hand-piece.selected"):
        try:
            b.click_css(".piece.selected, .hand-piece.selected", timeout=2)
        except HarnessError:
            pass  # the page redrew without it meanwhile
        b.wait(lambda: not b.css(".target"), "the targets to go", timeout=5, raise_on_timeout=False)


def play_random_move(b, you, rng, prefer_captures=False):
    """Plays one move by clicking; returns (from, to)."""
    found = candidate_moves(b, you, rng, scan_all=prefer_captures)
    check(found, "no piece of seat %d shows a target" % you)
    choice = None
    if prefer_captures:
        enemy = set(b.attrs('.piece[data-seat="%d"]' % (1 - you), "data-square"))
        captures = [(f, t) for f, ts in found for t in ts if t in enemy]
        if captures:
            choice = rng.choice(captures)
    if choice is None:
        frm, targets = rng.choice(found)
        choice = (frm, rng.choice(targets))
    frm, to = choice
    # the last piece clicked is selected; select the chosen one if it is another
    if not b.css('.piece.selected[data-square="%s"]' % frm):
        deselect(b)
        b.click_square(frm, "piece")
    b.click_css('.target[data-square="%s"]' % to, timeout=10)
    return frm, to


def screenshots(ctx, b, game, suffix=""):
    for w, h in SIZES:
        b.set_size(w, h)
        # the SVG has followed the window once it fits in it
        b.wait(
            lambda: b.driver.execute_script(
                "const s = document.querySelector('#board svg');"
                "if (!s) return false; const r = s.getBoundingClientRect();"
                "return r.width > 50 && r.width <= window.innerWidth + 1;"
            ),
            "the board to fit %dx%d" % (w, h),
            timeout=10,
        )
        b.wait(lambda: b.driver.execute_script("return document.readyState") == "complete", "ready", 5)
        path = b.screenshot(ctx.shots, "%s%s-%dx%d" % (game, suffix, w, h))
        print("    screenshot %s" % path)
    b.set_size(*SIZES[0])


def rect(b, selector):
    el = b.wait_css(selector)[0]
    return b.driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", el
    )


def no_js_errors(b):
    errors = b.js_errors()
    check(not errors, "the page threw: %s" % errors[:3])


# -- the tests --------------------------------------------------------------------------


def check_chess(ctx):
    args = ["--game", "chess", "--seat", "white", "--movetime", "300"]
    with PlayServer(ctx.bin, args, assets=ctx.assets, log_dir=ctx.log_dir) as server, Browser(*SIZES[0]) as b:
        open_game(b, server)
        b.wait_css(".piece", count=32)
        turn_texts = set()
        check(wait_my_turn(b, turn_texts) == "play", "white should move first")
        # white at the bottom: a1 below a8 and left of h1
        a1, a8, h1 = rect(b, '.square[data-square="a1"]'), rect(b, '.square[data-square="a8"]'), rect(b, '.square[data-square="h1"]')
        check(a1[1] > a8[1] and a1[0] < h1[0], "white's board is not oriented with a1 bottom left")
        check(b.text("#turn"), "#turn is empty")
        for ply in range(4):
            before = moves_count(b)
            if ply == 0:
                # the first move by drag and drop
                frm, targets = candidate_moves(b, 0, ctx.rng, scan_all=False)[0]
                deselect(b)
                to = ctx.rng.choice(targets)
                b.drag_move(frm, to)
                print("    chess: %s%s (dragged)" % (frm, to))
            else:
                frm, to = play_random_move(b, 0, ctx.rng)
                print("    chess: %s%s" % (frm, to))
            send_and_wait(b, before, turn_texts)
            phase = wait_my_turn(b, turn_texts)
            if phase == "over":
                break
            check(moves_count(b) >= before + 2, "#moves did not grow by the move and the reply")
            check(b.css(".last-move"), "the last move is not highlighted")
        check(len(turn_texts) >= 2, "#turn never changed: %r" % sorted(turn_texts))
        no_js_errors(b)
        screenshots(ctx, b, "chess")
        check_replay(ctx, b)


def check_replay(ctx, b):
    """Loads a `position ...` line in the replay panel: the board shows its last frame,
    highlights its last move and offers no move."""
    b.click_css("#replay-panel summary")
    b.wait(lambda: b.css("#replay-text")[0].is_displayed(), "the replay panel to open", timeout=5)
    box = b.css("#replay-text")[0]
    box.clear()
    box.send_keys("position startpos moves e2e4 e7e5 g1f3")
    b.click_css("#replay-load")
    b.wait_attr("data-replay", "true", timeout=15)
    b.wait(lambda: b.css("#replay-last") and b.css("#replay-last")[0].is_enabled(), "#replay-last", timeout=5, raise_on_timeout=False)
    if b.css("#replay-last") and b.css("#replay-last")[0].is_enabled():
        b.click_css("#replay-last")
    b.wait_css('.piece[data-square="f3"]', timeout=10)
    check(not b.css('.piece[data-square="g1"]') and b.css('.piece[data-square="e5"]'), "the replay's last frame is not drawn")
    check(set(b.attrs(".last-move", "data-square")) == {"g1", "f3"}, "the replay's last move is not highlighted")
    b.click_square("f3", "piece")
    check(not b.css(".target"), "a replay frame offers moves")
    b.screenshot(ctx.shots, "chess-replay-1280x800")
    b.click_css("#replay-exit")
    b.wait_attr("data-replay", "false", timeout=10)
    no_js_errors(b)


def check_chess_black(ctx):
    args = ["--game", "chess", "--seat", "black", "--movetime", "200"]
    with PlayServer(ctx.bin, args, assets=ctx.assets, log_dir=ctx.log_dir) as server, Browser(*SIZES[1]) as b:
        open_game(b, server)
        turn_texts = set()
        check(wait_my_turn(b, turn_texts) == "play", "the game ended before black's first move")
        check(moves_count(b) >= 1, "the engine's first move is not in #moves")
        a1, a8, h1 = rect(b, '.square[data-square="a1"]'), rect(b, '.square[data-square="a8"]'), rect(b, '.square[data-square="h1"]')
        check(a1[1] < a8[1] and a1[0] > h1[0], "black's board is not turned round")
        before = moves_count(b)
        play_random_move(b, 1, ctx.rng)
        send_and_wait(b, before, turn_texts)
        wait_my_turn(b, turn_texts)
        no_js_errors(b)


def drop_moves(b, you):
    """[(letter, [targets])] for this seat's hand pieces."""
    found = []
    for letter in b.attrs('.hand-piece[data-seat="%d"]' % you, "data-drop"):
        b.click_css('.hand-piece[data-seat="%d"][data-drop="%s"]' % (you, letter))
        b.wait(lambda: b.css(".target") or b.css(".hand-piece.selected"), "drop targets", timeout=5, raise_on_timeout=False)
        targets = b.attrs(".target", "data-square")
        if targets:
            found.append((letter, targets))
        deselect(b)
    return found


def check_shogi(ctx):
    args = ["--game", "shogi", "--seat", "sente", "--movetime", "300"]
    with PlayServer(ctx.bin, args, assets=ctx.assets, log_dir=ctx.log_dir) as server, Browser(*SIZES[0]) as b:
        open_game(b, server)
        b.wait_css(".piece", count=40)
        turn_texts = set()
        check(wait_my_turn(b, turn_texts) == "play", "sente should move first")
        # sente at the bottom: 9a top left, 1i bottom right
        r9a, r1i = rect(b, '.square[data-square="9a"]'), rect(b, '.square[data-square="1i"]')
        check(r9a[0] < r1i[0] and r9a[1] < r1i[1], "sente's board is not oriented with 9a top left")
        dropped = False
        # at least 6 moves; then on until a drop has been played, 30 at most
        for ply in range(30):
            if ply >= 6 and dropped:
                break
            # captured pieces go to a hand, which the page shows
            on_board = b.count(".piece")
            if on_board < 40:
                check(b.css(".hand-piece"), "%d pieces on the board but no hand piece shown" % on_board)
            before = moves_count(b)
            drops = drop_moves(b, 0) if not dropped else []
            if drops:
                letter, targets = ctx.rng.choice(drops)
                to = ctx.rng.choice(targets)
                count_before = b.attrs('.hand-piece[data-drop="%s"][data-seat="0"]' % letter, "data-count")
                b.click_drop(letter, 0, to)
                print("    shogi: %s*%s (hand had %s)" % (letter, to, count_before))
                send_and_wait(b, before, turn_texts)
                b.wait_css('.piece[data-square="%s"][data-seat="0"]' % to, timeout=10)
                dropped = True
            else:
                frm, to = play_random_move(b, 0, ctx.rng, prefer_captures=True)
                print("    shogi: %s%s" % (frm, to))
                send_and_wait(b, before, turn_texts)
            phase = wait_my_turn(b, turn_texts)
            if phase == "over":
                break
            check(moves_count(b) >= before + 2, "#moves did not grow by the move and the reply")
        hands = b.count(".hand-piece")
        print("    shogi: %d hand piece kinds shown, %s" % (hands, "a drop played" if dropped else "no drop arose"))
        if b.count(".piece") < 40:
            check(hands > 0, "captures happened but no hand is shown")
        check(len(turn_texts) >= 2, "#turn never changed: %r" % sorted(turn_texts))
        no_js_errors(b)
        screenshots(ctx, b, "shogi")
        # the language button switches kanji and letters
        king = '.piece[data-piece="K"][data-seat="0"] text'
        before_text = b.wait(lambda: b.text(king), "sente's king")
        if b.css("#lang"):
            b.click_css("#lang")
            after = b.wait(lambda: (lambda t: t if t and t != before_text else None)(b.text(king)), "the king's name to change with #lang", timeout=10)
            check({before_text, after} == {"玉", "K"}, "the king reads %r then %r" % (before_text, after))
            b.screenshot(ctx.shots, "shogi-%s-1280x800" % ("en" if after == "K" else "zh"))
            no_js_errors(b)


def check_foursquare(ctx):
    args = ["--game", "foursquare", "--seat", "black", "--movetime", "100"]
    with PlayServer(ctx.bin, args, assets=ctx.assets, log_dir=ctx.log_dir) as server, Browser(*SIZES[0]) as b:
        open_game(b, server)
        b.wait_css(".piece", count=8)
        turn_texts = set()
        check(wait_my_turn(b, turn_texts) == "play", "black should move first")
        # black at the bottom: its stones (rank 4) below white's (rank 1)
        a4, a1 = rect(b, '.piece[data-square="a4"]'), rect(b, '.piece[data-square="a1"]')
        check(a4[1] > a1[1], "black's stones are not at the bottom")
        shot_mid = False
        for ply in range(300):
            phase = wait_my_turn(b, turn_texts)
            if phase == "over":
                break
            before = moves_count(b)
            play_random_move(b, 0, ctx.rng)
            send_and_wait(b, before, turn_texts)
            if not shot_mid and b.css(".captured"):
                b.screenshot(ctx.shots, "foursquare-capture-1280x800")
                shot_mid = True
        else:
            raise TestFailure("no end after 300 moves")
        check(b.body_attr("data-phase") == "over", "data-phase is not over")
        result = b.wait(lambda: (b.text("#result") or "").strip(), "#result to be filled", timeout=15)
        print("    foursquare: %d plies, result %r" % (moves_count(b), result))
        no_js_errors(b)
        screenshots(ctx, b, "foursquare", "-over")


def tests():
    """Every check, the Junqi one from its own module."""
    from test_junqi import check_junqi_dark

    return [check_junqi_dark, check_chess, check_chess_black, check_shogi, check_foursquare]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=None, help="the qiyi binary (default $QIYI_BIN)")
    parser.add_argument("--screenshots", default=None, help="where screenshots go (default a temporary directory)")
    parser.add_argument("--assets", default=os.environ.get("QIYI_PLAY_ASSETS"), help="serve the page files from this directory (QIYI_PLAY_ASSETS)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the random moves")
    parser.add_argument("-k", dest="only", default=None, help="run the tests whose name contains this")
    args = parser.parse_args(argv)
    args.bin = args.bin or qiyi_bin_from([])
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    random.seed(args.seed)
    if not args.screenshots:
        args.screenshots = tempfile.mkdtemp(prefix="qiyi-play-screenshots-")

    problems = check_requirements()
    if not args.bin:
        problems.append("no qiyi binary given (--bin PATH or QIYI_BIN)")
    elif not os.path.exists(args.bin):
        problems.append("the qiyi binary %s does not exist" % args.bin)
    if problems:
        print("cannot run the browser tests:", file=sys.stderr)
        for p in problems:
            print("  - " + p, file=sys.stderr)
        print("0 passed, 1 failed")
        return 2

    ctx = Context(args)
    print("browser tests: bin %s, seed %d, screenshots in %s" % (args.bin, args.seed, args.screenshots))
    passed = failed = 0
    for test in tests():
        if args.only and args.only not in test.__name__:
            continue
        start = time.monotonic()
        print("%s ..." % test.__name__, flush=True)
        try:
            test(ctx)
        except (TestFailure, HarnessError) as e:
            failed += 1
            print("FAIL %s: %s" % (test.__name__, e))
        except Exception:  # noqa: BLE001 - report and go on to the next test
            failed += 1
            print("FAIL %s:\n%s" % (test.__name__, traceback.format_exc()))
        else:
            passed += 1
            print("ok   %s (%.1fs)" % (test.__name__, time.monotonic() - start))
        sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
