"""A phone following a table without drawing it: a Python client of Flet 1.0's own websocket protocol,
for `benchmarks/load.py --followers-as ws` (the server measured as at a real club, where each phone
draws on its own device, not on the server's cores).

What one follower does, as the Flet web client (Flutter) does on a phone, read from the installed
`flet_web.fastapi.flet_app.FletApp` (server side) and recorded from a real Chromium follower's socket:

1. opens the server's websocket (`ws://host:port/ws`) and registers: `[1, {session_id: None,
   page_name, page: {route: "/table/<id>", width: 360, height: 1100, media...}}]` (msgpack, each frame
   prefixed with the byte 0x00), then sends what the browser sends right after: the page's brightness,
   media and size (`UPDATE_CONTROL_PROPS`) and the `platform_brightness_change` event. The server makes
   a new session and runs the app's `main` for it, as for any tab: the app subscribes it to the table
   named in the route, so the hub updates it and the home screen counts it among the table's watchers.
2. keeps the page's control tree: the register answer carries the page, the first `PATCH_CONTROL`
   the whole screen (about 150 kB for a classic game), later ones patch it. A patch is
   `[paths, op...]`: `paths` is a tree of path prefixes below the patched control (`[index,
   {part: child}]`), an op is `[0 replace | 1 add | 2 remove, node, key, value]` or `[3 move, node,
   key, node2, key2]`, applied in order as JSON patch operations (a list's add inserts, its remove
   deletes); every control (a map with `_i`) is indexed by id, as patches name their control by it.
3. after every message, reads the follower's status line (the `Semantics` control with identifier
   `follow-status`: "<player> to play") and stamps `time.time()` when it changes; the stamp of each
   message's arrival is kept too. It draws nothing; it answers a server's method call (none is made
   to a follower) with an error, so the server never waits on it.

A referee (a route written `+/table/<id>`) is the same client that, once it shows the table, taps
'Referee this game', and on the `tap` command taps a button: it sends what the web client sends for a
tap, `[3 EVENT, {target: <the button's control id>, name: "click", data: None}]`, the button found by
its text in the patched tree, as a player finds it on screen.

Run as a process (`load.py` starts one or more, at nice 0): `python benchmarks/flet_follower.py URL
ROUTE:COUNT...` opens COUNT followers per route, prints one JSON line when all show a status, then
answers JSON commands on stdin, one a line (`tap`, `wait`, `home`, `verify`, `quit`: see `_command`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

REGISTER, PATCH, EVENT, PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3
STATUS_ID = "follow-status"
WIDTH, HEIGHT = 360.0, 1100.0  # the benchmark's browser pages' viewport (tests/browser/harness.PHONE)
_INSETS = {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0}
MEDIA = {"padding": _INSETS, "view_padding": _INSETS, "view_insets": _INSETS, "device_pixel_ratio": 1.0,
         "orientation": "portrait", "always_use_24_hour_format": False}
USER_AGENT = "companion-load-follower (Python, Flet 1.0 protocol)"


def _ext(code: int, data: bytes) -> Any:
    """Flet's msgpack extension types (flet.messaging.protocol.decode_ext_from_msgpack), as plain values."""
    if code in (1, 2, 4):  # datetime, time, string
        return data.decode("utf-8")
    if code == 3:  # a duration in microseconds
        return int.from_bytes(data, "big", signed=True)
    return msgpack.ExtType(code, data)


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def texts(value: Any, out: list[str] | None = None) -> list[str]:
    """Every text a screen shows (a `Text`'s value, a button's string content), in tree order; a map's
    keys in sorted order, as patches may add a key after others."""
    out = [] if out is None else out
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            item = value[key]
            if isinstance(item, str) and (key == "value" and value.get("_c") == "Text" or key == "content"):
                out.append(item)
            elif isinstance(item, (dict, list)):
                texts(item, out)
    elif isinstance(value, list):
        for item in value:
            texts(item, out)
    return out


class Follower:
    """One follower's session: its control tree as patched, its status line and when it changed."""

    def __init__(self, url: str, route: str, name: str, referee: bool = False) -> None:
        self.url, self.route, self.name, self.referee = url, route, name, referee
        self.page: dict[str, Any] = {}
        self.index: dict[int, dict[str, Any]] = {}  # control id -> the control's map in the tree
        self.status_control: dict[str, Any] | None = None
        self.status = ""
        self.history: list[tuple[float, str]] = []  # (when it changed, the status line), in order
        self.arrivals: list[float] = []  # time.time() of every message after the first screen
        self.bytes = 0
        self.errors: list[str] = []
        self.ready = asyncio.Event()
        self.socket: ClientConnection | None = None

    # ----- the tree
    def _index(self, value: Any, add: bool) -> None:
        if isinstance(value, dict):
            i = value.get("_i")
            if isinstance(i, int):
                if add:
                    self.index[i] = value
                elif self.index.get(i) is value:
                    del self.index[i]
            if add and value.get("identifier") == STATUS_ID:
                self.status_control = value
            for item in value.values():
                if isinstance(item, (dict, list)):
                    self._index(item, add)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, (dict, list)):
                    self._index(item, add)

    def apply(self, control_id: int, patch: list[Any]) -> None:
        """Apply one `PATCH_CONTROL` to the control `control_id`'s subtree, operation by operation."""
        root = self.index.get(control_id)
        if root is None:
            self.errors.append(f"patch for unknown control {control_id}")
            return
        paths: dict[int, list[Any]] = {}
        todo: list[tuple[list[Any], list[Any]]] = [(patch[0], [])]
        while todo:
            node, prefix = todo.pop()
            paths[node[0]] = prefix
            if len(node) > 1:
                todo += [(child, [*prefix, part]) for part, child in node[1].items()]

        def at(node: int) -> Any:
            obj = root
            for part in paths[node]:
                obj = obj[part]
            return obj

        for op in patch[1:]:
            kind = op[0]
            if kind == MOVE:
                source, target = at(op[1]), at(op[3])
                value = source.pop(op[2])
                if isinstance(target, list):
                    target.insert(op[4], value)
                else:
                    target[op[4]] = value
                continue
            obj, key = at(op[1]), op[2]
            if kind == REMOVE:
                old = obj.pop(key) if isinstance(obj, list) else obj.pop(key, None)
                self._index(old, add=False)
            elif kind == ADD and isinstance(obj, list):
                obj.insert(key, op[3])
                self._index(op[3], add=True)
            elif kind in (ADD, REPLACE):
                old = obj[key] if isinstance(obj, list) else obj.get(key)
                self._index(old, add=False)
                obj[key] = op[3]
                self._index(op[3], add=True)
            else:
                self.errors.append(f"unknown patch operation {op!r}")

    def button(self, label: str) -> int | None:
        """The id of the button on screen whose text is `label` (as a player finds it), else None."""
        for i, control in list(self.index.items()):
            if control.get("content") == label and "Button" in str(control.get("_c", "")):
                return i
        return None

    async def tap(self, label: str) -> float | None:
        """Send the click a browser sends when the button `label` is tapped; when it was sent (None: no
        such button on screen)."""
        target = self.button(label)
        if target is None or self.socket is None:
            return None
        sent = time.time()
        await self.socket.send(pack(EVENT, {"target": target, "name": "click", "data": None}))
        return sent

    def shows(self, text: str) -> bool:
        return any(text in t for t in texts(self.page))

    def read_status(self, stamp: float) -> None:
        control = self.status_control
        if control is None or self.index.get(control.get("_i", -1)) is not control:
            return
        content = control.get("content")
        status = content.get("value", "") if isinstance(content, dict) else ""
        if status and status != self.status:
            self.status = status
            self.history.append((stamp, status))
            self.ready.set()

    # ----- the socket
    async def run(self) -> None:
        try:
            # A wide opening timeout: the server makes each new tab's whole screen before it answers
            # the next, and 50 arriving at once on a loaded machine took over the default 10 s.
            async with connect(f"{self.url.replace('http', 'ws', 1)}/ws", user_agent_header=USER_AGENT,
                               proxy=None, max_size=None, open_timeout=120) as socket:
                self.socket = socket
                page = {"route": self.route, "pwa": False, "web": True, "debug": False, "wasm": True,
                        "test": False, "multi_view": False, "pyodide": False, "platform_brightness": "light",
                        "width": WIDTH, "height": HEIGHT, "platform": "linux", "window": {}, "media": MEDIA}
                await socket.send(pack(REGISTER, {"session_id": None, "page_name": self.route.lstrip("/"),
                                                  "page": page}))
                await socket.send(pack(PROPS, {"id": 1, "props": {"platform_brightness": "light"}}))
                await socket.send(pack(EVENT, {"target": 1, "name": "platform_brightness_change",
                                               "data": "light"}))
                await socket.send(pack(PROPS, {"id": 1, "props": {"media": MEDIA}}))
                await socket.send(pack(PROPS, {"id": 1, "props": {"width": WIDTH, "height": HEIGHT}}))
                async for frame in socket:
                    stamp = time.time()
                    await self._receive(frame, stamp)
        except Exception as exc:  # noqa: BLE001 - reported with the figures, a lost follower counts as missed
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.socket = None

    async def _receive(self, frame: Any, stamp: float) -> None:
        if not isinstance(frame, bytes) or not frame or frame[0] != 0:
            return  # a data-channel frame: none is used by the app
        action, body = msgpack.unpackb(frame[1:], ext_hook=_ext, strict_map_key=False)
        if self.ready.is_set():
            self.arrivals.append(stamp)
            self.bytes += len(frame)
        if action == REGISTER:
            if body.get("error"):
                self.errors.append("register: " + str(body["error"])[:200])
            self.page = body["page_patch"]
            self._index(self.page, add=True)
        elif action == PATCH:
            self.apply(body["id"], body["patch"])
        elif action == INVOKE:
            self.errors.append(f"the server called {body.get('name')} on a follower")
            assert self.socket is not None
            await self.socket.send(pack(INVOKE, {"control_id": body["control_id"], "call_id": body["call_id"],
                                                 "result": None, "error": "not supported by a load follower"}))
        elif action == CRASHED:
            self.errors.append("session crashed: " + str(body.get("message", ""))[:200])
        self.read_status(stamp)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


class Swarm:
    """The followers of one process, and the commands `load.py` sends it."""

    def __init__(self, url: str, routes: list[tuple[str, int]]) -> None:
        self.url = url
        # A route written "+/table/<id>" is a referee's: it takes the table over once it shows it.
        self.followers = [Follower(url, route.lstrip("+"), f"{route}#{k}", referee=route.startswith("+"))
                          for route, count in routes for k in range(count)]
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self, timeout: float = 180.0) -> dict[str, Any]:
        for f in self.followers:
            self.tasks.append(asyncio.create_task(f.run()))
            # Phones arrive one after another, not in one burst: the next once this one shows the table.
            await asyncio.wait([asyncio.ensure_future(f.ready.wait()), self.tasks[-1]], timeout=30,
                               return_when=asyncio.FIRST_COMPLETED)
        try:
            await asyncio.wait_for(asyncio.gather(*(f.ready.wait() for f in self.followers)), timeout)
        except TimeoutError:
            pass
        for f in self.followers:
            if f.referee and f.ready.is_set():
                await self._until(lambda f=f: f.button("Referee this game") is not None, 30)
                await f.tap("Referee this game")
                if not await self._until(lambda f=f: f.button("Pass") is not None, 60):
                    f.errors.append("no Pass button after 'Referee this game'")
        return {"ready": sum(f.ready.is_set() for f in self.followers), "of": len(self.followers),
                "errors": {f.name: f.errors for f in self.followers if f.errors}}

    @staticmethod
    async def _until(done: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def _command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        if cmd["cmd"] == "tap":
            # {"label": {route: button}, "spacing": s, "shows": {route: text}}: each route's referee taps
            # its button, in order, `spacing` seconds apart; when each tap was sent (null: no button).
            # With "shows": first wait (up to 60 s) until every referee shows its text and the button.
            refs = {f.route: f for f in self.followers if f.referee and f.route in cmd["label"]}
            shows = cmd.get("shows", {})
            await self._until(lambda: all(f.shows(shows.get(r, "")) and f.button(cmd["label"][r]) is not None
                                          for r, f in refs.items()), 60)
            sent: dict[str, float | None] = {}
            for k, (route, f) in enumerate(refs.items()):
                if k and cmd.get("spacing"):
                    await asyncio.sleep(float(cmd["spacing"]))
                sent[route] = await f.tap(cmd["label"][route])
            return {"sent": sent}
        if cmd["cmd"] == "wait":
            # {"expect": {route: status}, "since": {route: ms}, "timeout": s}: when each follower of those
            # routes showed the status (the first change to it at or after `since`), and its first message
            # after `since`; null for one that did not within the timeout.
            expect, since = cmd["expect"], {r: ms / 1000 for r, ms in cmd["since"].items()}
            mine = [f for f in self.followers if f.route in expect and not f.referee]

            def seen(f: Follower) -> float | None:
                return next((t for t, s in f.history if t >= since[f.route] and s == expect[f.route]), None)

            deadline = time.monotonic() + float(cmd.get("timeout", 30))
            while any(seen(f) is None for f in mine) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            return {"seen": {f.name: seen(f) for f in mine},
                    "arrived": {f.name: next((t for t in f.arrivals if t >= since[f.route]), None) for f in mine}}
        if cmd["cmd"] == "report":
            return {f.name: {"route": f.route, "history": f.history, "bytes": f.bytes, "errors": f.errors,
                             "messages": len(f.arrivals)} for f in self.followers if not f.referee}
        if cmd["cmd"] in ("home", "verify"):
            # A fresh client's screen: on "home", the home screen's texts; on "verify", a fresh client per
            # route whose whole screen's texts must equal every long-running follower's of that route.
            routes = ["/"] if cmd["cmd"] == "home" else sorted({f.route for f in self.followers if not f.referee})
            result: dict[str, Any] = {}
            for route in routes:
                fresh = Follower(self.url, route, "fresh")
                task = asyncio.create_task(fresh.run())
                if route == "/":
                    await asyncio.sleep(float(cmd.get("settle", 3)))  # the home screen has no status line
                else:
                    await asyncio.wait_for(fresh.ready.wait(), 60)
                    await asyncio.sleep(0.5)
                shown = texts(fresh.page)
                if route == "/":
                    result[route] = shown
                else:
                    result[route] = {f.name: "same" if texts(f.page) == shown else
                                     {"fresh": shown, "follower": texts(f.page)}
                                     for f in self.followers if f.route == route and not f.referee}
                await fresh.close()
                await task
            return result
        raise ValueError(f"unknown command {cmd!r}")

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str] = asyncio.Queue()

        def read() -> None:  # stdin in a thread: a pipe's reads block
            for line in sys.stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            loop.call_soon_threadsafe(lines.put_nowait, '{"cmd": "quit"}')

        threading.Thread(target=read, daemon=True).start()
        print(json.dumps(await self.start()), flush=True)
        while True:
            cmd = json.loads(await lines.get())
            if cmd["cmd"] == "quit":
                break
            print(json.dumps(await self._command(cmd)), flush=True)
        for f in self.followers:
            await f.close()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def main(argv: list[str]) -> int:
    url, *specs = argv
    routes = [(route, int(count)) for route, count in (s.rsplit(":", 1) for s in specs)]
    asyncio.run(Swarm(url, routes).serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
