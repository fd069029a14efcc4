"""A harness for driving `qiyi play` pages in headless Chromium through Selenium.

    from harness import PlayServer, Browser, check_requirements

    missing = check_requirements()          # [] or readable reasons
    with PlayServer(bin_path, ["--game", "chess", "--seat", "white"]) as server:
        with Browser(1280, 800) as browser:
            browser.open(server.urls[0])
            browser.wait_attr("data-connected", "true")
            browser.click_move("e2", "e4")
            browser.screenshot(dir, "chess-1280x800")

The server is started with `--port 0` and the URLs are read from the lines of its
standard output that contain `http://127.0.0.1:`. `QIYI_PLAY_ASSETS` (to serve the page
files from a directory) is passed through from the environment or set by `assets=`.
Every wait polls; none sleeps a fixed time. Needs `selenium` (pip), Debian's `chromium`
and `chromium-driver`.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

URL_RE = re.compile(r"http://127\.0\.0\.1:\d+/\S*")

CHROMIUM_CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
DRIVER_CANDIDATES = ["/usr/bin/chromedriver", "chromedriver"]


class HarnessError(Exception):
    """A wait that ran out, a server that did not start: the message says which."""


def find_chromium():
    env = os.environ.get("CHROMIUM_BIN")
    if env and os.path.exists(env):
        return env
    for name in CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def find_chromedriver():
    env = os.environ.get("CHROMEDRIVER")
    if env and os.path.exists(env):
        return env
    for name in DRIVER_CANDIDATES:
        path = name if os.path.isabs(name) and os.path.exists(name) else shutil.which(name)
        if path:
            return path
    return None


def check_requirements():
    """Reasons the browser tests cannot run here, each with what to install."""
    missing = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the Python package selenium is not installed (pip install selenium)")
    if not find_chromium():
        missing.append("no Chromium found (apt-get install chromium, or set CHROMIUM_BIN)")
    if not find_chromedriver():
        missing.append("no chromedriver found (apt-get install chromium-driver, or set CHROMEDRIVER)")
    return missing


class PlayServer:
    """`qiyi play ARGS --port 0` as a child process; `urls` the URLs it printed."""

    def __init__(self, bin_path, args, expect_urls=1, timeout=60.0, assets=None, log_dir=None):
        self.bin_path = bin_path
        self.args = list(args)
        self.expect_urls = expect_urls
        self.timeout = timeout
        self.assets = assets
        self.urls = []
        self.lines = []
        self.proc = None
        self._lock = threading.Lock()
        self._log_dir = log_dir or tempfile.mkdtemp(prefix="qiyi-play-test-")
        self.stderr_path = os.path.join(self._log_dir, "server-stderr-%d.txt" % id(self))

    def start(self):
        if not self.bin_path or not os.path.exists(self.bin_path):
            raise HarnessError("qiyi binary not found: %r" % (self.bin_path,))
        env = dict(os.environ)
        if self.assets:
            env["QIYI_PLAY_ASSETS"] = self.assets
        cmd = [self.bin_path, "play"] + self.args + ["--port", "0"]
        self._stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=env,
        )
        threading.Thread(target=self._read_stdout, daemon=True).start()
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.urls) >= self.expect_urls:
                    return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        out = "\n".join(self.lines[-20:])
        err = self.stderr_tail()
        self.stop()
        raise HarnessError(
            "`%s` printed %d of %d URL(s) (exit %s)\nstdout:\n%s\nstderr:\n%s"
            % (" ".join(cmd), len(self.urls), self.expect_urls, self.proc.returncode, out, err)
        )

    def _read_stdout(self):
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            with self._lock:
                self.lines.append(line)
                if "http://127.0.0.1:" in line:
                    m = URL_RE.search(line)
                    if m:
                        self.urls.append(m.group(0))

    def stderr_tail(self, n=30):
        try:
            with open(self.stderr_path) as f:
                return "\n".join(f.read().splitlines()[-n:])
        except OSError:
            return ""

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if getattr(self, "_stderr", None):
            self._stderr.close()
            self._stderr = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


class Browser:
    """Headless Chromium at a window size, with polling waits and board helpers."""

    def __init__(self, width=1280, height=800, timeout=30.0):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.timeout = timeout
        opts = webdriver.ChromeOptions()
        opts.binary_location = find_chromium()
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=%d,%d" % (width, height),
        ):
            opts.add_argument(arg)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(find_chromedriver()), options=opts)
        self.set_size(width, height)

    # -- the window ------------------------------------------------------------------

    def set_size(self, width, height):
        """Makes the page's viewport width x height (the window frame, if any, added)."""
        d = self.driver
        d.set_window_size(width, height)
        inner = d.execute_script("return [window.innerWidth, window.innerHeight]")
        dw, dh = width - inner[0], height - inner[1]
        if dw or dh:
            d.set_window_size(width + dw, height + dh)
        self.wait(
            lambda: self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
            == [width, height],
            "the viewport to become %dx%d" % (width, height),
            timeout=5,
            raise_on_timeout=False,
        )

    def open(self, url):
        self.driver.get(url)

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()
        return False

    # -- waiting ---------------------------------------------------------------------

    def wait(self, condition, what, timeout=None, poll=0.05, raise_on_timeout=True):
        """Polls condition() until it is truthy; returns its value. Exceptions while
        polling (a stale element, a page mid-redraw) count as not yet."""
        deadline = time.monotonic() + (timeout if timeout is not None else self.timeout)
        last_error = None
        while True:
            try:
                value = condition()
                if value:
                    return value
            except Exception as e:  # noqa: BLE001 - any failure means "not yet"
                last_error = e
            if time.monotonic() >= deadline:
                if not raise_on_timeout:
                    return None
                extra = " (last error: %s)" % last_error if last_error else ""
                raise HarnessError("timed out waiting for %s%s" % (what() if callable(what) else what, extra))
            time.sleep(poll)

    def css(self, selector):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def wait_css(self, selector, timeout=None, count=1):
        """Waits until at least `count` elements match; returns them."""
        return self.wait(
            lambda: (lambda found: found if len(found) >= count else None)(self.css(selector)),
            "%d element(s) matching %r" % (count, selector),
            timeout,
        )

    def wait_gone(self, selector, timeout=None):
        return self.wait(lambda: not self.css(selector), "no element matching %r" % selector, timeout)

    def body_attr(self, name):
        return self.driver.execute_script(
            "return document.body ? document.body.getAttribute(arguments[0]) : null", name
        )

    def body_attrs(self):
        return {k: self.body_attr(k) for k in ("data-phase", "data-mine", "data-connected")}

    def wait_attr(self, name, value, timeout=None):
        """Waits until body's attribute `name` equals `value` (or is in it, a tuple)."""
        values = value if isinstance(value, (tuple, list, set)) else (value,)
        return self.wait(
            lambda: self.body_attr(name) in values,
            lambda: "body[%s] in %r (it is %r)" % (name, values, self.body_attr(name)),
            timeout,
        )

    def text(self, selector):
        found = self.css(selector)
        return found[0].text if found else None

    def count(self, selector):
        return len(self.css(selector))

    # -- boards ----------------------------------------------------------------------

    def click_css(self, selector, timeout=None):
        """Clicks the first element matching selector, finding it again when the page
        redrew it between finding and clicking (the boards redraw on every state)."""
        from selenium.common.exceptions import StaleElementReferenceException

        def attempt():
            try:
                self.wait_css(selector, timeout)[0].click()
                return True
            except StaleElementReferenceException:
                return False

        self.wait(attempt, "a click on %r" % selector, timeout)

    def click_square(self, square, cls="piece"):
        """Clicks `[data-square=X].cls` (cls `piece`, `target`, `square` ...)."""
        self.click_css('.%s[data-square="%s"]' % (cls, square))

    def select(self, square):
        """Clicks the piece on `square`; returns the squares of the targets it shows."""
        self.click_square(square, "piece")
        targets = self.wait(
            lambda: self.css(".target") or self.css('.piece.selected[data-square="%s"]' % square)
            or None,
            "targets or a selection after clicking %s" % square,
            timeout=5,
            raise_on_timeout=False,
        )
        if not targets:
            return []
        return self.attrs(".target", "data-square")

    def attrs(self, selector, name):
        """The attribute `name` of every element matching selector, read in one go."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), e => e.getAttribute(arguments[1]));",
            selector,
            name,
        )

    def click_move(self, frm, to):
        """Clicks the piece on `frm`, then the target on `to`."""
        self.click_square(frm, "piece")
        self.click_css('.target[data-square="%s"]' % to, timeout=10)

    def drag_move(self, frm, to):
        """Drags the piece on `frm` onto the square `to` (a press, moves, a release).
        The board redraws as the drag starts, so the way is measured beforehand."""
        from selenium.webdriver.common.action_chains import ActionChains

        centre = (
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return [r.left + r.width / 2, r.top + r.height / 2];"
        )
        self.wait_css('.piece[data-square="%s"]' % frm)
        fx, fy = self.driver.execute_script(centre, '.piece[data-square="%s"]' % frm)
        tx, ty = self.driver.execute_script(centre, '[data-square="%s"]:not(.piece):not(.target)' % to)
        piece = self.css('.piece[data-square="%s"]' % frm)[0]
        chain = ActionChains(self.driver).click_and_hold(piece)
        dx, dy = int(round(tx - fx)), int(round(ty - fy))
        steps = 4
        done_x = done_y = 0
        for i in range(1, steps + 1):
            sx, sy = dx * i // steps - done_x, dy * i // steps - done_y
            chain.move_by_offset(sx, sy)
            done_x += sx
            done_y += sy
        chain.release().perform()

    def click_drop(self, letter, seat, to):
        """Shogi: clicks the hand piece `letter` of `seat`, then the target on `to`."""
        self.click_css('.hand-piece[data-drop="%s"][data-seat="%s"]' % (letter, seat))
        self.click_css('.target[data-square="%s"]' % to, timeout=10)

    def js_errors(self):
        """Uncaught exceptions the page logged since the last call."""
        try:
            logs = self.driver.get_log("browser")
        except Exception:
            return []
        return [
            entry["message"]
            for entry in logs
            if entry.get("level") == "SEVERE" and "Uncaught" in entry.get("message", "")
        ]

    def screenshot(self, directory, name):
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, name if name.endswith(".png") else name + ".png")
        self.driver.save_screenshot(path)
        return path


def qiyi_bin_from(argv=None):
    """The binary from `--bin PATH` in argv, else $QIYI_BIN."""
    argv = sys.argv if argv is None else argv
    for i, a in enumerate(argv):
        if a == "--bin" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--bin="):
            return a.split("=", 1)[1]
    return os.environ.get("QIYI_BIN")
