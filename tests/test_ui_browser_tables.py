"""Many tables on one server, in a real browser (issue 16.3 and 16.5b).

Two games run at once on one server listening on the network (`--host 0.0.0.0`), each started from its
own tab and reached at its own address; each table's QR code is read back from a screenshot with
OpenCV's QR detector and must name that table's address on the network, and a follower opens exactly
that address and sees that game, and only its changes. Then the referee PIN after reconnecting: a
reloaded tab comes back to its own session (the referee's carries on, a follower's still only watches),
and tabs whose server restarts under them reconnect with sessions the server never saw: the referee's
tab is the referee again (its old session id started the game), the follower's comes back watching and
cannot change the game until the PIN is given. And a table whose save waits for the game
file (another connection holds its write lock) holds up no other table, and shows its change only once
it is saved.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import PHONE, Tab, failure_shot

from tests.qr import decode_qr

pytestmark = pytest.mark.browser

LAPTOP_WIDE = {"width": 1280, "height": 900}


def _start(tab: Tab, names: tuple[str, str], pin: str) -> str:
    """Start a classic game from `tab` (at home); returns the game id from the tab's new address."""
    tab.click("New game")
    tab.click("Classic Scrabble")
    tab.fill("Player 1 name", names[0])
    tab.fill("Player 2 name", names[1])
    tab.fill("Referee PIN (optional)", pin)
    tab.click("Start game")
    tab.text(f"{names[0]} to play")
    tab.page.wait_for_url(re.compile(r"/table/[0-9a-f]+$"), timeout=25_000)
    return tab.page.url.rsplit("/", 1)[1]


def _tap_until_heard(tab: Tab, button: str, shows: str, store_file: Path, game_id: str,
                     saved_after: list[str], tries: int = 4) -> None:
    """Tap `button` on a tab that has just reloaded or reconnected, and wait until it `shows` the result.

    In the first moments of a reloaded page, or while a tab whose server restarted is still reconnecting
    (Flet's client keeps drawing the old screen under its "Working..." overlay), a tap can go nowhere: the
    button is on screen and the server never hears of it (CI saw both on a loaded machine). A player whose
    tap did nothing taps again, and so does this helper, but only while the store proves the server never
    received a tap: a tap that was saved and not shown fails here at once, with the events saved, and so
    does one saved twice."""
    from companion.store import Store

    for attempt in range(tries):
        tab.click(button)
        try:
            tab.text(shows, timeout=10_000 if attempt < tries - 1 else 25_000)
            break
        except Exception:  # a timeout: decide below from what the server saved
            if attempt == tries - 1:
                raise
            with Store(store_file) as store:
                saved = [e.type for e in store.events(game_id)]
            assert saved == saved_after[:-1], (
                f"the server saved {saved} after the tap on {button!r} but the tab never showed {shows!r}")
    with Store(store_file) as store:
        saved = [e.type for e in store.events(game_id)]
    assert saved == saved_after, f"after the tap on {button!r} the server saved {saved}, not {saved_after}"


def _qr_text(tab: Tab) -> str:
    """The QR code on the tab's screen, decoded from a screenshot by OpenCV (as a phone's camera would)."""
    import cv2
    import numpy as np

    tab.wait_ident("table-address")
    # The code is an image the page draws once it has loaded: on a loaded machine that can take longer
    # than any fixed pause (a fresh clone's run decoded nothing after 700 ms), so keep looking, as a
    # phone's camera does, until it reads or 20 s have passed.
    deadline = time.monotonic() + 20
    while True:
        tab.page.wait_for_timeout(500)
        png = tab.page.screenshot(full_page=False)
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
        text = decode_qr(image)
        if text or time.monotonic() > deadline:
            return str(text)


def _context_for(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    """A phone's browser that may reach only the server at `url`'s host (the table's network address)."""
    host = re.match(r"^https?://([^/:]+)", url).group(1)  # type: ignore[union-attr]
    ctx = browser.new_context(viewport=viewport)
    allowed = re.compile(rf"^(https?|wss?)://(127\.0\.0\.1|localhost|{re.escape(host)})(:\d+)?/")
    ctx.route("**/*", lambda r: r.continue_() if allowed.match(r.request.url) or r.request.url.startswith(
        ("data:", "blob:")) else r.abort())
    return ctx


def test_two_games_at_once_each_at_its_own_address_with_its_qr_code_and_follower(tmp_path, playwright_instance):  # noqa: F811
    from companion.net import lan_addresses

    browser = launch(playwright_instance)
    with app_server(tmp_path, extra=["--host", "0.0.0.0"]) as url:
        port = url.rsplit(":", 1)[1]
        lan = (lan_addresses() or ["127.0.0.1"])[0]
        ref_a = new_tab(browser, url, viewport=LAPTOP_WIDE)
        ref_b = new_tab(browser, url)
        followers: list[Tab] = []
        try:
            game_a = _start(ref_a, ("Ann", "Bob"), "1357")
            # its home screen now lists the first table (a table's card is one semantics node, its label)
            ref_b.page.get_by_label(re.compile("Classic Scrabble: Ann, Bob")).first.wait_for(timeout=25_000)
            game_b = _start(ref_b, ("Cleo", "Dev"), "2468")
            assert game_a != game_b
            # Each table's QR code names its own address on the network.
            codes = {}
            for tab, game_id, shot in ((ref_a, game_a, "t01-qr-table-a-1280"), (ref_b, game_b, "t02-qr-table-b-360")):
                tab.click("Invite phones")
                tab.text("Invite phones to this table")
                codes[game_id] = _qr_text(tab)
                tab.shot(shot)
                assert codes[game_id] == f"http://{lan}:{port}/table/{game_id}"
            # A follower per table opens the address its QR code holds (the network one).
            for game_id, first in ((game_a, "Ann"), (game_b, "Cleo")):
                tab = Tab(_context_for(browser, codes[game_id]).new_page(), codes[game_id])
                tab.open()
                tab.text("Watching (read-only)")
                tab.text(f"{first} to play", place="follow-status")
                followers.append(tab)
            fol_a, fol_b = followers
            fol_b.shot("t03-follower-table-b-360")
            # A change on one table reaches its follower, not the other table's.
            ref_a.click("Turn")
            ref_a.click("Pass")
            fol_a.text("Bob to play", place="follow-status")
            ref_b.click("Turn")
            ref_b.fill("Word", "HOTEL")
            ref_b.fill("Square", "H8")
            ref_b.click("Confirm play")
            fol_b.text("Dev to play", place="follow-status")
            fol_b.wait_ident("cell-7-7")
            assert fol_a.find("Bob to play", place="follow-status").count() == 1  # table A's own line, still
            assert fol_a.page.get_by_text("Dev to play").count() == 0
            assert fol_b.page.get_by_text("Bob to play").count() == 0
            # Each game keeps its own PIN: game B's PIN does not open game A.
            fol_a.fill("Referee PIN", "2468")
            fol_a.click("Referee this game")
            fol_a.text("That PIN is not the referee's PIN.", place="error")
            # The home screen lists both tables; a new tab picks one.
            home = new_tab(browser, url, viewport=LAPTOP_WIDE)
            home.text("Games in progress")
            assert "Classic Scrabble: Ann, Bob" in home.wait_ident(f"table-{game_a}").get_attribute("aria-label")
            assert "Classic Scrabble: Cleo, Dev" in home.wait_ident(f"table-{game_b}").get_attribute("aria-label")
            home.page.wait_for_timeout(1500)  # a tab opened last paints its canvas a moment after its semantics
            home.shot("t04-home-two-tables-1280")
            # Export from the home screen: the browser downloads game A's whole log.
            with home.page.expect_download(timeout=25_000) as download:
                home.tap(home.ident(f"table-{game_a}").get_by_role("button", name="Export"))
            assert download.value.suggested_filename == f"classic-{game_a}.json"
            exported = Path(download.value.path()).read_text(encoding="utf-8")
            home.tap(home.ident(f"table-{game_b}").get_by_role("button", name="Open"))
            home.text("Watching (read-only)")
            home.text("Dev to play", place="follow-status")
            home.page.wait_for_url(re.compile(rf"/table/{game_b}$"), timeout=25_000)
        except Exception:
            for i, tab in enumerate([ref_a, ref_b, *followers]):
                failure_shot(tab, f"tables-{i}")
            raise
    browser.close()

    from companion.store import Store

    with Store(tmp_path / "games.sqlite") as store:
        rows = {g.id: g for g in store.games()}
        assert set(rows) == {game_a, game_b} and all(g.has_pin for g in rows.values())
        assert [e.type for e in store.events(game_a)] == ["start", "pass"]
        assert [e.type for e in store.events(game_b)] == ["start", "play"]
        assert exported == store.export_json(game_a)  # the download is the game's log, as the CLI exports it


def test_the_referee_pin_holds_after_a_reload_and_after_a_reconnect(tmp_path, playwright_instance):  # noqa: F811
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            game_id = _start(ref, ("Ann", "Bob"), "8642")
            ref.click("Pass")
            ref.text("Bob to play")
            # A reload reconnects the tab to its own session (Flet keeps the session id in the tab): the
            # server still knows this tab started the game, so it carries on refereeing.
            ref.page.reload()
            ref.page.locator("flt-semantics-placeholder").dispatch_event("click")
            ref.text("Bob to play")
            assert ref.page.url.endswith(f"/table/{game_id}")
            _tap_until_heard(ref, "Pass", "Ann to play", tmp_path / "games.sqlite", game_id, ["start", "pass", "pass"])
            # A phone that opened the table's address watches; reloaded, it still only watches, and the
            # server refuses it the referee's screens without the PIN.
            fol = new_tab(browser, url + f"/table/{game_id}")
            fol.text("Watching (read-only)")
            fol.page.reload()
            fol.page.locator("flt-semantics-placeholder").dispatch_event("click")
            fol.text("Watching (read-only)")
            fol.text("Ann to play", place="follow-status")
            fol.click("Referee this game")
            fol.text("That PIN is not the referee's PIN.", place="error")
            assert fol.button("Pass").count() == 0 and fol.button("Turn").count() == 0
            ref_session = ref.session_id()
            assert ref_session
        except Exception:
            failure_shot(ref, "pin-reload")
            raise
    # The server stops and starts again on the same address and data: the open tabs reconnect by themselves
    # (Flet's "Working..." overlay) with sessions the new server never saw, on their table's address. The
    # referee's tab is the referee again (it presents the session id that started the game: `Hub.reseat`);
    # the follower's still only watches and needs the PIN.
    port = int(url.rsplit(":", 1)[1])
    with app_server(tmp_path, port=port):
        try:
            # Until the tab is on a new session and connected, the Pass button on screen is the old
            # server's drawing under Flet's overlay: a tap on it goes nowhere (CI lost one that way).
            ref.page.wait_for_function(f"Object.values(sessionStorage).every(v => v !== {ref_session!r})",
                                       timeout=60_000)
            ref.page.wait_for_function("document.documentElement.dataset.connection === 'connected'",
                                       timeout=30_000)
            ref.button("Pass").first.wait_for(timeout=60_000)
            ref.text("Ann to play")
            ref.shot("t05-reconnected-after-restart-360")
            _tap_until_heard(ref, "Pass", "Bob to play", tmp_path / "games.sqlite", game_id,
                             ["start", "pass", "pass", "pass"])
            fol.text("Bob to play", place="follow-status", timeout=60_000)
            fol.text("Watching (read-only)")
            assert fol.button("Pass").count() == 0
            fol.fill("Referee PIN", "1111")
            fol.click("Referee this game")
            fol.text("That PIN is not the referee's PIN.", place="error")
            fol.fill("Referee PIN", "8642")
            fol.click("Referee this game")
            fol.button("Pass").first.wait_for(timeout=25_000)  # (a fourth pass in a row would end the game)
            fol.text("Bob to play")
        except Exception:
            failure_shot(ref, "pin-restart")
            failure_shot(fol, "pin-restart-follower")
            raise
    browser.close()

    from companion.store import Store

    with Store(tmp_path / "games.sqlite") as store:
        assert [e.type for e in store.events(game_id)] == ["start", "pass", "pass", "pass"]


def test_a_table_waiting_for_the_disk_holds_up_no_other_table(tmp_path, playwright_instance):  # noqa: F811
    """A save that waits for the game file (here another connection holds SQLite's write lock, as a slow
    disk's fsync would) runs off the server's event loop: the other table's tabs are served meanwhile,
    while the waiting table's tabs, its referee's included, show its change only once it is saved."""
    import sqlite3

    from companion.games.classic.table import new_classic
    from companion.store import FILE_NAME, Store
    from companion.ui.persist import GameStore
    from companion.ui.table import PlayerInfo

    saved = GameStore(tmp_path)
    games = [new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]) for _ in range(2)]
    for game in games:
        saved.save(game)
    one, two = (g.id for g in games)
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        tabs: list[Tab] = []
        try:
            ref1 = new_tab(browser, f"{url}/table/{one}")
            tabs.append(ref1)
            ref1.click("Referee this game")
            ref1.button("Pass").first.wait_for()
            fol1, fol2 = new_tab(browser, f"{url}/table/{one}"), new_tab(browser, f"{url}/table/{two}")
            tabs += [fol1, fol2]
            for fol in (fol1, fol2):
                fol.text("Watching (read-only)")
                fol.text("Ann to play", place="follow-status")
            lock = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None, timeout=0)
            lock.execute("BEGIN IMMEDIATE")  # the store's busy timeout is 10 s: released well before
            try:
                held_at = time.monotonic()
                ref1.click("Pass")
                # Table two is served while table one's save waits: its follower opens the invitation.
                fol2.click("Invite phones")
                fol2.wait_ident("table-address", timeout=5_000)
                served = time.monotonic() - held_at
                # Table one's pass is not on disk yet, so none of its tabs shows it.
                fol1.page.wait_for_timeout(500)
                for tab in (ref1, fol1):
                    assert tab.page.get_by_text("Bob to play").count() == 0
                    assert tab.page.get_by_text("Ann to play").count() >= 1
                assert lock.execute("SELECT count(*) FROM events WHERE game_id = ?", (one,)).fetchone()[0] == 1
                assert time.monotonic() - held_at < 9  # still within the store's busy timeout
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            for tab in (ref1, fol1):
                tab.text("Bob to play", timeout=15_000)
            assert served < 5
        except Exception:
            for n, tab in enumerate(tabs):
                failure_shot(tab, f"disk-wait-{n}")
            raise
    browser.close()
    with Store(tmp_path / FILE_NAME) as store:
        assert [e.type for e in store.events(one)] == ["start", "pass"]
        assert [e.type for e in store.events(two)] == ["start"]


def test_a_phone_on_plain_http_gets_the_light_client_and_still_shows_the_qr_code(tmp_path, playwright_instance):  # noqa: F811
    """A phone opens the table's address over plain HTTP: not a secure context, so its browser has no
    `ImageDecoder`. Flutter's own loader then took `skwasm_heavy.wasm` (its own image codecs, 0.75 MB more
    to download); this app's page takes the light `skwasm.wasm`, and draws its one picture, the QR code,
    as shapes, so the code a player shows the next player from a phone still reads back.
    (`table.test` is mapped to this machine: an address other than localhost, as a phone's is.)"""
    browser = launch(playwright_instance, ["--host-resolver-rules=MAP table.test 127.0.0.1"])
    with app_server(tmp_path) as url:
        phone_url = url.replace("127.0.0.1", "table.test")
        tab = Tab(_context_for(browser, phone_url).new_page(), phone_url)
        wasm: list[str] = []
        tab.page.on("request", lambda r: wasm.append(r.url.rsplit("/", 1)[-1]) if r.url.endswith(".wasm") else None)
        try:
            tab.open()
            assert tab.page.evaluate("() => [window.isSecureContext, typeof ImageDecoder]") == [False, "undefined"]
            game_id = _start(tab, ("Ann", "Bob"), "")
            assert sorted(wasm) == ["main.dart.wasm", "skwasm.wasm"], wasm
            tab.click("Invite phones")
            tab.text("Invite phones to this table")
            assert _qr_text(tab) == f"{url}/table/{game_id}"  # the server's own address (it listens on loopback)
        except Exception:
            failure_shot(tab, "plain-http-phone")
            raise
    browser.close()
