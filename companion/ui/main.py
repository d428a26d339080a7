"""Flet web app entry point: a small main, the UI lives in `components/`, state in `models.py`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import flet as ft

from companion.ui import theme
from companion.ui.components.app import App
from companion.ui.hub import HUB
from companion.ui.models import DRAWN_AT


def _harden_updates() -> None:
    """A failing re-render must not stop the tab: Flet's update scheduler dies on the first exception
    (flet 1.0.5, session.__updates_scheduler), after which the tab silently stops changing.

    And each component is drawn once per change: a change to a tab's `AppState` (an observable)
    schedules every component that was given it (the root `App`, the navigation, the screen, the
    players...), and Flet's scheduler updates each of them, in no set order, although the root's update
    already draws them all again (a component given the observable is redrawn, not memo-skipped). A
    scheduled component whose ancestor is scheduled too now leaves its drawing to that ancestor. On a
    referee's tap this halved the components drawn (measured with benchmarks/load.py).

    And no tab draws a change before it is saved: while the game a tab watches has a save on its way to
    disk (`Hub.publish` runs it off the event loop), the tab's redraws wait for it (`Hub.hold`), the
    acting tab's own included."""
    import logging
    import time

    from flet.components.component import Component
    from flet.controls.context import context

    if getattr(Component.update, "_hardened", False):
        return
    original = Component.update
    original_schedule = Component._schedule_update
    waiting = "_companion_waiting"  # set on a component's state (kept across its instances) while it waits

    def schedule(self: Component) -> None:
        original_schedule(self)
        session = context.page.session
        if self._state.is_dirty and connected(session):
            setattr(self._state, waiting, True)

    def ancestor_pending(component: Component) -> bool:
        """Whether an ancestor waits for its update, and that update will draw `component` again: no
        memoized component in between that may be skipped (unchanged and not waiting itself)."""
        ref = component._parent_component
        while ref is not None:
            parent = ref()
            if parent is None or parent._stale or not parent._state.mounted:
                return False
            if getattr(parent._state, waiting, False):
                return True
            if parent.memoized and not parent._state.is_dirty:
                return False
            ref = parent._parent_component
        return False

    def connected(session: Any) -> bool:
        # Flet drops the update of a disconnected session (session.schedule_update).
        return not (session.connection is None and session.expires_at is not None)

    def draw_later(component: Component, session: Any) -> None:
        """Schedule `component` again (its tab's game is saved now): on the event loop, any context."""
        if component._stale or not component._state.mounted:
            return
        component._state.is_dirty = True
        if connected(session):
            setattr(component._state, waiting, True)
        session.schedule_update(component)

    def update(self: Component) -> None:
        setattr(self._state, waiting, False)
        if self._state.is_dirty and ancestor_pending(self):
            return  # the ancestor's update draws this one (still dirty: it is not memo-skipped)
        session = context.page.session
        if HUB.hold(session.id, lambda: draw_later(self, session)):
            # The game this tab shows has a change on its way to disk (`Hub.publish`): drawn once saved,
            # so no tab shows a change a crash could still lose. Still dirty, and waiting: a descendant
            # scheduled meanwhile leaves its drawing to it.
            setattr(self._state, waiting, connected(session))
            return
        try:
            original(self)
        except Exception:
            logging.getLogger("companion.ui").exception("re-render of %s failed", self)
        # The double-tap guard's "new screen drawn" (models): the first drawing after the tab's last tap
        # (a later redraw, e.g. another device's change, does not move it).
        DRAWN_AT.setdefault(session.id, time.monotonic())

    update._hardened = True  # type: ignore[attr-defined]
    Component.update = update  # type: ignore[method-assign]
    Component._schedule_update = schedule  # type: ignore[method-assign]


_harden_updates()


def _forget_if_gone(page: ft.Page) -> None:
    """The tab's connection dropped: stop redrawing it, unless it is already back. A reloaded tab keeps
    its session and can reconnect before the old connection's disconnect handler has run (Flet runs the
    handlers of the two connections independently); forgetting it then would leave it deaf to the other
    devices' changes until its next own tap."""
    if page.session.connection is None:
        HUB.unsubscribe(page.session.id)


def main(page: ft.Page) -> None:
    page.title = "Table referee"
    page.theme_mode = ft.ThemeMode.LIGHT
    page.theme = theme.theme()
    page.padding = 0
    page.on_disconnect = lambda e: _forget_if_gone(page)
    page.render(App)


def _settle_startup_objects() -> None:
    """Keep what startup made (modules, the word list, the games' data: about 41,000 objects, 20 ms of
    every full collection on this 2-core machine) out of the garbage collector's walks: they live as
    long as the server, and a full collection pauses every tab's updates while it runs."""
    import gc

    gc.collect()
    gc.freeze()


def _logging() -> None:
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _announce(host: str, port: int, https: bool) -> None:
    """Print the address(es) to open: this machine's, and the network ones phones use when serving the network."""
    from companion.net import addresses_to_open

    urls = addresses_to_open(host, port, https)
    HUB.base_urls = urls  # the tables' QR codes point at the network address phones can open
    print(f"Table referee: open {urls[0]} in a browser", flush=True)
    for url in urls[1:]:
        print(f"Table referee: phones on the same network open {url}", flush=True)
    if host in ("0.0.0.0", "::") and len(urls) == 1:
        print("Table referee: no network address found: connect this machine to the table's Wi-Fi", flush=True)


def serve(host: str = "127.0.0.1", port: int = 8550, data_dir: str | None = None, cert: str | None = None,
          key: str | None = None) -> None:
    _logging()
    from companion.ui.persist import default_data_dir

    data = data_dir or str(default_data_dir())
    HUB.configure(data)
    from companion.ui.adapters import JUDGE

    JUDGE.warm()  # load the word list now, not on the first challenge
    _settle_startup_objects()
    os.environ.setdefault("FLET_WEB_NO_CDN", "true")
    import uvicorn

    from companion.ui.client import Client, ClientServer

    # Phones download the web client from `ClientServer` (compressed, cached, versioned); Flet's app
    # behind it keeps the websocket. Flet serves no folder of ours (assets_dir=None): its default, an
    # `assets` folder in the current directory, would publish whatever folder the app was started in.
    try:
        client = Client()
    except OSError:  # no writable cache folder: keep the prepared client beside the games
        client = Client(Path(data) / "web-client")
    app = ClientServer(ft.run(main, export_asgi_app=True, no_cdn=True, assets_dir=None), client)
    https = bool(cert and key)
    _announce(host, port, https=https)
    _open_browser_when_desktop(host, port, https)
    # HTTPS: phone browsers give a page the camera only in a secure context.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                ssl_certfile=cert if https else None, ssl_keyfile=key if https else None)


def _open_browser_when_desktop(host: str, port: int, https: bool) -> None:
    """As `ft.run(view=WEB_BROWSER)` did: on a machine with a screen (a player's laptop) the app opens in
    its browser; a server without one (Linux with no display, or FLET_FORCE_WEB_SERVER) only prints."""
    from flet.utils import get_bool_env_var, is_linux_server

    if get_bool_env_var("FLET_FORCE_WEB_SERVER") or is_linux_server():
        return
    import threading
    import webbrowser

    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"{'https' if https else 'http'}://{shown}:{port}"
    threading.Timer(1.0, webbrowser.open, args=(url,)).start()
