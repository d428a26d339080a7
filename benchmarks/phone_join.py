"""How long a phone waits to join a table: from opening the address to "New game" usable on screen.

    PYTHONPATH=. .venv/bin/python benchmarks/phone_join.py [--runs 3] [--only 20,8,four] [--before CHECKOUT] [--https] [--loopback]
    PYTHONPATH=. .venv/bin/python benchmarks/phone_join.py --breakdown [--runs 3] [--only loop,20] [--before CHECKOUT]

The real app (`companion app` as a subprocess), headless Chromium with a phone-sized page (390x844).
"Usable" is the "New game" button present in Flutter's semantics tree (switched on by one click on
`flt-semantics-placeholder`, as the browser tests do), timed from `page.goto` on. The phones open the
app at this machine's network address, as a phone at the table does (`phone_host`: over HTTP that page
is no secure context, which changes the client Flutter loads); `--loopback` opens 127.0.0.1 instead.

Two ways of giving the link its speed:
- one phone: the browser's own network emulation (CDP `Network.emulateNetworkConditions`, 20 ms latency,
  20 or 8 Mbit/s down, and as much up), the way the issue's first figures were taken;
- several phones on one link: Chromium throttles each page on its own, so four emulated pages would each
  get the whole 20 Mbit/s. Here every page goes through `SharedLink`, a TCP forwarder on loopback in front
  of the app: each chunk either way waits for the one shared link to be free (20 Mbit/s for all the
  connections of all the phones together, first come first served, as phones sharing one Wi-Fi channel's
  airtime) and then 10 ms each way (20 ms round trip). Each phone is its own browser context (its own
  cache, its own session) in one browser. The same forwarder is also timed with one phone, to show it
  agrees with the browser's emulation.

First visit: a fresh context (empty cache). Second visit: a new tab in the same context after the first
(its HTTP cache kept, as a phone scanning the QR code again). Bytes moved: what crossed the network
(compressed sizes and headers; CDP's `encodedDataLength`, or the forwarder's count), and how many
requests. Wall times are medians over the runs; this 2-core machine is shared, so the load average is
printed too, and `--before CHECKOUT` runs an earlier version's app beside this one and measures the two
in turn, so that a comparison meets the same load. `--https` measures each case over HTTPS as well (the
app's `--https`, a self-signed certificate the browser is told to accept), the way a phone that takes
the board photo joins: Chromium offers brotli there, and the app's brotli copies (made in the background
on a first start) are waited for before measuring. Four pages at once also share the machine's 2 cores to compile and draw (a real phone has
its own): the `four phones, no throttle` line shows what that alone costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Self

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.harness import REPO, free_port, launch

PHONE_VIEWPORT = {"width": 390, "height": 844}
LATENCY_MS = 20
TIMEOUT_MS = 120_000


class SharedLink:
    """A TCP forwarder on loopback whose connections all share one link of `mbit` Mbit/s (both directions
    together, first come first served) with `latency_ms` round trip added. Runs on its own thread."""

    CHUNK = 16_384

    def __init__(self, target_port: int, mbit: float, latency_ms: float, host: str = "127.0.0.1") -> None:
        self.target_port = target_port
        self.host = host  # where the phones reach it (the app's own address: the same kind of origin)
        self.bytes_per_s = mbit * 1e6 / 8
        self.one_way = latency_ms / 2000
        self.port = free_port()
        self.link_free_at = 0.0
        self.bytes_down = 0
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel_all(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._client, self.host, self.port))
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            self._loop.close()

    def _send_time(self, n: int) -> float:
        """When `n` bytes handed over now have crossed the shared link (serialised after what is queued)."""
        now = time.monotonic()
        start = max(now, self.link_free_at)
        self.link_free_at = start + n / self.bytes_per_s
        return self.link_free_at + self.one_way

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        try:
            await asyncio.gather(self._pipe(reader, up_w, down=False), self._pipe(up_r, writer, down=True),
                                 return_exceptions=True)
        except asyncio.CancelledError:
            pass  # the link is being taken down

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, down: bool) -> None:
        """Forward src to dst: each chunk is due when the link has carried it; a queue keeps the order
        and lets reading go on (TCP windows aside, the sender is not slowed by the delay itself)."""
        queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

        async def deliver() -> None:
            while (item := await queue.get()) is not None:
                due, data = item
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                dst.write(data)
                await dst.drain()
            dst.close()

        task = asyncio.ensure_future(deliver())
        try:
            while data := await src.read(self.CHUNK):
                if down:
                    self.bytes_down += len(data)
                await queue.put((self._send_time(len(data)), data))
                # Backpressure like a real link: do not read far ahead of what the link has carried.
                while self.link_free_at - time.monotonic() > 0.5:
                    await asyncio.sleep(0.05)
        except (ConnectionError, OSError):
            pass
        await queue.put(None)
        await task


class Traffic:
    """Bytes and requests a page moved over the network, from the CDP Network domain's events."""

    def __init__(self, cdp: Any) -> None:
        self.bytes = 0
        self.requests = 0
        self.from_cache = 0
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.responseReceived", self._response)

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))

    def _response(self, event: dict[str, Any]) -> None:
        self.requests += 1
        response = event.get("response", {})
        if response.get("fromDiskCache") or response.get("fromPrefetchCache") or response.get("status") == 304:
            self.from_cache += 1  # no body crossed the network (a 304 is the page revalidated)


# What Chromium offers a plain-HTTP page on the network (http://192.168...): gzip, not brotli. To
# 127.0.0.1, a "potentially trustworthy" origin, it offers br and zstd even over HTTP, so with `--loopback`
# HTTP rows send this header (checked: Chromium sends the context's header instead of its own).
LAN_HTTP_ENCODINGS = {"Accept-Encoding": "gzip, deflate"}
# By default the phones open the app at this machine's own network address (`companion app --host
# 0.0.0.0`), as a phone at the table does: over plain HTTP that page is not a secure context, and that
# changes what Flutter's loader does, not only the encoding. No `ImageDecoder` there, so it takes
# `skwasm_heavy.wasm` (its own image codecs: 2.28 MB gzipped against skwasm's 1.53 MB), and no
# cross-origin isolation, so skwasm draws on the page's main thread instead of a worker. A page at
# 127.0.0.1 (`--loopback`, the figures before `--breakdown` came) is a secure context and got neither.


def phone_host() -> str:
    """The address the phones open: this machine's first network address, or loopback when it has none."""
    from companion.net import lan_addresses

    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def _loopback(url: str) -> bool:
    return "//127.0.0.1:" in url or "//localhost:" in url


def new_context(browser: Any, url: str) -> Any:
    # ignore_https_errors: the app's self-signed certificate (a phone asks its user once to trust it).
    # (Chromium keeps nothing in its HTTP cache from a site whose certificate it was told to accept
    # despite an error: a second HTTPS visit downloads everything again, in this benchmark as on a phone
    # that tapped through the warning instead of installing the certificate.)
    extra = LAN_HTTP_ENCODINGS if url.startswith("http:") and _loopback(url) else None
    return browser.new_context(viewport=PHONE_VIEWPORT, is_mobile=True, has_touch=True, ignore_https_errors=True,
                               extra_http_headers=extra)


def _phone_page(context: Any, mbit: float | None, init_script: str | None = None) -> tuple[Any, Any]:
    """A new tab of `context` (with `init_script` run in the page first) and its CDP session, its network
    limited to `mbit` Mbit/s each way with LATENCY_MS latency (None: unthrottled)."""
    page = context.new_page()
    if init_script is not None:
        page.add_init_script(init_script)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if mbit is not None:
        rate = mbit * 1e6 / 8
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": LATENCY_MS,
                                                      "downloadThroughput": rate, "uploadThroughput": rate})
    return page, cdp


def visit(context: Any, url: str, mbit: float | None) -> tuple[float, Traffic]:
    """Open `url` in a new tab of `context`; seconds until "New game" is usable, and the traffic."""
    page, cdp = _phone_page(context, mbit)
    traffic = Traffic(cdp)
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=TIMEOUT_MS)
    placeholder.dispatch_event("click")
    page.get_by_role("button", name="New game", exact=True).first.wait_for(timeout=TIMEOUT_MS)
    elapsed = time.perf_counter() - t0
    page.wait_for_timeout(300)  # late requests (the manifest, icons) still count as bytes moved
    page.close()
    return elapsed, traffic


# Added to each page before its own scripts (`--breakdown` only): notes, on the page's clock, when each
# WebAssembly compile/instantiation ends, Flutter's first frame, and the app's websocket (created, open,
# first message). Wrapping `WebAssembly.compileStreaming` hands it the same Response (streaming and
# Chromium's code cache work as before).
BOOT_PROBE = r"""
(() => {
  const boot = window.__boot = {marks: {}, wasm: []};
  boot.mark = (name) => { if (!(name in boot.marks)) boot.marks[name] = performance.now(); };
  window.addEventListener('flutter-first-frame', () => boot.mark('first_frame'));
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!/\/ws(\?|$)/.test(String(url))) return;
      boot.mark('ws_create');
      this.addEventListener('open', () => boot.mark('ws_open'));
      this.addEventListener('message', () => boot.mark('ws_message'));
    }
  };
  for (const name of ['compileStreaming', 'instantiateStreaming', 'compile', 'instantiate']) {
    const original = WebAssembly[name];
    WebAssembly[name] = async function (...args) {
      const start = performance.now();
      const result = await original.apply(this, args);
      boot.wasm.push({name, start, end: performance.now()});
      return result;
    };
  }
})();
"""
# The client's large files: the wasm build's (skwasm or skwasm_heavy) or the JavaScript build's.
CLIENT_FILES = ("main.dart.wasm", "skwasm.wasm", "skwasm_heavy.wasm", "main.dart.js", "canvaskit.wasm")
# (name, what it is) in the order a visit goes through them; each is ms from the end of the one before.
PHASES = (("page", "the page (index.html, a 304 on a second visit)"),
          ("to_client", "page -> the client's first large file asked for (scripts the loader needs)"),
          ("download", "the client's large files (wasm) arriving, compiled as they stream"),
          ("compile", "last byte -> compiled (what streaming compilation had left)"),
          ("instantiate", "instantiation (the Dart program's start-up code)"),
          ("engine", "Flutter's engine and Flet's client start, fonts -> first frame"),
          ("connect", "first frame -> the app's websocket open"),
          ("server", "websocket open -> the server's first message (Python builds the page)"),
          ("draw", "first message -> 'New game' in the accessibility tree (the page built and drawn)"))


def breakdown(data: dict[str, Any]) -> dict[str, float]:
    """The phases of one visit (ms) from what BOOT_PROBE and resource timing saw."""
    marks, wasm = data["marks"], data["wasm"]
    big = [r for r in data["resources"] if r["name"].rsplit("/", 1)[-1] in CLIENT_FILES]
    page_end = data["page_end"]
    if big:
        first_ask = min(r["start"] for r in big)
        last_byte = max(r["end"] for r in big)
    else:  # answered by the page's own cache (client.CLIENT_CACHE_SCRIPT, HTTPS): no resource timing
        first_ask = last_byte = min(w["start"] for w in wasm)
    compiled = max([w["end"] for w in wasm if w["name"] in ("compileStreaming", "compile")] or [last_byte])
    instantiated = max([w["end"] for w in wasm if w["name"].startswith("instantiate")] or [compiled])
    points = [0.0, page_end, first_ask, last_byte, max(compiled, last_byte), max(instantiated, compiled, last_byte),
              marks["first_frame"], marks["ws_open"], marks["ws_message"], marks["new_game"]]
    phases = {name: points[i + 1] - points[i] for i, (name, _) in enumerate(PHASES)}
    phases["total"] = marks["new_game"]
    phases["client_mb"] = sum(r["size"] for r in big) / 1e6
    return phases


# What the page ran on: the files Flutter's loader chose, whether the page is cross-origin isolated (skwasm
# then draws on a worker), and the WebGL renderer (SwiftShader is Chromium drawing in software on this
# machine's CPU, where a phone has a GPU).
PAGE_INFO = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
  const files = performance.getEntriesByType('resource').map(r => r.name.split('/').pop())
    .filter(n => /[.]wasm$|^main[.]dart[.]js$/.test(n));
  return `${files.join(' + ')}; crossOriginIsolated ${self.crossOriginIsolated}; WebGL ` +
    (info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : (gl ? 'unknown' : 'none'));
}"""


def probed_visit(context: Any, url: str, mbit: float | None) -> dict[str, Any]:
    """One visit (as `visit`) with BOOT_PROBE in the page: its phases."""
    page, _cdp = _phone_page(context, mbit, BOOT_PROBE)  # the session, kept for the visit: it throttles it
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=TIMEOUT_MS)
    placeholder.dispatch_event("click")
    page.get_by_role("button", name="New game", exact=True).first.wait_for(timeout=TIMEOUT_MS)
    page.evaluate("window.__boot.mark('new_game')")
    data = page.evaluate("""() => ({marks: window.__boot.marks, wasm: window.__boot.wasm,
        page_end: performance.getEntriesByType('navigation')[0].responseEnd,
        resources: performance.getEntriesByType('resource').map(r => ({name: r.name, start: r.startTime,
                                                                        end: r.responseEnd, size: r.transferSize}))})""")
    info = page.evaluate(PAGE_INFO)
    page.close()
    return {**breakdown(data), "info": info}


def breakdown_runs(browser: Any, url: str, mbit: float | None, runs: int) -> tuple[list[dict[str, Any]], ...]:
    firsts, seconds = [], []
    for _ in range(runs):
        context = new_context(browser, url)
        try:
            firsts.append(probed_visit(context, url, mbit))
            seconds.append(probed_visit(context, url, mbit))
        finally:
            context.close()
    return firsts, seconds


def breakdown_table(results: dict[tuple[str, str], tuple[list[dict[str, Any]], ...]]) -> list[str]:
    """Markdown: one column per (case, version, visit), one row per phase, medians in ms."""
    columns = [(case, who, visit_no, runs) for (case, who), both in results.items() for visit_no, runs in
               zip(("first", "second"), both)]
    short = {"loop": "unthrottled", "20": "20 Mbit/s", "8": "8 Mbit/s"}
    head = "| phase (ms, median) | " + " | ".join(f"{short[c]}, {who}, {v} visit" for c, who, v, _ in columns) + " |"
    lines = [head, "|---|" + "---|" * len(columns)]
    for name, what in (*PHASES, ("total", "opening the address -> 'New game' usable")):
        cells = [f"{statistics.median(r[name] for r in runs):.0f}" for _, _, _, runs in columns]
        label = f"**{what}**" if name == "total" else what
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    cells = [f"{statistics.median(r['client_mb'] for r in runs):.2f}" for _, _, _, runs in columns]
    lines.append("| client's large files moved (MB) | " + " | ".join(cells) + " |")
    lines.append("")
    for (case, who), both in results.items():
        lines.append(f"{short[case]}, {who}: " + "; ".join(sorted({r['info'] for r in both[0] + both[1]})))
    return lines


def one_phone(browser: Any, url: str, mbit: float | None) -> dict[str, float]:
    context = new_context(browser, url)
    try:
        first, t1 = visit(context, url, mbit)
        second, t2 = visit(context, url, mbit)
    finally:
        context.close()
    return {"first": first, "second": second, "first_mb": t1.bytes / 1e6, "second_mb": t2.bytes / 1e6,
            "first_req": t1.requests, "second_req": t2.requests, "second_cached": t2.from_cache}


# When the last byte of the page's client (wasm, fonts, manifests) arrived, on the page's own clock.
LAST_BYTE = """() => performance.timeOrigin + Math.max(0, ...performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/client/')).map((e) => e.responseEnd))"""


def phones_at_once(browser: Any, url: str, n: int, second: bool = False,
                   last_bytes: list[float] | None = None) -> list[float]:
    """`n` fresh phones open `url` at the same moment, each page polled until usable; seconds for each.
    `last_bytes` (when given) gets when each phone had the last byte of its client: what the shared link
    decides, before any of the phone's own CPU work after it."""
    contexts = [new_context(browser, url) for _ in range(n)]
    try:
        if second:
            for c in contexts:  # warm each phone's cache first, one at a time
                visit(c, url, None)
        pages = [c.new_page() for c in contexts]
        done: list[float | None] = [None] * n
        t0, t0_epoch = time.perf_counter(), time.time()
        for p in pages:
            p.evaluate(f"window.location.href = {url!r}")
        clicked = [False] * n
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while any(d is None for d in done) and time.monotonic() < deadline:
            for i, p in enumerate(pages):
                if done[i] is not None:
                    continue
                try:
                    if not clicked[i]:
                        ph = p.locator("flt-semantics-placeholder")
                        if ph.count():
                            ph.dispatch_event("click")
                            clicked[i] = True
                    elif p.get_by_role("button", name="New game", exact=True).count():
                        done[i] = time.perf_counter() - t0
                except Exception:  # noqa: BLE001, S110 - a page mid-navigation: look again next round
                    pass
            pages[0].wait_for_timeout(50)
        if any(d is None for d in done):
            raise RuntimeError("a phone did not show 'New game' within the time limit")
        if last_bytes is not None:
            last_bytes.extend(float(p.evaluate(LAST_BYTE)) / 1000 - t0_epoch for p in pages)
        return [float(d) for d in done if d is not None]
    finally:
        for c in contexts:
            c.close()


def median(values: list[float]) -> float:
    return statistics.median(values)


# The app's self-signed certificate is not checked (the browser contexts accept it too).
UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE


def encoding_of(url: str, accept: str) -> str:
    """The Content-Encoding the app answers `url` with when `accept` is offered."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept}, method="HEAD")
    with urllib.request.urlopen(request, timeout=10, context=UNVERIFIED) as r:
        return str(r.headers.get("Content-Encoding", ""))


@contextmanager
def app_at(checkout: Path, data: Path, https: bool = False, host: str = "127.0.0.1") -> Iterator[str]:
    """`python -m companion app` from `checkout` (its own code first on sys.path); yields its URL at `host`
    (loopback, or this machine's network address: the app then listens on every interface)."""
    port = free_port()
    scheme = "https" if https else "http"
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    env = {**os.environ, "FLET_WEB_NO_CDN": "true", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port), "--data", str(data),
                             *(["--https"] if https else []), *([] if host == "127.0.0.1" else ["--host", "0.0.0.0"])],
                            cwd=checkout, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.time() + 180  # a first start prepares the compressed client
        while True:
            if proc.poll() is not None:
                raise RuntimeError("the app exited: " + (data / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}/", timeout=2, context=UNVERIFIED):
                    break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("the app did not answer within 180 s") from None
                time.sleep(0.5)
        yield f"{scheme}://{host}:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def measure(browser: Any, url: str, case: str) -> dict[str, float]:
    """One run of `case` against the app at `url`."""
    port = int(url.rsplit(":", 1)[1])
    scheme = url.split(":", 1)[0]
    host = url.split("//", 1)[1].rsplit(":", 1)[0]
    if case in ("loop", "20", "8"):
        return one_phone(browser, url, None if case == "loop" else float(case))
    if case == "link20":
        with SharedLink(port, 20.0, LATENCY_MS, host) as link:
            r = one_phone(browser, f"{scheme}://{host}:{link.port}", None)
            return {**r, "link_mb": link.bytes_down / 1e6}
    last: list[float] = []
    if case == "fourloop":
        times = phones_at_once(browser, url, 4, last_bytes=last)
        return {"median": median(times), "slowest": max(times), "link_mb": 0.0, "last_byte": max(last)}
    with SharedLink(port, 20.0, LATENCY_MS, host) as link:
        times = phones_at_once(browser, f"{scheme}://{host}:{link.port}", 4, last_bytes=last)
        return {"median": median(times), "slowest": max(times), "link_mb": link.bytes_down / 1e6,
                "last_byte": max(last)}


LABELS = {"loop": "one phone, unthrottled", "20": f"one phone, 20 Mbit/s, {LATENCY_MS} ms (CDP)",
          "8": f"one phone, 8 Mbit/s, {LATENCY_MS} ms (CDP)",
          "link20": f"one phone, 20 Mbit/s, {LATENCY_MS} ms (shared-link forwarder)",
          "four": f"four phones at once, one shared 20 Mbit/s link, {LATENCY_MS} ms",
          "fourloop": "four phones at once, no throttle"}


def row(case: str, who: str, runs: list[dict[str, float]]) -> str:
    def m(key: str) -> float:
        return median([r[key] for r in runs])

    last = runs[-1]
    if case in ("four", "fourloop"):
        # The link's floor: no phone can have its client before the link has carried all four.
        floor = f" (the link's floor: {last['link_mb'] * 8 / 20:.2f} s)" if case == "four" else ""
        moved = f"{last['link_mb']:.2f} MB down for the four{floor}" if case == "four" else ""
        return (f"| {LABELS[case]} | {who} | median {m('median'):.2f} s, slowest {m('slowest'):.2f} s; last byte "
                f"of the slowest client at {m('last_byte'):.2f} s | | {moved} | |")
    if case == "link20":
        return (f"| {LABELS[case]} | {who} | {m('first'):.2f} s | {m('second'):.2f} s | "
                f"{last['link_mb']:.2f} MB down, both visits | |")
    return (f"| {LABELS[case]} | {who} | {m('first'):.2f} s | {m('second'):.2f} s | {last['first_mb']:.2f} MB in "
            f"{last['first_req']:.0f} requests | {last['second_mb']:.2f} MB, {last['second_cached']:.0f} of "
            f"{last['second_req']:.0f} from cache or revalidated |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="loop,20,8,link20,four,fourloop",
                        help="comma list of: loop (no throttle), 20, 8 (emulated Mbit/s), link20 (one phone "
                             "through the shared-link forwarder), four (four phones on one 20 Mbit/s link), "
                             "fourloop (four phones, no throttle)")
    parser.add_argument("--https", action="store_true",
                        help="measure every case over HTTPS too (the app's --https; Chromium offers brotli there)")
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of an earlier version (e.g. `git worktree add /tmp/before main~1`): each "
                             "run measures it and this one in turn, so both meet the same machine load")
    parser.add_argument("--loopback", action="store_true",
                        help="open the app at 127.0.0.1 (a secure context even over HTTP) instead of this machine's "
                             "network address, as the figures before --breakdown were taken")
    parser.add_argument("--breakdown", action="store_true",
                        help="where one phone's first and second visit go, phase by phase (cases loop, 20, 8; "
                             "default loop,20)")
    args = parser.parse_args()
    if args.breakdown and args.only == parser.get_default("only"):
        args.only = "loop,20"
    cases = [c for c in args.only.split(",") if c in LABELS and (not args.breakdown or c in ("loop", "20", "8"))]
    from playwright.sync_api import sync_playwright

    host = "127.0.0.1" if args.loopback else phone_host()
    print(f"phones open the app at {host}", flush=True)
    checkouts = [("this", REPO)] + ([("before", args.before.resolve())] if args.before else [])
    loads: list[float] = []
    with ExitStack() as stack, sync_playwright() as p:
        urls = {}
        for https in (False, True) if args.https else (False,):
            for who, checkout in checkouts:
                data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                label = f"{who}, https" if https else who
                urls[label] = url = stack.enter_context(app_at(checkout, data, https, host))
                if https and who == "this":
                    # The brotli copies are made in the background on a first start: measure with them.
                    deadline = time.time() + 1800
                    while encoding_of(url + "/main.dart.wasm", "br, gzip") != "br" and time.time() < deadline:
                        time.sleep(5)
                offered = "gzip, deflate, br, zstd" if https else LAN_HTTP_ENCODINGS["Accept-Encoding"]
                print(f"{label}: main.dart.wasm served as {encoding_of(url + '/main.dart.wasm', offered)!r} "
                      f"to Chromium's Accept-Encoding ({offered})", flush=True)
        browser = launch(p)
        try:
            for url in urls.values():
                visit(new_context(browser, url), url, None)  # each server's first page (Flet's setup) not timed
            if args.breakdown:
                phases: dict[tuple[str, str], tuple[list[dict[str, Any]], ...]] = {}
                for case in cases:
                    for _ in range(args.runs):
                        for who, url in urls.items():
                            firsts, seconds = breakdown_runs(browser, url, None if case == "loop" else float(case), 1)
                            old = phases.setdefault((case, who), ([], []))
                            old[0].extend(firsts)
                            old[1].extend(seconds)
                            loads.append(os.getloadavg()[0])
                print(f"{args.runs} runs each; load average during the runs {min(loads):.1f}-{max(loads):.1f} "
                      f"(this machine has {os.cpu_count()} cores)")
                for line in breakdown_table(phases):
                    print(line)
                return
            results: dict[tuple[str, str], list[dict[str, float]]] = {}
            for case in cases:
                for _ in range(args.runs):
                    for who, url in urls.items():
                        results.setdefault((case, who), []).append(measure(browser, url, case))
                        loads.append(os.getloadavg()[0])
                for who in urls:
                    print(row(case, who, results[(case, who)]), flush=True)
        finally:
            browser.close()
    print()
    print(f"{args.runs} runs each; load average during the runs {min(loads):.1f}-{max(loads):.1f} "
          f"(this machine has {os.cpu_count()} cores)")
    print("| case | version | first visit | second visit | first visit moved | second visit moved |")
    print("|---|---|---|---|---|---|")
    for case in cases:
        for who in urls:
            print(row(case, who, results[(case, who)]))


if __name__ == "__main__":
    main()
