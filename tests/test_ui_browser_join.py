"""A phone joining a table, in a real browser: the app can be added to the home screen (its own manifest,
name, icons and colours, which Chromium finds installable), and a follower whose Wi-Fi drops for a moment
says it is reconnecting and then shows what happened meanwhile, without reloading the page.

The Wi-Fi is cut with a TCP forwarder between the follower's browser and the app (`Link`): cutting
closes every connection through it and refuses new ones for a while, as a phone that lost its network
sees. (Chromium's own offline emulation fires the page's `offline` event but leaves an open websocket
untouched, so it cannot cut a follower off.)
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from typing import Any

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import BASE_ARGS, CHROMIUM, PHONE, Tab, failure_shot, free_port

pytestmark = pytest.mark.browser


class Link:
    """A TCP forwarder on loopback to `target_port` that can be cut: `cut()` closes every connection and
    refuses new ones until `restore()`."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.up = True
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._server = self._loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", self.port))
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_w}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer), return_exceptions=True)
        self._writers -= {writer, up_w}

    def cut(self) -> None:
        def close_all() -> None:
            self.up = False
            for w in list(self._writers):
                w.transport.abort()  # at once, nothing more sent: the network is gone

        self._loop.call_soon_threadsafe(close_all)

    def restore(self) -> None:
        self._loop.call_soon_threadsafe(setattr, self, "up", True)

    def close(self) -> None:
        async def stop() -> None:
            self._server.close()
            for w in list(self._writers):
                w.transport.abort()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


def _shown(tab: Tab, text: str, timeout: float = 25_000) -> None:
    """`text` is one whole text on the screen (not part of a longer one)."""
    tab.page.get_by_text(text, exact=True).first.wait_for(timeout=timeout)


def _banner(tab: Tab) -> str:
    return str(tab.page.evaluate("document.documentElement.dataset.connection || ''"))


@pytest.mark.parametrize("catch_up", [
    False,
    True,
], ids=["says-reconnecting", "catches-up"])
def test_a_follower_that_loses_the_wifi_says_so_and_catches_up_without_a_reload(tmp_path, playwright_instance,  # noqa: F811
                                                                                catch_up):
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        link = Link(int(url.rsplit(":", 1)[1]))
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.click("Start game")
            _shown(ref, "Ann to play")
            ref.page.wait_for_url(re.compile(r"/table/[0-9a-f]+$"), timeout=25_000)
            table = ref.page.url.rsplit("/", 1)[1]
            # The follower reaches the app through the link that will be cut.
            fol = new_tab(browser, f"http://127.0.0.1:{link.port}/table/{table}")
            _shown(fol, "Watching (read-only)")
            _shown(fol, "Ann to play")
            assert _banner(fol) == "connected"
            fol.page.evaluate("window.stillTheSamePage = true")  # a reload would lose it
            link.cut()
            fol.page.wait_for_function("document.documentElement.dataset.connection === 'reconnecting'",
                                       timeout=10_000)
            banner = fol.page.get_by_role("status")
            assert "Reconnecting" in banner.inner_text()
            assert banner.is_visible()
            # While the follower is away the game moves on: Ann plays CAT through the centre (10 points), Bob
            # and Ann pass. (Four scoreless turns in a row would end the game.)
            ref.fill("Word", "CAT")
            ref.fill("Square", "H8")
            ref.click("Across")
            ref.click("Check")
            ref.text("CAT 10 = 10 points", place="play-score")
            ref.click("Confirm play")
            _shown(ref, "Bob to play")
            ref.page.get_by_text("10 pts").first.wait_for(timeout=25_000)  # in Ann's chip: "Ann 10 pts"
            ref.click("Pass")
            _shown(ref, "Ann to play")
            ref.click("Pass")
            _shown(ref, "Bob to play")
            fol.page.wait_for_timeout(3000)
            assert _banner(fol) == "reconnecting"
            # It heard nothing meanwhile.
            assert fol.page.get_by_text("Bob to play", exact=True).count() == 0
            assert fol.page.get_by_text("10 pts").count() == 0
            if not catch_up:
                fol.shot("join-follower-reconnecting-360")
                return
            link.restore()
            t0 = time.monotonic()
            # Flet's client reconnects by itself to its session; the follower then shows the game as it is.
            _shown(fol, "Bob to play", timeout=60_000)
            fol.page.get_by_text("10 pts").first.wait_for(timeout=10_000)
            fol.page.wait_for_function("document.documentElement.dataset.connection === 'connected'",
                                       timeout=10_000)
            caught_up = time.monotonic() - t0
            assert fol.page.evaluate("window.stillTheSamePage === true"), "the follower's page was reloaded"
            assert not fol.page.get_by_role("status").is_visible()
            _shown(fol, "Watching (read-only)")
            # And it follows live again: the next change arrives as any other.
            ref.click("Pass")
            _shown(ref, "Ann to play")
            _shown(fol, "Ann to play")
            print(f"caught up {caught_up:.1f} s after the link came back")
            # Opened again in the same tab (a reload: the browser keeps the session id, nothing is drawn
            # yet): the whole page comes, not only the page's own properties.
            fol.open()
            _shown(fol, "Watching (read-only)")
            _shown(fol, "Ann to play")
        except Exception:
            failure_shot(ref, "join-reconnect-ref")
            if "fol" in locals():
                failure_shot(fol, "join-reconnect-follower")
            raise
        finally:
            link.close()
    browser.close()


def _fetch_json(page: Any, url: str) -> Any:
    return json.loads(page.request.get(url).text())


def test_the_app_can_be_added_to_a_phones_home_screen(tmp_path, playwright_instance):  # noqa: F811
    import cv2
    import numpy as np

    with app_server(tmp_path) as url:
        # A profile on disk: Chromium says an incognito page (Playwright's default context) is never
        # installable, whatever it serves.
        context = playwright_instance.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=BASE_ARGS, viewport=PHONE)
        try:
            page = context.pages[0] if context.pages else context.new_page()
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url))
            tab = Tab(page, url)
            tab.open()
            tab.button("New game").first.wait_for(timeout=25_000)
            page.wait_for_timeout(1500)
            # Nothing is fetched from anywhere but the table's machine (the Flet client's Rive plugin
            # fetched its runtime from cdn.jsdelivr.net: client.NO_CDN_SCRIPT keeps it off the page).
            outside = [u for u in asked if not u.startswith((url, "blob:", "data:"))]
            assert outside == [], outside
            # The page links its manifest; the manifest names the app with its own icons and colours.
            link = page.locator('link[rel="manifest"]')
            assert link.count() == 1
            href = link.get_attribute("href")
            assert href and href.startswith("/client/")
            response = page.request.get(url + href)
            assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
            manifest = response.json()
            assert manifest["name"] == "Table referee" and manifest["short_name"] == "Referee"
            assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
            assert re.fullmatch(r"#[0-9A-F]{6}", manifest["theme_color"])
            # (Flutter adds its own theme-color tag later, from the app's colour scheme.)
            assert page.locator('meta[name="theme-color"]').first.get_attribute("content") == manifest["theme_color"]
            assert page.title() == "Table referee"
            sizes = set()
            for icon in manifest["icons"]:
                got = page.request.get(url + icon["src"])
                assert got.ok and got.headers["content-type"] == "image/png"
                image = cv2.imdecode(np.frombuffer(got.body(), np.uint8), cv2.IMREAD_UNCHANGED)
                w, h = (int(x) for x in icon["sizes"].split("x"))
                assert image.shape[:2] == (h, w), icon
                assert float(image[..., :3].std()) > 20, "an icon with nothing drawn on it"
                sizes.add((w, icon.get("purpose", "any")))
            assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= sizes
            # Chromium's own verdict, as when it offers "Install app" / "Add to Home screen".
            cdp = context.new_cdp_session(page)
            parsed = cdp.send("Page.getAppManifest")
            assert parsed["url"] == url + href and parsed["errors"] == [], parsed["errors"]
            deadline = time.monotonic() + 20
            while (errors := cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]) and \
                    time.monotonic() < deadline:
                page.wait_for_timeout(500)  # the icons are still being fetched and checked
            assert errors == [], errors
        finally:
            context.close()


def _ink(png: bytes, box: dict[str, float], page_box: dict[str, float]) -> Any:
    """The screenshot region of `box` (CSS pixels, relative to the page) as a grey image."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    scale = image.shape[1] / page_box["width"]
    x0, y0 = int(box["x"] * scale), int(box["y"] * scale)
    return image[y0:y0 + int(box["height"] * scale), x0:x0 + int(box["width"] * scale)]


def test_the_icons_still_draw_from_the_cut_down_icon_font(tmp_path, playwright_instance):  # noqa: F811
    """The served icon font holds a few dozen icons (`companion.ui.icon_font`): a button's icon the app
    names (the turn screen's "Upload photo", `Icons.UPLOAD_FILE`, white on the filled button) is drawn,
    not left out. Checked on the screenshot: left of the label, where the icon sits, there is as much
    white ink as a glyph puts there, and none on a plain part of the button."""
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        tab = new_tab(browser, url)
        try:
            tab.click("New game")
            tab.click("Classic Scrabble")
            tab.click("Start game")
            _shown(tab, "Ann to play")
            button = tab.button("Upload photo").first
            button.wait_for(timeout=25_000)
            tab.page.wait_for_timeout(1000)
            box = button.bounding_box()
            assert box and box["width"] > 60, box
            png = tab.page.screenshot()
            region = _ink(png, box, {"width": PHONE["width"]})
            h, w = region.shape
            # FilledButton.icon: 16 px of padding, the 18 px icon, 8 px, then the label.
            icon = region[h // 4: 3 * h // 4, int(w * 0.02): 16 + 18 + 6]
            white = float((icon > 200).mean())
            edge = region[h // 4: 3 * h // 4, -12:-4]  # the button's right end: its colour only
            tab.shot("join-icon-upload-photo")
            assert float((edge > 200).mean()) < 0.02, "the button is not where its semantics node says"
            assert 0.08 < white < 0.6, f"white ink where the icon is: {white:.0%}"
        except Exception:
            failure_shot(tab, "join-icon")
            raise
    browser.close()


@pytest.mark.parametrize("lost", ["session-expired", "server-restarted"])
def test_a_referee_whose_session_the_server_dropped_gets_the_referees_seat_back(tmp_path, playwright_instance,  # noqa: F811
                                                                                 lost):
    """The referee's tab is away longer than the server keeps a session (FLET_SESSION_TIMEOUT, 2 s here,
    evicted within the next 10 s), or the server restarts: the tab comes back on a new session, and is the
    referee again (its turn controls, a change it makes counts), while a follower's tab that went through
    the same comes back watching, and a new tab is not offered the game without the PIN."""
    browser = launch(playwright_instance)
    port = free_port()
    env = {"FLET_SESSION_TIMEOUT": "2"}
    server = app_server(tmp_path, env=env, port=port)
    url = server.__enter__()
    link = Link(port) if lost == "session-expired" else None
    through = f"http://127.0.0.1:{link.port}" if link else url
    ref = new_tab(browser, through)
    try:
        ref.click("New game")
        ref.click("Classic Scrabble")
        ref.fill("Referee PIN (optional)", "2468")
        ref.click("Start game")
        _shown(ref, "Ann to play")
        ref.page.wait_for_url(re.compile(r"/table/[0-9a-f]+$"), timeout=25_000)
        table = ref.page.url.rsplit("/", 1)[1]
        fol = new_tab(browser, f"{through}/table/{table}")
        _shown(fol, "Watching (read-only)")
        before = (ref.session_id(), fol.session_id())
        assert all(before), before
        if link:
            link.cut()
            ref.page.wait_for_timeout(14_000)  # the server notices, keeps the sessions 2 s, evicts them
            link.restore()
        else:
            server.__exit__(None, None, None)
            server = app_server(tmp_path, env=env, port=port)
            server.__enter__()
        # Both tabs reconnect by themselves, each on a new session (the server no longer had theirs).
        ref.page.wait_for_function(f"Object.values(sessionStorage).every(v => v !== {before[0]!r})",
                                   timeout=60_000)
        ref.page.wait_for_function("document.documentElement.dataset.connection === 'connected'", timeout=30_000)
        assert ref.session_id() not in ("", before[0])
        # The referee's controls, and a change the referee makes counts.
        ref.button("Pass").first.wait_for(timeout=25_000)
        assert ref.find("Watching (read-only)").count() == 0
        ref.click("Pass")
        _shown(ref, "Bob to play")
        # The follower is still a follower, and sees the change.
        fol.page.wait_for_function(f"Object.values(sessionStorage).every(v => v !== {before[1]!r})",
                                   timeout=60_000)
        _shown(fol, "Bob to play")
        _shown(fol, "Watching (read-only)")
        assert fol.button("Pass").count() == 0
        # A new tab (a phone that scanned the table's code) watches; "Referee this game" wants the PIN.
        other = new_tab(browser, f"{through}/table/{table}")
        _shown(other, "Watching (read-only)")
        other.click("Referee this game")
        other.text("That PIN is not the referee's PIN.", place="error", contains=True)
        assert other.button("Pass").count() == 0
    except Exception:
        failure_shot(ref, f"join-seat-{lost}-ref")
        if "fol" in locals():
            failure_shot(fol, f"join-seat-{lost}-follower")
        raise
    finally:
        if link:
            link.close()
        server.__exit__(None, None, None)
        browser.close()
