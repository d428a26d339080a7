"""Start the app as a real subprocess and drive it through Chromium's accessibility tree.

Flutter draws on a canvas; one click on `flt-semantics-placeholder` switches on the semantics tree,
after which buttons, text fields and texts are DOM nodes Playwright can find by role and name.

Waiting for a text: `tab.text(text, place=..., contains=False)`.
- Exact by default: one node's whole text equals `text` (case as shown; Playwright trims and joins
  whitespace). A regular expression must match the node's whole text (it is anchored).
- `contains=True`: a case-sensitive substring (a regex: a search) instead, for lines that carry a
  changing tail (a time, a count) the test does not pin.
- `place`: where the text must be, so that a line already elsewhere on the page (the history, an earlier
  message) does not satisfy the wait: a semantics identifier (`"info"`, `"error"`, `"status"`, the
  `ft.Semantics(identifier=...)` of the app) or `"role:<aria role>"` (`"role:button"`). Without it the
  whole page: use that only for text the page shows once.
- `tab.find(text, place=..., contains=...)`: the same match without waiting, to count (`.count() == 0`).

Screenshots (`tab.shot`) go to `tests/_artifacts/screenshots/` (ignored by git), so a test run leaves the
checkout clean; `COMPANION_SCREENSHOTS=docs` writes them to `docs/screenshots/` instead, the README's
pictures (`COMPANION_SCREENSHOTS=docs ./dev.sh test -m browser` refreshes them).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

REPO = Path(__file__).resolve().parents[2]
# The README's pictures are refreshed only when asked (COMPANION_SCREENSHOTS=docs); a plain run writes
# its screenshots where git does not look.
SCREENSHOTS = (REPO / "docs" / "screenshots" if os.environ.get("COMPANION_SCREENSHOTS") == "docs"
               else REPO / "tests" / "_artifacts" / "screenshots")
CHROMIUM = "/usr/bin/chromium"
BASE_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-background-networking",
             "--disable-component-update", "--no-first-run"]
PHONE = {"width": 360, "height": 1100}
LAPTOP = {"width": 1100, "height": 900}
# How long a step may take to show. Each wait ends as soon as its condition holds; the cap is wide
# because a loaded CI machine (the whole suite on 2 cores) took over 10 s to redraw the turn screen.
WAIT_MS = 25_000
_TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(null))))"
# Grey-level spread of a screenshot under which the page is taken as not painted yet: a blank canvas is
# 0, Flet's "Working..." splash 1.7, the sparsest real screen (the lookup ruling) well above 20.
BLANK_STD = 5.0
# How long the app may take to start listening (imports, the word list, the prepared web client).
# `benchmarks/app_start.py` on the 2 shared cores with other engineers' benchmarks running (load average
# 25-29): median 20.2 s, max 26.4 s over 5 starts; in loops of the plugin test at load 24-33, 6 of 81
# starts took over the former cap of 30 s and failed their test. The cap is wide; a start that answers
# sooner goes on at once.
START_SECONDS = 90
APP_LOG = Path(__file__).resolve().parent / "app_log"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_SERVER_PIDS: dict[str, int] = {}


def server_pid(url: str) -> int:
    """The process id of the app `app_server` is running at `url` (benchmarks read its CPU time)."""
    return _SERVER_PIDS[url]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def app_server(data_dir: Path, env: dict[str, str] | None = None, extra: list[str] | None = None,
               scheme: str = "http", port: int | None = None) -> Iterator[str]:
    """`python -m companion app --port P --data DIR` as a subprocess; yields the URL once it answers.
    `port`: a given port (a restart on the same address, which open tabs reconnect to), else a free one."""
    port = port or free_port()
    # Appended, one header per start: a test that restarts the server keeps the log of each run.
    log = open(data_dir / "server.log", "a")  # noqa: SIM115 - closed in the finally below
    log.write(f"=== app server on port {port}, started {time.strftime('%H:%M:%S')}\n")
    log.flush()
    # The app drops a tap that comes too soon after the previous one (a double tap, `companion.ui.models`):
    # the steps here tap at machine speed, so the guard is off unless a test (the double-tap one) asks.
    full_env = {**os.environ, "FLET_WEB_NO_CDN": "true", "PYTHONUNBUFFERED": "1", "COMPANION_TAP_GUARD": "off",
                **(env or {})}
    # `app_log/sitecustomize.py`: a click Flet drops (its control replaced meanwhile) is a line in the log.
    full_env["PYTHONPATH"] = os.pathsep.join(p for p in (str(APP_LOG), full_env.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port), "--data", str(data_dir),
                             *(extra or [])],
                            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=full_env)
    url = f"{scheme}://127.0.0.1:{port}"
    _SERVER_PIDS[url] = proc.pid
    try:
        deadline = time.time() + START_SECONDS
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError("the app exited: " + (data_dir / "server.log").read_text()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"the app did not start listening within {START_SECONDS} s")
        try:
            yield url
        except BaseException:
            # What the server said (a dropped tap, a traceback): pytest shows it with the failure.
            log.flush()
            print(f"--- {data_dir / 'server.log'} (end) ---\n" + (data_dir / "server.log").read_text()[-3000:])
            raise
    finally:
        _SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def launch(playwright: Any, extra_args: list[str] | None = None) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=BASE_ARGS + (extra_args or []))


def block_outside(context: Any) -> None:
    def route(r: Any) -> None:
        url = r.request.url
        if re.match(r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/", url) or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)


# Focus a text field's semantics <input> so that Flutter takes it over. Unless it is focused already (and
# this is the first attempt), mark it not taken over yet ('off': a former focus may have left it 'on') and
# focus it. On a retry a focused field is blurred first and Flutter given two frames to let it go: a focused
# field whose 'on' was lost is never configured again, and a blur and focus in one go went unnoticed.
_FOCUS_FOR_FLUTTER = """async (e, again) => {
    if (document.activeElement === e) {
        if (!again) return;
        e.blur();
        for (let i = 0; i < 2; i++) await new Promise(done => requestAnimationFrame(done));
    }
    e.setAttribute('autocorrect', 'off');
    e.focus();
}"""


class Tab:
    """One browser tab on the app, with helpers that wait for the semantics tree."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url

    def open(self, timeout: float = 30_000) -> float:
        t0 = time.perf_counter()
        self.page.goto(self.url)
        placeholder = self.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=timeout)
        placeholder.dispatch_event("click")
        return time.perf_counter() - t0

    def button(self, name: str, exact: bool = True) -> Any:
        return self.page.get_by_role("button", name=name, exact=exact)

    def session_id(self) -> str:
        """The Flet session id the tab keeps (in its sessionStorage) and presents when it connects again."""
        return str(self.page.evaluate(
            "Object.entries(sessionStorage).filter(([k]) => k.includes('session_id')).map(([, v]) => v).join()"))

    @staticmethod
    def tap(locator: Any, timeout: float = WAIT_MS) -> None:
        """Tap a control through Flutter's semantics: a DOM `click` on its semantics node, which Flutter's
        web engine turns into the node's tap action.

        Why not `locator.click()`: that is a mouse click at screen coordinates taken from the semantics
        DOM after Playwright scrolled the node into view. Flutter draws on a canvas and scrolls its own
        content (a DOM scroll only asks it to scroll, by its own amount and a frame later), so on a page
        taller than the window, and on a loaded machine, the click landed on whatever Flutter drew there
        at that moment: CI's flake was a tap meant for a text field that hit "End game by agreement" or a
        board square. The tap action goes to exactly this node, wherever it is drawn."""
        locator.wait_for(state="attached", timeout=timeout)
        # Two frames first, so the node tapped is the one Flutter settled on: CI lost "Confirm play" tapped
        # the moment "Check" had redrawn the play's score (load average 20; no dropped event in the
        # server's log, so the tap never left the page).
        locator.page.evaluate(_TWO_FRAMES)
        locator.dispatch_event("click")

    def click(self, name: str, exact: bool = True, timeout: float = WAIT_MS) -> None:
        self.tap(self.button(name, exact).first, timeout)

    def choose(self, name: str, shows: Any, timeout: float = WAIT_MS, tries: int = 3) -> None:
        """Tap an option whose tap may be repeated (a game, a player count, a colour) until `shows` (a
        locator) is on the page: the setup screen redraws its options as each pick lands (the chosen one
        filled, the player counts of the game), so a second pick tapped at machine speed can reach a node
        the redraw is replacing and be lost with no trace in the server's log (CI: "3 players" tapped as
        "Monopoly Deal" redrew the counts; the three-player seats never showed). A player taps again."""
        for attempt in range(tries):
            self.click(name, timeout=timeout)
            try:
                shows.first.wait_for(timeout=timeout / tries if attempt < tries - 1 else timeout)
                return
            except PlaywrightError:
                if attempt == tries - 1:
                    raise

    def tap_ident(self, identifier: str, timeout: float = WAIT_MS) -> None:
        self.tap(self.ident(identifier).first, timeout)

    def fill(self, label: str, value: str, timeout: float = WAIT_MS) -> None:
        """Type `value` over what a text field holds, once Flutter listens to the field.

        A Flutter text field is a DOM <input> in the semantics tree, but Flutter reads it only after its
        text-editing strategy has taken it over, a frame or more after the focus. Text typed before then
        stays in the DOM only and is overwritten with Flutter's old value when it does take over (the
        server never hears of it). Taking over applies the field's configuration, which turns the
        input's `autocorrect` attribute from the semantics default 'off' to 'on' (every field of this
        app keeps Flet's autocorrect=True): that is the condition waited for."""
        for attempt in range(5):
            box = self.page.get_by_role("textbox", name=label).first
            box.wait_for(state="attached", timeout=timeout)
            handle = box.element_handle(timeout=timeout)
            try:
                # One script, so Flutter cannot take the field over between the check and the reset: when
                # the check and the reset were two round trips, a field's autofocus (the lookup's Words
                # field, drawn anew each time its ruling closes) could land in between, and the reset then
                # turned Flutter's 'on' back to 'off' for good (Flutter applies the configuration once per
                # focus). On a retry the field is blurred first, so that Flutter takes it over again.
                handle.evaluate(_FOCUS_FOR_FLUTTER, attempt > 0)
                self.page.wait_for_function(
                    "e => document.activeElement === e && e.getAttribute('autocorrect') === 'on'",
                    arg=handle, timeout=timeout / 4)
                handle.fill(value)  # selects what is there and replaces it in one input event
                # Two frames for Flutter to read the input event and send the field's change, so a tap right
                # after (CI: "Exchange" after the Tiles field, at load) does not race it on a loaded machine.
                self.page.evaluate(_TWO_FRAMES)
                return
            except PlaywrightError as exc:
                # Flutter rebuilt the semantics tree between finding the field and using it, or a redraw
                # took the focus away before Flutter took the field over (both on a loaded machine; a
                # fresh clone's run waited 25 s for a focus a redraw had moved): find and focus it again.
                if ("not attached" not in str(exc) and "Timeout" not in str(exc)) or attempt == 4:
                    raise

    def text(self, text: str | re.Pattern[str], timeout: float = WAIT_MS, *, place: str | None = None,
             contains: bool = False) -> Any:
        """Wait until a node in `place` (the page when None) shows `text`: its whole text unless `contains`
        (see the module docstring); returns that node."""
        loc = self.find(text, place=place, contains=contains).first
        loc.wait_for(timeout=timeout)
        return loc

    def find(self, text: str | re.Pattern[str], *, place: str | None = None, contains: bool = False) -> Any:
        """Every node in `place` showing `text`, matched as `text()` matches, without waiting (`.count()`)."""
        if isinstance(text, re.Pattern):
            wanted: str | re.Pattern[str] = text if contains else re.compile(f"^(?:{text.pattern})$", text.flags)
        else:
            wanted = re.compile(re.escape(text)) if contains else text
        exact = isinstance(wanted, str)  # a string is matched whole and case-sensitive
        if place is None:
            return self.page.get_by_text(wanted, exact=exact)
        scope = (self.page.get_by_role(place.removeprefix("role:")) if place.startswith("role:")
                 else self.ident(place))
        # the text on a node inside the place, or on the place's own node (Flutter merges a Text into the
        # semantics node that wraps it)
        return scope.get_by_text(wanted, exact=exact).or_(scope.and_(self.page.get_by_text(wanted, exact=exact)))

    def ident(self, identifier: str) -> Any:
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]')

    def wait_ident(self, identifier: str, timeout: float = WAIT_MS) -> Any:
        loc = self.ident(identifier).first
        loc.wait_for(timeout=timeout)
        return loc

    def shot(self, name: str, timeout: float = 15.0) -> Path:
        """Save a screenshot once the page shows something: a tab opened a moment ago (on a loaded
        machine) can still show a blank canvas or Flet's "Working..." splash, both nearly one colour,
        after its semantics tree (what the steps wait for) is already there."""
        import cv2
        import numpy as np

        self.page.wait_for_timeout(700)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        deadline = time.monotonic() + timeout
        while True:
            png = self.page.screenshot(full_page=False)
            image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
            if float(image.std()) > BLANK_STD or time.monotonic() > deadline:
                break
            self.page.wait_for_timeout(500)
        path.write_bytes(png)
        return path


def failure_shot(tab: Tab, name: str) -> None:
    try:
        tab.page.screenshot(path=f"/tmp/fail-{name}.png", full_page=False)
    except Exception:  # noqa: BLE001, S110 - a failure screenshot is best effort; the test's own error matters
        pass
