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
                        ("canvaskit/skwasm.wasm", "application/wasm"), ("canvaskit/canvaskit.wasm", "application/wasm")):
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


def test_a_browser_that_offers_brotli_gets_it_and_the_others_gzip(app):
    """Brotli copies (quality 11) are made once in the background after the client is prepared; from then
    on a request offering `br` (Chromium over HTTPS) gets them, a quarter smaller than gzip for the wasm."""
    import time

    import brotli

    page = _get(app + "/")[2].decode()
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    # A first start on a fresh machine: the small files take seconds, the two large files of Chromium's
    # build (made first) one to three minutes of CPU at low priority on this shared machine.
    deadline = time.monotonic() + 900
    for name in ("main.dart.mjs", "canvaskit/skwasm.wasm", "main.dart.wasm"):
        while _get(app + base + name, {"Accept-Encoding": "br"})[1].get("content-encoding") != "br":
            assert time.monotonic() < deadline, f"no brotli copy of {name} 15 minutes after the app started"
            time.sleep(2)
    for name in ("main.dart.wasm", "canvaskit/skwasm.wasm"):
        original = (_web_dir() / name).read_bytes()
        status, headers, body = _get(app + base + name, {"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert status == 200 and headers["content-encoding"] == "br", name
        assert headers["etag"].endswith('-br"') and headers["vary"] == "Accept-Encoding"
        assert brotli.decompress(body) == original, name
        gzipped = _get(app + base + name, {"Accept-Encoding": "gzip, deflate"})
        assert gzipped[1]["content-encoding"] == "gzip" and gzipped[1]["etag"] != headers["etag"]
        assert len(body) < 0.8 * len(gzipped[2]), f"{name}: brotli {len(body)}, gzip {len(gzipped[2])} bytes"
        # Revalidated by its own tag.
        assert _get(app + base + name, {"Accept-Encoding": "br", "If-None-Match": headers["etag"]})[0] == 304
    status, headers, html = _get(app + "/", {"Accept-Encoding": "br"})
    assert headers["content-encoding"] == "br" and b"<title>Table referee</title>" in brotli.decompress(html)
    # "br;q=0" is a refusal.
    assert _get(app + base + "main.dart.mjs", {"Accept-Encoding": "br;q=0, gzip"})[1]["content-encoding"] == "gzip"


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


# -- the icon font (companion.ui.icon_font) -------------------------------------------------------------------
def _icons_named_in_code() -> dict[str, list[str]]:
    """Every `<...>.Icons.<NAME>` attribute in the app's code, read with Python's parser (not the regular
    expression the app scans with), with where it is."""
    import ast

    from companion.ui.icon_font import APP_SOURCE

    found: dict[str, list[str]] = {}
    for path in sorted(APP_SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and (
                    (isinstance(node.value, ast.Attribute) and node.value.attr == "Icons")
                    or (isinstance(node.value, ast.Name) and node.value.id == "Icons")):
                found.setdefault(node.attr, []).append(f"{path.relative_to(APP_SOURCE.parent)}:{node.lineno}")
    return found


def _font(body: bytes):
    import io

    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(body))


def test_the_served_icon_font_draws_every_icon_the_code_names(app):
    """The phones get a font of a few dozen icons, not 8,623; every icon the code names is in it, as the
    glyph of the whole font at the codepoint the client's table gives that name."""
    from companion.ui.icon_font import FONT, client_icon_codepoints, flet_icon_indexes

    page = _get(app + "/")[2].decode()
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    status, headers, body = _get(app + base + FONT)
    assert status == 200 and headers["content-type"].startswith("font/otf")
    whole_body = (_web_dir() / FONT).read_bytes()
    assert len(body) < 20_000 and len(whole_body) > 1_000_000, (len(body), len(whole_body))
    served, whole = _font(body).getBestCmap(), _font(whole_body).getBestCmap()
    indexes = flet_icon_indexes()
    found = client_icon_codepoints((_web_dir() / "main.dart.js").read_text(encoding="utf-8"), len(indexes))
    assert found is not None, "the client's icon table was not found: the font is served whole"
    table, widget_icons = found
    named = _icons_named_in_code()
    assert {"UNDO", "ADD", "STAR"} <= set(named), sorted(named)  # the scan sees the code's icons
    for name, where in named.items():
        assert name in indexes, f"{name} ({where[0]}) is not a Flet icon"
        codepoint = table[indexes[name]]
        assert served.get(codepoint) == whole[codepoint], f"{name} ({where[0]}) is not in the served icon font"
    # Flutter's own widgets' icons are kept too (a dropdown's arrow, a date picker's chevrons, a close cross).
    for glyph in ("arrow_drop_down_baseline", "chevron_left_baseline", "close_baseline", "arrow_back_baseline"):
        assert glyph in served.values(), glyph
    assert set(served) >= widget_icons and len(served) < 100


def test_the_icon_table_is_read_right():
    """The client's table, read from main.dart.js, gives each Flet name the glyph of that name in the font
    (the font names its glyphs `add_baseline`, `add_outlined`...): for every icon the app uses, and for
    all but Flutter's renamed aliases (`airplanemode_off` is the glyph `airplanemode_inactive`) of the
    8,825."""
    from fontTools.ttLib import TTFont

    from companion.ui.icon_font import FONT, client_icon_codepoints, flet_icon_indexes

    indexes = flet_icon_indexes()
    found = client_icon_codepoints((_web_dir() / "main.dart.js").read_text(encoding="utf-8"), len(indexes))
    assert found is not None
    table, _ = found
    glyphs = TTFont(_web_dir() / FONT).getBestCmap()

    def glyph_of(name: str) -> str | None:
        return glyphs.get(table[indexes[name]])

    def expected(name: str) -> str:
        low = name.lower()
        return low if low.endswith(("_outlined", "_rounded", "_sharp")) else low + "_baseline"

    for name in _icons_named_in_code():
        assert glyph_of(name) == expected(name), name
    same = sum(glyph_of(n) == expected(n) for n in indexes)
    assert same > 0.94 * len(indexes), f"{same} of {len(indexes)}"


def test_the_code_names_no_icon_the_scan_cannot_see():
    """The font keeps the icons the code names as `Icons.<NAME>`; an icon chosen at run time
    (`ft.Icons[name]`, `getattr(ft.Icons, ...)`, `ft.Icons(value)`) would be missing from it: such an icon
    goes in `icon_font.EXTRA_ICONS`."""
    from companion.ui.icon_font import APP_SOURCE, EXTRA_ICONS, app_icon_names

    computed = re.compile(r"\bIcons\s*[\[(]|getattr\(\s*(?:ft\.)?Icons\b|IconData\(")
    uses = [f"{p.relative_to(APP_SOURCE.parent)}:{n}" for p in sorted(APP_SOURCE.rglob("*.py"))
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if computed.search(line) and not line.lstrip().startswith("#")]
    uses = [u for u in uses if not u.startswith("companion/ui/icon_font.py")]
    assert uses == [] or EXTRA_ICONS, f"icons chosen at run time: {uses}: list them in icon_font.EXTRA_ICONS"
    assert set(_icons_named_in_code()) <= app_icon_names(), "the app's scan misses an icon the code names"


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


def test_one_process_makes_the_brotli_copies_and_its_lock_ends_with_it(tmp_path):
    """Every app started on a machine before the copies exist (a test run starts dozens) would otherwise
    spend minutes of CPU each on the same files; a process stopped mid-way leaves no lock behind."""
    from companion.ui.client import Client

    first, second = Client.__new__(Client), Client.__new__(Client)
    first.folder = second.folder = tmp_path
    assert first._take_brotli_lock()
    assert not second._take_brotli_lock(), "a second process waits for the first one's copies"
    first._release_brotli_lock()  # as when its process ends
    assert second._take_brotli_lock()
    second._release_brotli_lock()
