"""The web client every phone downloads: prepared once, served compressed, cached by the phone.

Flet's own static server sends its Flutter client (flet-web) as it is on disk: 14.4 MB in 33 requests,
uncompressed, with no cache lifetime, so a phone on a 20 Mbit/s Wi-Fi waited 7 s to join and 4.5 s to
come back (`benchmarks/phone_join.py`). This module owns how that client reaches the phone:

- **Only what this app's client asks for.** Pyodide (Python in the browser), debug symbols and source
  maps, the experimental renderers, and the KaTeX and Cupertino fonts (the app shows no maths and no iOS
  icons: no `Markdown`/`Math` control, only `ft.Icons`; Flutter loads every family in `FontManifest.json`
  at start, so they are also taken out of that manifest) are not served. The Material icons font keeps
  only the icons the app's code names and Flutter's own widgets draw (`icon_font`: 1.3 MB -> 6 KB).
  Both renderer builds stay: Chromium-based browsers with WebAssembly GC (Chrome/Edge/Samsung Internet
  119+, Android's browsers) run `main.dart.wasm` with `skwasm`; Safari (every browser on an iPhone) and Firefox are not on Flutter's
  wasm allow-list and run `main.dart.js` with CanvasKit (`flutter_bootstrap.js` chooses). Chromium
  takes the light `skwasm` even on a plain-HTTP page, where it has no `ImageDecoder` (`light_renderer`:
  the app draws no raster picture, so `skwasm_heavy`'s image codecs are 0.75 MB that phone never needs).
- **Compressed once.** Each text or wasm file is gzipped when the client is prepared, and the prepared
  copy is kept in the data folder under a key of the flet-web version and this module's recipe, so a
  restart reuses it. A request whose `Accept-Encoding` allows gzip gets the `.gz` bytes with
  `Content-Encoding: gzip`. Browsers offer brotli (`br`) only to HTTPS pages, which is how a phone that
  takes the board photo joins (`--https`: the camera needs a secure context): for them each file also
  gets a brotli copy (quality 11, a quarter smaller than gzip for the wasm; made once in the background,
  `BROTLI_QUALITY`), served when offered.
- **Cached by the phone.** The client's files are served under `/client/<hash of their contents>/` with a
  one-year immutable lifetime; the page itself (`index.html`, and every app address such as
  `/table/<id>`, which are the same page) is revalidated on each visit (`no-cache` with an ETag: a
  `304` of a few hundred bytes), so a returning phone loads nothing else, and an upgraded app (a new
  hash) is seen on the next visit.

`ClientServer` is the ASGI app in front of Flet's: it answers every GET/HEAD (the client, the page, a 404
for anything else: Flet's own static server would hand out all of flet-web) and hands the rest (the
websocket, uploads, Flet's OAuth callback) to Flet.
"""

from __future__ import annotations

import contextlib
import contextvars
import gzip
import hashlib
import json
import logging
import mimetypes
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flet.controls.types import RouteUrlStrategy, WebRenderer
from flet_web import get_package_web_dir, patch_index_html
from starlette.responses import FileResponse, PlainTextResponse, Response

from companion.ui import icon_font
from lexicon.store import cache_dir

log = logging.getLogger(__name__)

APP_NAME = "Table referee"
SHORT_NAME = "Referee"
DESCRIPTION = "Referee for physical board games: scores, challenges, the bank, followed live on every phone."
# The app's colours (companion.ui.theme.PRIMARY; the page behind the canvas is white).
THEME_COLOR = "#1B5E20"
BACKGROUND_COLOR = "#FFFFFF"

PREFIX = "/client/"
# Raise when the preparation below (or `icon_font`'s) changes, so a kept copy of an older recipe is not
# reused.
RECIPE = 19
# Immutable files (their URL changes with their contents).
LONG_CACHE = "public, max-age=31536000, immutable"
# The page and unversioned addresses: kept, but asked about on every visit.
REVALIDATE = "no-cache"
# Flet's own server sends these on every response: with them a page served over HTTPS (or to localhost)
# is cross-origin isolated and skwasm draws on a worker thread.
ISOLATION = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}

# What flet-web ships that this app's client never requests.
SKIP_DIRS = ("pyodide/", "canvaskit/experimental_webparagraph/", "assets/packages/flutter_math_fork/",
             "assets/packages/cupertino_icons/")
SKIP_SUFFIXES = (".symbols", ".map")
SKIP_FILES = frozenset({"canvaskit/wimp.js", "canvaskit/wimp.wasm", "python-worker.js"})
SKIP_FONT_FAMILIES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
# Brotli's best quality, for the copies served to browsers that offer `br` (Chromium does over HTTPS).
# Measured on flet-web 1.0.5 (gzip -9 -> brotli 11): main.dart.wasm 2.80 -> 2.13 MB, skwasm.wasm 1.53 ->
# 1.21 MB, main.dart.js 2.55 -> 1.89 MB: a quarter less to download for a phone on HTTPS. It costs
# 40-130 s of CPU per large file on this shared machine (gzip -9: 2-12 s), hence made once, in the
# background (`Client._add_brotli`), and kept with the prepared client.
BROTLI_QUALITY = 11
BROTLI_READY = "brotli.json"
BROTLI_LOCK = "brotli.lock"  # one process makes the copies (an OS lock: freed when its process ends)
# The order the copies are made in: every small file (seconds in all), then the WebAssembly build that
# Chromium runs, then the JavaScript build Safari runs, then the rest.
BROTLI_FIRST = ("canvaskit/skwasm.wasm", "main.dart.wasm", "main.dart.js", "canvaskit/canvaskit.wasm")


def _brotli_order(rel: str, size: int) -> tuple[int, int]:
    if size < 300_000:
        return (0, size)
    return (1, BROTLI_FIRST.index(rel)) if rel in BROTLI_FIRST else (2, size)
# Worth gzipping: text and wasm (PNG, woff2 are compressed already; the icon font is not).
COMPRESS_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".html", ".otf", ".ttf", ".frag", ".bin", "NOTICES")
# Our own files, beside the package: the manifest's icons.
ICONS_DIR = Path(__file__).resolve().parent / "web"

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass(frozen=True)
class Entry:
    """One file to serve: where its bytes are, its gzipped and brotli copies if any, and its headers."""

    path: Path
    gz: Path | None
    media_type: str
    etag: str
    cache: str
    br: Path | None = None


def _wanted(rel: str) -> bool:
    return not (rel.startswith(SKIP_DIRS) or rel.endswith(SKIP_SUFFIXES) or rel in SKIP_FILES)


def _source_key(web_dir: Path, icon_names: frozenset[str]) -> str:
    """What the prepared copy depends on: this recipe, our icons, the Material icons the app's code names
    (the icon font keeps only those), and flet-web's files (names, sizes, times; reading 75 MB to hash it
    on every start is what the copy saves)."""
    renderer = os.environ.get("FLET_WEB_RENDERER", "")  # written into the page
    digest = hashlib.sha256(f"recipe {RECIPE} renderer {renderer} icons {sorted(icon_names)}".encode())
    for base in (web_dir, ICONS_DIR):
        for path in sorted(base.rglob("*")):
            if path.is_file():
                st = path.stat()
                digest.update(f"{path.relative_to(base)} {st.st_size} {st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _fonts(manifest: bytes) -> bytes:
    """Flutter's font manifest without the families this app never draws, with Flet's local Roboto."""
    families = [f for f in json.loads(manifest) if not str(f.get("family", "")).startswith(SKIP_FONT_FAMILIES)]
    if not any(f.get("family") == "Roboto" for f in families):
        families.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return json.dumps(families).encode()


def manifest(base: str) -> dict[str, Any]:
    """The web app manifest: the name, icons and colours a phone uses when the app is added to its home
    screen (`display: standalone`: it opens without the browser's bars)."""
    icons = [{"src": f"{base}icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": purpose}
             for size in (192, 512) for purpose in ("any",)]
    icons += [{"src": f"{base}icons/icon-maskable-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
               "purpose": "maskable"} for size in (192, 512)]
    return {"name": APP_NAME, "short_name": SHORT_NAME, "description": DESCRIPTION, "id": "/",
            "start_url": "/", "scope": "/", "display": "standalone", "orientation": "any",
            "background_color": BACKGROUND_COLOR, "theme_color": THEME_COLOR, "icons": icons,
            "prefer_related_applications": False}


# Shown over the page while a follower's connection is down: Flet's client retries by itself (every
# 0.5 s; `SessionResume` below keeps the page when it is back) but shows nothing to say so. The banner
# is plain DOM, so it shows even while Flutter waits; it watches the app's websocket (/ws) only.
RECONNECT_SCRIPT = """<script>
(() => {
  const Native = window.WebSocket;
  let open = 0, wasOpen = false, banner = null;
  const show = (on) => {
    if (!banner) {
      banner = document.createElement('div');
      banner.id = 'reconnecting';
      banner.setAttribute('role', 'status');
      banner.setAttribute('aria-live', 'polite');
      banner.textContent = 'Reconnecting\\u2026 the game catches up when the Wi-Fi is back.';
      banner.style.cssText = 'position:fixed;left:0;right:0;top:0;z-index:2147483647;padding:8px 12px;' +
        'font:15px Roboto,Arial,sans-serif;color:#fff;background:THEME;text-align:center;display:none';
      document.body.appendChild(banner);
    }
    banner.style.display = on ? 'block' : 'none';
    document.documentElement.dataset.connection = on ? 'reconnecting' : 'connected';
  };
  class WatchedSocket extends Native {
    constructor(url, protocols) {
      const address = new URL(String(url), location.href);
      const app = /\\/ws$/.test(address.pathname);
      // A page that had its connection and lost it says so: the server then keeps the page it shows
      // (SessionResume). A reloaded page starts empty and gets the whole page, as Flet sends it.
      if (app && wasOpen) address.searchParams.set('resume', '1');
      super(app ? address.href : url, protocols);
      if (!app) return;
      this.addEventListener('open', () => { open++; wasOpen = true; show(false); });
      this.addEventListener('close', () => { open = Math.max(0, open - 1); if (wasOpen && !open) show(true); });
    }
  }
  window.WebSocket = WatchedSocket;
  window.addEventListener('offline', () => { if (wasOpen) show(true); });
  window.addEventListener('online', () => { if (open) show(false); });
})();
</script>""".replace("THEME", THEME_COLOR)


# The Flet client's Rive plugin appends a <script> for its runtime from cdn.jsdelivr.net when the app
# starts, although this app shows no Rive animation: a phone with internet would fetch it (and its wasm)
# over the table's Wi-Fi while the others join, and every phone would tell a CDN it is here. Not
# appended, it behaves as on a Wi-Fi without internet (the plugin waits for a load that never comes; the
# app does not wait for it). (Preloading the wasm and fonts from the page was measured and dropped:
# `benchmarks/phone_join.py` showed no gain for one phone and four phones sharing a link 0.6-1.3 s slower.)
NO_CDN_SCRIPT = """<script>
(() => {
  const append = Element.prototype.append;
  Element.prototype.append = function (...nodes) {
    const kept = nodes.filter((n) => !(n instanceof HTMLScriptElement && /^https:[/][/]cdn[.]jsdelivr[.]net[/]npm[/]@rive-app[/]/.test(n.src)));
    return append.apply(this, kept);
  };
})();
</script>"""


# A phone that joins over HTTPS with the app's self-signed certificate (the camera needs a secure context)
# has no HTTP cache: Chromium keeps nothing from a site whose certificate error was accepted, so every
# visit downloaded the whole client again (3.4 MB, `benchmarks/phone_join.py --https`: 0 of 12 requests
# from the cache), and a service worker cannot be registered there either. The Cache Storage API does
# work on such a page (checked in Chromium: a response put by one tab is matched by the next). So on an
# HTTPS page this script answers the page's own `fetch()` of the versioned client (the wasm, the fonts,
# Flutter's manifests: what Flutter fetches; its two small scripts are module imports and go to the
# network) from a cache named after the client's version, filling it on the first visit, and deletes
# the caches of older versions. Over plain HTTP it does nothing (no `caches` there, and the HTTP cache
# works); with a trusted certificate it serves what the HTTP cache would.
CLIENT_CACHE_SCRIPT = """<script>
(() => {
  if (location.protocol !== 'https:' || !self.caches || !window.fetch) return;
  const base = 'BASE', name = 'table-referee-client-VERSION', own = 'table-referee-client-';
  const network = window.fetch.bind(window);
  let opened = null;
  const cache = () => (opened = opened || caches.open(name));
  // Each copy is written as its response arrives, beside the one Flutter compiles as it streams. (Held back
  // until after the first frame, the copies were lost whenever the tab closed a few seconds after joining:
  // `benchmarks/phone_join.py --https`, second visit 3.45 MB again; written at once, no first visit was
  // measurably slower: 2.82 vs 2.84 s at 20 Mbit/s.)
  const keep = (store, href, copy) => store.put(href, copy).catch(() => {});
  caches.keys().then((keys) => keys.filter((k) => k.startsWith(own) && k !== name).forEach((k) => caches.delete(k)))
    .catch(() => {});
  window.fetch = async function (input, init) {
    let url;
    try { url = new URL(input instanceof Request ? input.url : String(input), location.href); } catch (e) { url = null; }
    const method = ((init && init.method) || (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (!url || url.origin !== location.origin || !url.pathname.startsWith(base) || method !== 'GET') {
      return network(input, init);
    }
    try {
      const store = await cache();
      const kept = await store.match(url.href);
      if (kept) return kept;
      const response = await network(input, init);
      if (response.ok && response.status === 200) keep(store, url.href, response.clone());
      return response;
    } catch (e) {
      return network(input, init);
    }
  };
})();
</script>"""


# The page's two scripts, written into it rather than fetched. Each was a request the boot waited for:
# `python.js` (Flet's bridge to an in-browser Python: only its globals are used here) is a blocking script
# in the head, and `flutter_bootstrap.js` (Flutter's loader: it picks the wasm or the JavaScript build and
# starts fetching it) could start only once the page had arrived and asked for it, so every phone's
# download of the 4 MB client began one round trip later than it could (`benchmarks/phone_join.py
# --breakdown`: the wasm requests started 240 ms after the page at 20 Mbit/s, 20 ms latency). Inline, the
# loader runs as the page is parsed; the page grows by 5 KB gzipped, and is still a 304 on a second visit.
INLINE_SCRIPTS = (('<script src="python.js"></script>', "python.js"),
                  ('<script src="flutter_bootstrap.js" async></script>', "flutter_bootstrap.js"))


# Flutter's loader takes `skwasm_heavy.wasm` (its own image codecs: 2.28 MB gzipped) instead of
# `skwasm.wasm` (1.53 MB) wherever the browser has no `ImageDecoder`. Chromium offers `ImageDecoder` only
# to secure contexts, so every phone that opens the table's address on the Wi-Fi (plain HTTP) downloaded
# the heavy one: 5.20 MB for a first visit instead of 4.45 (`benchmarks/phone_join.py`). The codecs decode
# raster pictures, and this app draws none (its one picture, the table's QR code, is drawn as shapes:
# `companion.ui.components.join`), so the loader here keeps the heavy build only for what else it needs
# it for: a browser without Chromium's line-break iterators.
HEAVY_CHOICE = re.compile(r'!(\w+)\.hasImageCodecs\|\|!\1\.hasChromiumBreakIterators\?"skwasm_heavy"')


def light_renderer(loader: str) -> str:
    """Flutter's loader source choosing `skwasm_heavy` only without Chromium's break iterators (unchanged
    if it chooses otherwise than flet-web 1.0.5's loader does)."""
    return HEAVY_CHOICE.sub(r'!\1.hasChromiumBreakIterators?"skwasm_heavy"', loader, count=1)


def _inline_scripts(html: str, web_dir: Path) -> str:
    """`html` with the scripts of INLINE_SCRIPTS written into it (a tag not found as expected, as in a
    flet-web laid out otherwise, is left to be fetched)."""
    for tag, name in INLINE_SCRIPTS:
        source = (web_dir / name).read_text(encoding="utf-8")
        # The source map is not served; a "</script" inside would end the element early.
        source = re.sub(r"^//# sourceMappingURL=.*$", "", source, flags=re.MULTILINE)
        if name == "flutter_bootstrap.js":
            source = light_renderer(source)
        if tag in html and "</script" not in source.lower():
            html = html.replace(tag, f"<script>\n{source.strip()}\n</script>", 1)
    return html


def _font_preloads(base: str, font_manifest: bytes) -> str:
    """`<link rel=preload>` for the font manifest and every font it lists.

    Flutter asks for `assets/FontManifest.json` only once its engine runs (after the 4 MB of wasm have
    arrived and compiled), then for each font it lists, then draws its first frame: two round trips in
    a row on every phone's critical path (`benchmarks/phone_join.py --breakdown`). Named in the page, they
    arrive while the wasm downloads. Every family in the manifest is loaded at start (`_fonts` keeps only
    those this app draws), so nothing preloaded goes unused, whichever build the browser runs. `as=fetch`
    with `crossorigin` is the request Flutter's own `fetch()` makes, so the preloaded response is the one
    it uses (a browser test checks each is requested once)."""
    assets = ["FontManifest.json"] + [str(font["asset"]) for family in json.loads(font_manifest)
                                      for font in family.get("fonts", []) if font.get("asset")]
    return "".join(f'<link rel="preload" href="{base}assets/{asset}" as="fetch" crossorigin>\n  '
                   for asset in assets)


def _index(web_dir: Path, base: str, font_manifest: bytes = b"[]") -> bytes:
    """flet-web's page with Flet's settings (as its own server writes them), pointing at the versioned
    client, with this app's name, manifest, icons and the reconnecting banner, its loader written in
    (INLINE_SCRIPTS) and its fonts preloaded (`_font_preloads`)."""
    renderer = WebRenderer(os.environ.get("FLET_WEB_RENDERER") or WebRenderer.AUTO.value)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "index.html"
        shutil.copyfile(web_dir / "index.html", page)
        patch_index_html(index_path=str(page), base_href="/", websocket_endpoint_path="/ws", app_name=APP_NAME,
                         app_description=DESCRIPTION, web_renderer=renderer,
                         route_url_strategy=RouteUrlStrategy.PATH, no_cdn=True)
        html = page.read_text(encoding="utf-8")
    for name in ("entrypointBaseUrl", "assetBase"):
        html = re.sub(rf'flet\.{name}="[^"]*";', f'flet.{name}="{base}";', html)
    html = re.sub(r'flet\.canvasKitBaseUrl="[^"]*";', f'flet.canvasKitBaseUrl="{base}canvaskit/";', html)
    html = re.sub(r'flet\.fontFallbackBaseUrl="[^"]*";', f'flet.fontFallbackBaseUrl="{base}assets/fonts/";', html)
    html = _inline_scripts(html, web_dir)
    for ref in ("python.js", "flutter_bootstrap.js", "favicon.png", "icons/loading-animation.png",
                "icons/apple-touch-icon-192.png"):
        html = html.replace(f'"{ref}"', f'"{base}{ref}"')
    html = html.replace('href="manifest.json"', f'href="{base}manifest.webmanifest"')
    html = html.replace('content="black"', 'content="default"')
    head = (f'<meta name="theme-color" content="{THEME_COLOR}">\n'
            f'  <meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'  {_font_preloads(base, font_manifest)}{RECONNECT_SCRIPT}\n'
            f'  {NO_CDN_SCRIPT}\n'
            f'  {CLIENT_CACHE_SCRIPT.replace("BASE", base).replace("VERSION", base.strip("/").rsplit("/", 1)[-1])}\n')
    html = html.replace("</head>", head + "</head>", 1)
    return html.encode("utf-8")


def _brotli() -> Any:
    """The brotli module, or None when it is not installed (gzip only)."""
    try:
        import brotli
    except ImportError:
        return None
    return brotli


def default_cache_dir() -> Path:
    """Where the prepared client is kept: the app's cache folder (`lexicon.store.cache_dir`, beside the
    compiled word lists), shared by every data folder, so a test or a second server does not prepare it
    again."""
    return cache_dir() / "web-client"


class Client:
    """The prepared client: a map from URL path to `Entry`, built once per flet-web version."""

    def __init__(self, cache_root: Path | None = None, web_dir: Path | None = None) -> None:
        cache_root = cache_root or default_cache_dir()
        if web_dir is None:
            web_dir = Path(get_package_web_dir())  # type: ignore[no-untyped-call]  # flet-web 1.0.5: unannotated
        self.web_dir = web_dir
        self.icon_names = icon_font.app_icon_names()
        key = _source_key(web_dir, self.icon_names)
        self.folder = cache_root / key
        self.entries: dict[str, Entry] = {}
        if not (self.folder / "ready.json").is_file():
            self._prepare(self.folder)
        self._load(self.folder)
        self.brotli_thread: threading.Thread | None = None
        self._brotli_looked_at = time.monotonic()
        if not self.brotli_done and _brotli() is not None and self._take_brotli_lock():
            # Brotli at quality 11 takes minutes of CPU (measured above): made once, on a thread at low
            # priority while the app serves gzip, by one process (the others pick the copies up when
            # they are made, and carry on if it stops: `look_for_brotli`); a later start finds them made.
            self._start_brotli()

    def _start_brotli(self) -> None:
        self.brotli_thread = threading.Thread(target=self._add_brotli, daemon=True, name="client-brotli")
        self.brotli_thread.start()

    def _take_brotli_lock(self) -> bool:
        """Whether this process makes the brotli copies: the one holding the lock on `brotli.lock` (an OS
        lock, released when its process ends, however it ends)."""
        try:
            fd = os.open(self.folder / BROTLI_LOCK, os.O_CREAT | os.O_RDWR)
        except OSError:
            return False
        try:
            if sys.platform == "win32":
                import msvcrt

                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._brotli_lock_fd: int | None = fd  # held open (locked) until the copies are made
        return True

    def _release_brotli_lock(self) -> None:
        fd: int | None = getattr(self, "_brotli_lock_fd", None)
        if fd is not None:
            self._brotli_lock_fd = None
            with contextlib.suppress(OSError):
                os.close(fd)  # closing releases the lock

    def look_for_brotli(self) -> None:
        """Serve the brotli copies another process has made since (checked at most every few seconds)."""
        now = time.monotonic()
        if not self.brotli_done and self.brotli_thread is None and _brotli() is not None \
                and now - self._brotli_looked_at > 5:
            self._brotli_looked_at = now
            self._load(self.folder)
            if not self.brotli_done and self._take_brotli_lock():  # the process making them has stopped
                self._start_brotli()

    # -- preparing (once per flet-web version) --------------------------------------------------------
    def _sources(self) -> dict[str, tuple[Path | None, bytes | None]]:
        """Relative path -> (file to copy, or bytes written by us)."""
        out: dict[str, tuple[Path | None, bytes | None]] = {}
        for path in sorted(self.web_dir.rglob("*")):
            rel = path.relative_to(self.web_dir).as_posix()
            if path.is_file() and _wanted(rel) and rel not in ("index.html", "manifest.json"):
                out[rel] = (path, None)
        out["assets/FontManifest.json"] = (None, _fonts((self.web_dir / "assets/FontManifest.json").read_bytes()))
        icons = icon_font.subset_icon_font(self.web_dir, self.icon_names)
        if icons is not None:  # else the whole font, as flet-web ships it
            out[icon_font.FONT] = (None, icons)
        for icon in sorted(ICONS_DIR.glob("*.png")):
            out[f"icons/{icon.name}"] = (icon, None)
        out["favicon.png"] = (ICONS_DIR / "icon-192.png", None)
        return out

    def _prepare(self, folder: Path) -> None:
        tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        files = tmp / "files"
        digest = hashlib.sha256()
        listing: dict[str, dict[str, Any]] = {}
        for rel, (src, data) in self._sources().items():
            dst = files / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if data is None and src is not None:
                data = src.read_bytes()
            assert data is not None
            dst.write_bytes(data)
            etag = hashlib.sha256(data).hexdigest()[:20]
            digest.update(f"{rel} {etag}\n".encode())
            gz = False
            if rel.endswith(COMPRESS_SUFFIXES):
                packed = gzip.compress(data, compresslevel=9, mtime=0)
                if len(packed) < 0.9 * len(data):
                    dst.with_name(dst.name + ".gz").write_bytes(packed)
                    gz = True
            listing[rel] = {"etag": etag, "gz": gz}
        version = digest.hexdigest()[:12]
        base = f"{PREFIX}{version}/"
        # Written by us, after the hash: the page and the manifest point at the versioned files.
        font_manifest = (files / "assets/FontManifest.json").read_bytes()
        for rel, data in (("index.html", _index(self.web_dir, base, font_manifest)),
                          ("manifest.webmanifest", json.dumps(manifest(base), indent=1).encode())):
            (files / rel).write_bytes(data)
            (files / (rel + ".gz")).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
            listing[rel] = {"etag": hashlib.sha256(data).hexdigest()[:20], "gz": True}
        (tmp / "ready.json").write_text(json.dumps({"version": version, "files": listing}))
        try:
            tmp.rename(folder)
        except OSError:  # another process prepared it meanwhile: theirs is as good
            shutil.rmtree(tmp, ignore_errors=True)
        self._forget_old(folder)

    @staticmethod
    def _forget_old(folder: Path) -> None:
        """Remove copies of other flet-web versions or recipes not used for a month. (Not at once: another
        checkout of the app on this machine may be serving its own copy right now.)"""
        month_ago = time.time() - 30 * 86400
        for old in folder.parent.iterdir():
            ready = old / "ready.json"
            try:
                stale = old.name != folder.name and ready.stat().st_mtime < month_ago
            except OSError:
                continue
            if stale:
                shutil.rmtree(old, ignore_errors=True)

    def _load(self, folder: Path) -> None:
        ready = json.loads((folder / "ready.json").read_text())
        with contextlib.suppress(OSError):
            os.utime(folder / "ready.json")  # in use: not "unused for a month"
        try:
            made = json.loads((folder / BROTLI_READY).read_text())
            with_br, self.brotli_done = set(made["files"]), bool(made["done"])
        except (OSError, ValueError, KeyError, TypeError):
            with_br, self.brotli_done = set(), False
        self.version = str(ready["version"])
        self.base = f"{PREFIX}{self.version}/"
        files = folder / "files"
        entries: dict[str, Entry] = {}
        for rel, info in ready["files"].items():
            path = files / rel
            media = mimetypes.guess_type(rel)[0] or "application/octet-stream"
            if media.startswith("text/") or media.endswith(("json", "javascript")):
                media += "; charset=utf-8"
            gz = path.with_name(path.name + ".gz") if info["gz"] else None
            br = path.with_name(path.name + ".br") if rel in with_br else None
            if rel == "index.html":
                self.page = Entry(path, gz, "text/html; charset=utf-8", f'"{info["etag"]}"', REVALIDATE, br)
                continue
            etag = f'"{info["etag"]}"'
            entries[self.base + rel] = Entry(path, gz, media, etag, LONG_CACHE, br)
            entries["/" + rel] = Entry(path, gz, media, etag, REVALIDATE, br)  # old or hand-typed addresses
        entries["/manifest.json"] = entries["/manifest.webmanifest"]
        self.entries = entries  # one assignment: a request being served sees the old map or the new

    def _brotli_made_before(self, rel: str, data: bytes, brotli: Any) -> bytes | None:
        """The brotli copy of `rel` that another prepared copy (an older recipe) made of these same bytes,
        or None. A new recipe changes few files (the page, a font): taken from a copy already made, the
        large files cost no more minutes of CPU each time the recipe is raised."""
        etag = hashlib.sha256(data).hexdigest()[:20]
        for other in self.folder.parent.iterdir():
            if other == self.folder:
                continue
            try:
                if json.loads((other / "ready.json").read_text())["files"][rel]["etag"] != etag \
                        or rel not in json.loads((other / BROTLI_READY).read_text())["files"]:
                    continue
                packed = (other / "files" / (rel + ".br")).read_bytes()
                if brotli.decompress(packed) == data:
                    return bytes(packed)
            except (OSError, ValueError, KeyError, TypeError, brotli.error):
                continue
        return None

    def _add_brotli(self) -> None:
        """Write a brotli copy beside each gzipped file (where it is smaller), the files phones fetch
        first, serving each as soon as it is made (`brotli.json` lists them; other processes read it)."""
        brotli = _brotli()
        assert brotli is not None
        with contextlib.suppress(OSError):  # Linux: this thread's own priority, the app's stays
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        ready = json.loads((self.folder / "ready.json").read_text())
        files = self.folder / "files"
        todo = [rel for rel, info in ready["files"].items() if info["gz"]]
        todo.sort(key=lambda rel: _brotli_order(rel, (files / rel).stat().st_size))
        made: list[str] = []
        try:
            for n, rel in enumerate(todo):
                path = files / rel
                target = path.with_name(path.name + ".br")
                if not target.is_file():
                    data = path.read_bytes()
                    packed = self._brotli_made_before(rel, data, brotli) or brotli.compress(data, quality=BROTLI_QUALITY)
                    if len(packed) >= 0.97 * path.with_name(path.name + ".gz").stat().st_size:
                        continue  # not worth a second copy
                    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
                    tmp.write_bytes(packed)
                    os.replace(tmp, target)
                made.append(rel)
                tmp = self.folder / f"{BROTLI_READY}.tmp{os.getpid()}"
                tmp.write_text(json.dumps({"files": made, "done": n == len(todo) - 1}))
                os.replace(tmp, self.folder / BROTLI_READY)
                self._load(self.folder)
            if not made or made[-1] != todo[-1]:  # the last file was not worth a copy: say it is done
                tmp = self.folder / f"{BROTLI_READY}.tmp{os.getpid()}"
                tmp.write_text(json.dumps({"files": made, "done": True}))
                os.replace(tmp, self.folder / BROTLI_READY)
                self._load(self.folder)
        except OSError as exc:  # a full disk, a removed folder: gzip goes on being served
            log.warning("the brotli copies of the web client could not be written: %s", exc)
        finally:
            self._release_brotli_lock()

    # -- serving ----------------------------------------------------------------------------------------
    def lookup(self, path: str) -> Entry | None:
        """The entry for a request path; the page for an app address (no file extension); else None."""
        entry = self.entries.get(path)
        if entry is not None:
            return entry
        if path.startswith(PREFIX):
            # Another version's address: a tab opened before the app was upgraded, still fetching (fonts,
            # shaders...). Today's file, asked about again next time, rather than a 404.
            version_and_file = path[len(PREFIX):].split("/", 1)
            return self.entries.get("/" + version_and_file[1]) if len(version_and_file) == 2 else None
        if path in PASS_THROUGH:
            return None
        last = path.rsplit("/", 1)[-1]
        if "." not in last or last.endswith(".html"):
            return self.page
        return None


# Flet's own GET endpoints: not app addresses.
PASS_THROUGH = frozenset({"/oauth_callback", "/ws", "/upload"})


def _accepts(scope: dict[str, Any], coding: str) -> bool:
    """Whether the request's Accept-Encoding allows `coding` ("gzip", "br")."""
    for name, value in scope.get("headers", []):
        if name == b"accept-encoding":
            for part in value.decode("latin-1").split(","):
                token, _, params = part.strip().partition(";")
                if token.strip().lower() in (coding, "*") and params.replace(" ", "") not in ("q=0", "q=0.0"):
                    return True
    return False


def _header(scope: dict[str, Any], wanted: bytes) -> str | None:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


class ClientServer:
    """ASGI app: the prepared client and the page, then Flet's app for everything else."""

    def __init__(self, flet_app: Any, client: Client) -> None:
        self.flet_app = flet_app
        self.client = client

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and scope["path"] not in PASS_THROUGH:
            entry = self.client.lookup(scope["path"])
            if entry is not None:
                await self._serve(entry, scope, receive, send)
                return
            # Not a file of the client (Flet's static files would serve all of flet-web, Pyodide included).
            await PlainTextResponse("Not found", status_code=404)(scope, receive, send)
            return
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            resume = SessionResume(reconnecting=b"resume=1" in scope.get("query_string", b""))
            await self.flet_app(scope, resume.watch_receive(receive), resume.watch_send(send))
            return
        await self.flet_app(scope, receive, send)

    async def _serve(self, entry: Entry, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Brotli when offered (Chromium offers it to HTTPS pages only), else gzip, else the file.
        path, coding = entry.path, ""
        if entry.br is None and _accepts(scope, "br"):
            self.client.look_for_brotli()
            entry = self.client.lookup(scope["path"]) or entry
        if entry.br is not None and _accepts(scope, "br"):
            path, coding = entry.br, "br"
        elif entry.gz is not None and _accepts(scope, "gzip"):
            path, coding = entry.gz, "gzip"
        etag = entry.etag if not coding else entry.etag[:-1] + ("-gz" if coding == "gzip" else "-br") + '"'
        headers = {"Cache-Control": entry.cache, "ETag": etag, "Vary": "Accept-Encoding", **ISOLATION}
        match = _header(scope, b"if-none-match")
        if match is not None and etag in {m.strip().removeprefix("W/") for m in match.split(",")}:
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return
        if coding:
            headers["Content-Encoding"] = coding
        response = FileResponse(path, media_type=entry.media_type, headers=headers)
        await response(scope, receive, send)


# Flet's wire protocol (flet.messaging.protocol): each websocket frame of the app is [0x00][msgpack
# [action, body]]; action 1 registers a client (the client sends the session id it kept, the server
# answers with the session it attached and the page).
PACKET_MESSAGE = 0x00
REGISTER_CLIENT = 1


def _unpack(frame: bytes | None) -> list[Any] | None:
    """A protocol message [action, body] from a websocket frame, or None for anything else."""
    import msgpack  # type: ignore[import-untyped]  # (no type information shipped)

    if not frame or frame[0] != PACKET_MESSAGE:
        return None
    try:
        message = msgpack.unpackb(frame[1:], raw=False, strict_map_key=False)
    except (ValueError, msgpack.UnpackException):
        return None
    return message if isinstance(message, list) and len(message) == 2 else None


def _holds_control(value: Any) -> bool:
    if isinstance(value, dict):
        return "_c" in value or any(_holds_control(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_control(v) for v in value)
    return False


# The session id the connecting client asked for (the one its tab kept), for the connection being registered:
# set when its register message is read, in the task that then runs Flet's `before_main` for a new session
# (`companion.ui.main`), which gives a tab that was a referee its seat back (`Hub.reseat`).
ASKED_SESSION: contextvars.ContextVar[str] = contextvars.ContextVar("asked_session", default="")


class SessionResume:
    """A tab that comes back to its session (its Wi-Fi dropped for a moment) keeps the page it shows.

    Flet answers a client that resumes its session with the session's whole page: every control again,
    with the ids the client already has. The client (flet-web 1.0.5) then swaps each control of its
    tree for an equal new one, and Flutter compares each old control with its new copy: a control's
    `==` compares its properties deeply with `DeepCollectionEquality`, whose unordered map comparison
    compares every nested entry twice, so the time doubles with each level of the tree. On a
    follower's page (7.7 KB of controls) the tab's main thread was still in that comparison 60 s later
    (CDP `Debugger.pause` stacks, in the wasm and the JS build alike: Flutter rebuilding the page,
    `Control.==`, `MapEquality.equals`). A new session's page is not affected: its controls have new ids,
    so each comparison stops at the id.

    So the answer to a resuming client keeps the page's own properties (route, title, theme...) and
    leaves out its controls: the client keeps the tree it shows, and the app redraws the tab's screen
    as new controls on the page's `connect` event (`components/app.py`), which also brings back any
    change sent while the connection was already dead and lost on the way."""

    def __init__(self, reconnecting: bool) -> None:
        # Said by the page's own script (RECONNECT_SCRIPT) when it had a connection and lost it: only then
        # does the client have a tree to keep. A reloaded tab resumes its session too, with nothing drawn.
        self.reconnecting = reconnecting
        self.asked_session: str | None = None
        self.answered = False

    def watch_receive(self, receive: Any) -> Any:
        async def watched() -> Any:
            event = await receive()
            if self.asked_session is None and event.get("type") == "websocket.receive":
                message = _unpack(event.get("bytes"))
                if message is not None and message[0] == REGISTER_CLIENT and isinstance(message[1], dict):
                    _note_connection(str(message[1].get("session_id") or ""), self.reconnecting)
                    self.asked_session = str(message[1].get("session_id") or "")
                    ASKED_SESSION.set(self.asked_session)
            return event

        return watched

    def watch_send(self, send: Any) -> Any:
        async def watched(event: Any) -> None:
            if not self.answered and event.get("type") == "websocket.send" and event.get("bytes"):
                message = _unpack(event["bytes"])
                if message is not None and message[0] == REGISTER_CLIENT:
                    self.answered = True
                    event = {**event, "bytes": self.answer(event["bytes"], message)}
            await send(event)

        return watched

    def answer(self, frame: bytes, message: list[Any]) -> bytes:
        """The register answer `frame` as Flet sent it, or without the page's controls when the client
        resumed its session."""
        import msgpack

        body = message[1]
        resumed = (self.reconnecting and isinstance(body, dict) and bool(self.asked_session)
                   and body.get("session_id") == self.asked_session
                   and not body.get("error") and isinstance(body.get("page_patch"), dict))
        if not resumed:
            return frame
        page = body["page_patch"]
        kept = {k: v for k, v in page.items() if k in ("_c", "_i") or not _holds_control(v)}
        packed: bytes = msgpack.packb([message[0], {**body, "page_patch": kept}], use_bin_type=True)
        return bytes([PACKET_MESSAGE]) + packed


# The sessions whose latest connection resumed with the tree the tab kept (`SessionResume` left the page's
# controls out of its answer): on the page's `connect` event the app draws their screen again as new
# controls (`components/app.py`, `kept_its_tree`). Any other connection of a known session (a reload)
# gets Flet's whole page, with the ids the server has: drawing it again as new controls there replaced
# every control the tab had just drawn, and a tap on one of them in that moment reached the server for
# a control it no longer had, which Flet drops without a word ("Control with ID 1214 not found": CI's
# lost tap after a reload, reproduced with Flet's debug log).
_KEPT_TREE: set[str] = set()


def _note_connection(session_id: str, reconnecting: bool) -> None:
    """Note whether the tab of `session_id` comes back keeping its tree: when its register message is read,
    before Flet reads it, so before the page's `connect` event (if Flet makes a new session instead, there
    is no such event and the note is never asked)."""
    if reconnecting and session_id:
        _KEPT_TREE.add(session_id)
    else:
        _KEPT_TREE.difference_update((session_id,))  # (not `discard`: the one-tap check reads that as Deal's)


def kept_its_tree(session_id: str) -> bool:
    """Whether the tab of `session_id` came back keeping the tree it showed (asked once per connection:
    the answer is forgotten)."""
    if session_id in _KEPT_TREE:
        _KEPT_TREE.remove(session_id)
        return True
    return False
