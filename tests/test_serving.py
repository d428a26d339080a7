"""How the app serves its web client (`companion.ui.client`), checked over HTTP against the real app:
compressed when the browser accepts it, byte for byte flet-web's files once decompressed, versioned files
cached for a year and the page revalidated (a 304 when unchanged), app addresses served the page, and the
files this app never uses not served at all."""

from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser.harness import app_server


def _web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    with app_server(tmp_path_factory.mktemp("serving")) as url:
        yield url


def test_the_page_is_revalidated_and_app_addresses_are_the_page(app):
    status, headers, page = _get(app + "/", {"Accept-Encoding": "gzip, deflate"})
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["cache-control"] == "no-cache"
    html = gzip.decompress(page)
    assert b"<title>Table referee</title>" in html
    status, again, _ = _get(app + "/", {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
    assert status == 304 and again["etag"] == headers["etag"]
    # A table's address (what a QR code holds) is the same page; Flutter's router shows the table.
    status, headers, same = _get(app + "/table/0123abcd")
    assert status == 200 and same == html and headers["content-type"].startswith("text/html")
    # A file that does not exist is a 404, not the page.
    assert _get(app + "/no-such-file.js")[0] == 404


def test_the_client_is_compressed_versioned_and_identical_to_flet_webs(app):
    page = _get(app + "/")[2].decode()
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(r"/client/[0-9a-f]{12}/", base)
    for name, media in (("main.dart.wasm", "application/wasm"), ("main.dart.js", "text/javascript"),
                        ("canvaskit/skwasm.wasm", "application/wasm"),
                        ("assets/fonts/MaterialIcons-Regular.otf", "font/otf")):
        original = (_web_dir() / name).read_bytes()
        status, headers, body = _get(app + base + name, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip", name
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        assert headers["content-type"].startswith(media) and headers["vary"] == "Accept-Encoding"
        assert gzip.decompress(body) == original, name
        assert len(body) < 0.6 * len(original), f"{name}: {len(body)} of {len(original)} bytes"
        # A browser that does not accept gzip gets the file itself.
        status, headers, body = _get(app + base + name)
        assert status == 200 and "content-encoding" not in headers and body == original
    # A tab opened before an upgrade asks for its version's files: it gets today's, not cached for long.
    status, headers, _ = _get(app + "/client/000000000000/main.dart.mjs")
    assert status == 200 and headers["cache-control"] == "no-cache"
    # Every file the page names is there.
    for ref in re.findall(r'(?:src|href)="(/client/[^"]+)"', page):
        assert _get(app + ref)[0] == 200, ref


def test_only_what_the_app_uses_is_served(app):
    page = _get(app + "/")[2].decode()
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    for unused in ("pyodide/pyodide.asm.wasm", "canvaskit/skwasm.js.symbols", "flutter.js.map",
                   "assets/packages/flutter_math_fork/lib/katex_fonts/fonts/KaTeX_Main-Regular.ttf",
                   "assets/packages/cupertino_icons/assets/CupertinoIcons.ttf"):
        assert (_web_dir() / unused).exists(), f"flet-web no longer ships {unused}: update the test"
        assert _get(app + base + unused)[0] == 404, unused
        assert _get(app + "/" + unused)[0] == 404, unused
    fonts = json.loads(_get(app + base + "assets/FontManifest.json")[2])
    families = {f["family"] for f in fonts}
    assert families == {"MaterialIcons", "Roboto"}, families
    # The renderers a phone may need stay: wasm + skwasm (Chromium), JavaScript + CanvasKit (Safari, Firefox).
    for needed in ("main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm",
                   "canvaskit/chromium/canvaskit.wasm", "canvaskit/skwasm_heavy.wasm"):
        assert _get(app + base + needed)[0] == 200, needed


# -- a tab coming back to its session (companion.ui.client.SessionResume) ----------------------------------
def _frame(message: list) -> bytes:
    import msgpack

    return b"\x00" + msgpack.packb(message, use_bin_type=True)


def _message(frame: bytes) -> list:
    import msgpack

    assert frame[:1] == b"\x00"
    return msgpack.unpackb(frame[1:], raw=False, strict_map_key=False)


def _ids(value) -> set[int]:
    """Every control id in a decoded message."""
    if isinstance(value, dict):
        own = {value["_i"]} if "_c" in value and "_i" in value else set()
        return own.union(*(_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_ids(v) for v in value))
    return set()


def _visit(ws_url: str, session_id: str, seconds: float) -> list[list]:
    """Register as Flet's web client does (the session id it kept, the page's size and route) and collect
    what the app sends for `seconds`."""
    import asyncio

    import websockets

    async def run() -> list[list]:
        got: list[list] = []
        await asyncio.sleep(0.5)  # the app has seen the previous visit's connection close
        async with websockets.connect(ws_url, max_size=None) as ws:
            page = {"route": "/", "web": True, "pwa": False, "wasm": True, "debug": False, "multi_view": False,
                    "platform_brightness": "light", "width": 360.0, "height": 800.0, "platform": "android"}
            await ws.send(_frame([1, {"session_id": session_id, "page_name": "", "page": page}]))
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            while (left := end - loop.time()) > 0:
                try:
                    got.append(_message(await asyncio.wait_for(ws.recv(), left)))
                except TimeoutError:
                    break
        return got

    return asyncio.run(run())


def test_a_tab_back_on_its_session_keeps_its_page_and_gets_its_screen_drawn_anew(app):
    """Flet answers a resumed session with its whole page, ids unchanged, which froze flet-web 1.0.5 in a
    comparison that doubles with each level of the tree (the reconnect browser test). To a page that
    lost its connection the answer keeps the page's own properties only, and the screen is then sent as
    new controls (new ids); a reloaded tab, which has nothing drawn, still gets the whole page."""
    ws = app.replace("http://", "ws://") + "/ws"
    first = _visit(ws, "", 6)
    register = first[0]
    assert register[0] == 1 and not register[1]["error"]
    session = register[1]["session_id"]
    assert session
    drawn = _ids(first[1:])
    assert len(drawn) >= 10, "the home screen was drawn"  # the App's controls, after main() ran

    # A reloaded tab (its session id kept by the browser, nothing drawn yet) gets the whole page.
    reloaded = _visit(ws, session, 3)[0]
    assert reloaded[1]["session_id"] == session and "views" in reloaded[1]["page_patch"]
    # A page whose connection dropped says so when it comes back (client.RECONNECT_SCRIPT).
    back = _visit(ws + "?resume=1", session, 6)
    answer = back[0]
    assert answer[0] == 1 and answer[1]["session_id"] == session, "the same session, resumed"
    page = answer[1]["page_patch"]
    assert page["_c"] == "Page" and page["_i"] == 1
    assert "views" not in page and _ids(page) == {1}, "the resumed page without its controls"
    redrawn = _ids(back[1:])
    assert len(redrawn) >= len(drawn) - 2, "the screen was sent again"
    assert not (redrawn - {1, 2}) & drawn, "as new controls (new ids), not copies of the old ones"

    # A new tab (no session kept) still gets Flet's answer as it is.
    other = _visit(ws, "", 2)[0]
    assert other[1]["session_id"] != session and "_c" in other[1]["page_patch"]
