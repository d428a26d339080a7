"""How a phone's visit starts (`companion.ui.client`, `docs/phone-boot.md`), checked against the real app:
the page carries Flutter's loader instead of fetching it, names the fonts Flutter loads at start so they
arrive with the wasm, and serves the wasm as Chromium needs it to compile while it streams and to keep the
compiled code; a new recipe takes the brotli copies an older one made of the same bytes. The browser test
checks in real Chromium that each preloaded file is the one Flutter uses (asked for once, not twice)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser.harness import app_server


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def _web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    with app_server(tmp_path_factory.mktemp("boot")) as url:
        yield url


def _page(app: str) -> str:
    return _get(app + "/")[2].decode()


def test_the_page_carries_flutters_loader_and_fetches_no_script(app):
    """Fetched, flutter_bootstrap.js was one more round trip before any wasm was asked for."""
    page = _page(app)
    assert "<script src=" not in page, "every script of the page is written into it"
    from companion.ui.client import light_renderer

    for name in ("flutter_bootstrap.js", "python.js"):
        source = (_web_dir() / name).read_text(encoding="utf-8")
        source = re.sub(r"^//# sourceMappingURL=.*$", "", source, flags=re.MULTILINE).strip()
        if name == "flutter_bootstrap.js":
            # The one change: the heavy renderer only for a browser without Chromium's break iterators,
            # not for every page without ImageDecoder (the browser test on plain HTTP checks the effect).
            assert 'hasImageCodecs||' in source and light_renderer(source) != source
            source = light_renderer(source)
            assert 'hasImageCodecs||' not in source and '"skwasm_heavy"' in source
        assert source in page, f"{name} is in the page as flet-web ships it"
    # Flet's settings come before the loader that reads them, and the loader before the end of the page.
    assert page.index("var flet = {") < page.index("_flutter.buildConfig") < page.index("</body>")


def test_the_fonts_flutter_loads_at_start_are_preloaded_as_flutter_fetches_them(app):
    page = _page(app)
    base = re.search(r'flet\.assetBase="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    links = re.findall(r"<link rel=\"preload\"[^>]*>", page)
    hrefs = [re.search(r'href="([^"]+)"', link).group(1) for link in links]  # type: ignore[union-attr]
    # Exactly the manifest and the fonts it lists (Flutter loads every family in it at start).
    status, _, manifest = _get(app + base + "assets/FontManifest.json")
    assert status == 200
    fonts = [f["asset"] for family in json.loads(manifest) for f in family["fonts"]]
    assert "fonts/roboto.woff2" in fonts and "fonts/MaterialIcons-Regular.otf" in fonts
    assert sorted(hrefs) == sorted(f"{base}assets/{a}" for a in ["FontManifest.json", *fonts])
    for link, href in zip(links, hrefs, strict=True):
        # as=fetch + crossorigin: the mode and credentials of Flutter's fetch(), so the response is reused.
        assert 'as="fetch"' in link and " crossorigin" in link, link
        status, headers, _ = _get(app + href)
        assert status == 200 and headers["cache-control"] == "public, max-age=31536000, immutable", href


@pytest.mark.parametrize("name", ["main.dart.wasm", "canvaskit/skwasm.wasm", "canvaskit/skwasm_heavy.wasm",
                                  "canvaskit/canvaskit.wasm"])
def test_the_wasm_is_served_so_chromium_compiles_it_as_it_streams_and_may_keep_the_code(app, name):
    """`WebAssembly.compileStreaming` refuses any other type than application/wasm (Flutter then fetches
    the whole file before compiling it); Chromium keeps compiled wasm only for a response its HTTP cache
    may store (no `no-store`, a validator), keyed by its URL, which here changes with the contents."""
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', _page(app)).group(1)  # type: ignore[union-attr]
    status, headers, body = _get(app + base + name, {"Accept-Encoding": "gzip, deflate"})
    assert status == 200
    assert headers["content-type"] == "application/wasm", "exactly: a charset or another type breaks streaming"
    assert headers["cache-control"] == "public, max-age=31536000, immutable" and "no-store" not in headers["cache-control"]
    assert headers["etag"] and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (_web_dir() / name).read_bytes()


def test_a_new_recipe_takes_the_brotli_copies_an_older_one_made(tmp_path):
    """Raising RECIPE used to cost minutes of CPU per large file on every machine (quality 11)."""
    brotli = pytest.importorskip("brotli")
    from companion.ui.client import BROTLI_READY, Client

    data = b"(module) " * 40_000
    older, newer = tmp_path / "older", tmp_path / "newer"
    made_before = brotli.compress(data, quality=5)  # any valid copy: taken as it is, not made again
    for folder in (older, newer):
        (folder / "files").mkdir(parents=True)
        (folder / "files" / "main.dart.wasm").write_bytes(data)
        etag = hashlib.sha256(data).hexdigest()[:20]
        (folder / "ready.json").write_text(json.dumps({"version": "x", "files": {"main.dart.wasm": {"etag": etag,
                                                                                                  "gz": True}}}))
    (older / "files" / "main.dart.wasm.br").write_bytes(made_before)
    (older / BROTLI_READY).write_text(json.dumps({"files": ["main.dart.wasm"], "done": True}))
    client = Client.__new__(Client)
    client.folder = newer
    assert client._brotli_made_before("main.dart.wasm", data, brotli) == made_before
    # Other bytes under the same name (another flet-web) are not taken, nor a copy not listed as made.
    assert client._brotli_made_before("main.dart.wasm", data + b" ", brotli) is None
    (older / BROTLI_READY).write_text(json.dumps({"files": [], "done": False}))
    assert client._brotli_made_before("main.dart.wasm", data, brotli) is None


@pytest.mark.browser
def test_chromium_uses_each_preloaded_font_and_fetches_no_script(app):
    """In a real browser: the page's preloads are the responses Flutter uses (each file asked for once),
    and neither flutter_bootstrap.js nor python.js is requested."""
    from browser.harness import block_outside, launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            block_outside(context)
            page = context.new_page()
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url.split("?")[0]))
            page.goto(app + "/")
            page.locator("flt-semantics-placeholder").wait_for(state="attached", timeout=60_000)
            page.locator("flt-semantics-placeholder").dispatch_event("click")
            page.get_by_role("button", name="New game", exact=True).first.wait_for(timeout=60_000)
            page.wait_for_timeout(500)
        finally:
            browser.close()
    names = [url.rsplit("/", 1)[-1] for url in asked]
    for name in ("FontManifest.json", "roboto.woff2", "MaterialIcons-Regular.otf", "main.dart.wasm"):
        assert names.count(name) == 1, f"{name} asked for {names.count(name)} times: {names}"
    assert "flutter_bootstrap.js" not in names and "python.js" not in names, names


def test_the_page_keeps_the_client_in_a_cache_named_after_its_version(app):
    """Over HTTPS with the self-signed certificate the HTTP cache keeps nothing; the page's script answers
    the client's fetches from Cache Storage instead, in a cache of this version only."""
    page = _page(app)
    base = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    version = base.strip("/").rsplit("/", 1)[-1]
    assert f"const base = '{base}', name = 'table-referee-client-{version}'" in page
    # Installed before Flutter's loader runs (the loader fetches the wasm as soon as it runs).
    assert page.index("window.fetch = async function") < page.index("_flutter.loader.load(")


# How many of the two wasm files the page's Cache Storage holds whole (evaluated in the page; awaited).
WHOLE_COPIES = """async () => {
    let whole = 0;
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const kept = await cache.match(request);
            const size = kept ? (await kept.arrayBuffer()).byteLength : 0;
            if (/[/](main[.]dart|skwasm)[.]wasm$/.test(request.url) && size > 1000000) whole += 1;
        }
    }
    return whole;
}"""


@pytest.mark.browser
def test_a_second_visit_over_https_with_the_self_signed_certificate_downloads_no_wasm(tmp_path):
    """Chromium's HTTP cache is off for a site whose certificate error was accepted: before the page's
    Cache Storage, a phone on `--https` downloaded the 3.4 MB client again on every visit."""
    from browser.harness import block_outside, launch
    from playwright.sync_api import sync_playwright

    with app_server(tmp_path, extra=["--https"], scheme="https") as url, sync_playwright() as p:
        browser = launch(p)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, ignore_https_errors=True)
            block_outside(context)
            asked: list[list[str]] = []
            for _visit in range(2):
                page = context.new_page()
                names: list[str] = []
                page.on("request", lambda r, names=names: names.append(r.url.split("?")[0].rsplit("/", 1)[-1]))
                page.goto(url + "/")
                page.locator("flt-semantics-placeholder").wait_for(state="attached", timeout=60_000)
                page.locator("flt-semantics-placeholder").dispatch_event("click")
                page.get_by_role("button", name="New game", exact=True).first.wait_for(timeout=60_000)
                # The copies are written once the app has drawn (client.CLIENT_CACHE_SCRIPT): wait for them.
                # (A copy is listed while it is still being written: wait until both read back whole.)
                for _second in range(60):
                    if page.evaluate(WHOLE_COPIES) == 2:
                        break
                    page.wait_for_timeout(500)
                asked.append(names)
                page.close()
        finally:
            browser.close()
    first, second = asked
    assert "main.dart.wasm" in first and "skwasm.wasm" in first, first
    assert "main.dart.wasm" not in second and "skwasm.wasm" not in second, second


def test_the_app_draws_no_raster_picture_that_a_phone_on_plain_http_could_not_decode():
    """Phones on the Wi-Fi get the light renderer, which has no image codecs of its own, on a page where the
    browser lends it none (no ImageDecoder outside a secure context: `client.light_renderer`). So the app's
    screens draw no raster picture (the QR code is shapes); a control that decodes one would show nothing
    on those phones. Use shapes or icons, or make `light_renderer` keep the heavy build."""
    root = Path(__file__).resolve().parents[1] / "companion"
    decoding = re.compile(r"\bft\.(Image|DecorationImage)\(|\bcv\.Image\(|\bimage_src\b|\bbackground_image\b")
    found = [f"{path.relative_to(root.parent)}:{n}" for path in sorted(root.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if decoding.search(line)]
    assert found == [], f"raster pictures on the app's screens: {found}"
