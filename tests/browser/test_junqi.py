"""Browser test of `qiyi play`'s Junqi board: a whole dark game for seat S, by clicking.

Run through test_boards.py (its main runs every check); this module holds the Junqi one.
The page is checked on every turn for ranks it may not show: a piece of another seat
reads `?` unless it is a flag made public, and no other seat's lineup is ever in the page.
"""

import time

from test_boards import (
    SIZES,
    TestFailure,
    check,
    moves_count,
    no_js_errors,
    screenshots,
    truthy,
)
from harness import Browser, PlayServer

# What names a flag: a foreign piece may read `?`, or show a flag made public.
FLAG_WORDS = ["军旗", "flag", "Flag"]
RANK_WORDS = [
    "司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "地雷", "炸弹",
    "marshal", "general", "brigadier", "colonel", "major", "captain", "lieutenant",
    "engineer", "mine", "bomb",
]


def foreign_pieces_hidden(b):
    """Every piece of another seat reads `?` (or a public flag) and names no rank."""
    for seat, text, html in b.driver.execute_script(
        """return [...document.querySelectorAll('#board .piece')]
               .filter(p => p.getAttribute('data-seat') !== '0')
               .map(p => [p.getAttribute('data-seat'), p.textContent.trim(), p.outerHTML]);"""
    ):
        public_flag = any(word in text for word in FLAG_WORDS)
        check(text == "?" or public_flag, "seat %s's piece reads %r" % (seat, text))
        for word in RANK_WORDS:
            check(word not in html, "seat %s's piece names %r: %s" % (seat, word, html[:200]))


def wait_turn_or_end(b, timeout=120.0):
    def ready():
        phase = b.body_attr("data-phase")
        if phase == "over":
            return "over"
        if phase == "play" and truthy(b.body_attr("data-mine")):
            return "play"
        return None

    return b.wait(ready, lambda: "S's turn (body %r)" % b.body_attrs(), timeout=timeout)


def play_one(b, rng):
    """Clicks one of S's pieces that can move (the board marks them), then one of the
    targets it shows."""
    squares = b.attrs('#board .piece.movable[data-seat="0"]', "data-square")
    rng.shuffle(squares)
    for square in squares:
        targets = b.select(square)
        if targets:
            b.click_css('#board .target[data-square="%s"]' % rng.choice(targets))
            return
    raise TestFailure("S to move, but no piece of S offers a target")


def check_junqi_dark(ctx):
    args = ["--game", "junqi", "--info", "dark", "--seat", "S", "--movetime", "100"]
    with PlayServer(ctx.bin, args, assets=ctx.assets, log_dir=ctx.log_dir) as server, Browser(*SIZES[0]) as b:
        b.open(server.urls[0])
        b.wait_css("#board svg")
        b.wait_attr("data-connected", ("true", "1"), timeout=30)
        b.wait_attr("data-phase", ("deploy",), timeout=30)
        b.wait_css('#board .piece[data-seat="0"]', count=25)
        # Deployment: a random lineup, then two front-row pieces swapped by clicking.
        b.click_css("#random-lineup")
        time.sleep(0.3)
        front = ["g6", "h6"]  # S's slots 0 and 1: any two pieces may stand there
        labels = [b.text('#board .piece[data-square="%s"]' % sq) for sq in front]
        b.click_css('#board .piece[data-square="%s"]' % front[0])
        b.click_css('#board .piece[data-square="%s"]' % front[1])
        b.wait(
            lambda: [b.text('#board .piece[data-square="%s"]' % sq) for sq in front] == labels[::-1],
            "the two pieces to swap (%r)" % labels,
            timeout=10,
        )
        b.screenshot(ctx.shots, "junqi-deploy-1280x800")
        b.click_css("#ready")
        turns = 0
        while wait_turn_or_end(b) == "play":
            foreign_pieces_hidden(b)
            before = moves_count(b)
            play_one(b, ctx.rng)
            b.wait(
                lambda: moves_count(b) > before or b.body_attr("data-phase") == "over",
                "S's move to reach #moves",
                timeout=30,
            )
            turns += 1
            if turns == 20:
                b.screenshot(ctx.shots, "junqi-dark-1280x800")
                b.set_size(*SIZES[1])
                b.screenshot(ctx.shots, "junqi-dark-390x844")
                b.set_size(*SIZES[0])
            check(turns < 2000, "no end after 2000 turns")
        result = b.wait(lambda: (b.text("#result") or "").strip(), "#result to be filled", timeout=15)
        foreign_pieces_hidden(b)
        # No other seat's lineup anywhere in the page, now that the record names them all.
        path = next(l.split(" record ", 1)[1] for l in server.lines if l.startswith("qiyi play:"))

        def finished_record():
            # written a moment after the page hears of the end
            with open(path, encoding="utf-8") as f:
                text = f.read()
            return text if "position setup" in text and "in progress" not in text else None

        record = b.wait(finished_record, "the record of the finished game", timeout=15)
        setup = next(l for l in record.splitlines() if l.startswith("position setup"))
        page = b.driver.page_source
        for token in setup.split()[2:6]:
            seat, _, lineup = token.partition(":")
            if seat != "S" and lineup:
                check(lineup not in page, "%s's lineup is in the page" % seat)
        print("    junqi dark: S played %d moves, %d plies listed, result %r" % (turns, moves_count(b), result))
        no_js_errors(b)
        screenshots(ctx, b, "junqi", "-over")
