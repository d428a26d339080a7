"""Flet web app entry point: a small main, the UI lives in `components/`, state in `models.py`."""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
import webbrowser
from pathlib import Path

import flet as ft
import uvicorn
from flet.utils import get_bool_env_var, is_linux_server

from companion.net import addresses_to_open
from companion.store import default_data_dir
from companion.ui import flet_patch, theme
from companion.ui.adapters import JUDGE
from companion.ui.client import ASKED_SESSION, Client, ClientServer
from companion.ui.components.app import App
from companion.ui.hub import HUB
from companion.ui.models import DRAWN_AT


def _note_drawn(session_id: str) -> None:
    # The double-tap guard's "new screen drawn" (models): the first drawing after the tab's last tap
    # (a later redraw, e.g. another device's change, does not move it).
    DRAWN_AT.setdefault(session_id, time.monotonic())


# Every tab's redraws: a failing one is logged, each component drawn once per change, none before the
# change is saved (`flet_patch` says why Flet's own mechanisms do not serve, and what it relies on).
flet_patch.install(hold=HUB.hold, drawn=_note_drawn)


def _forget_if_gone(page: ft.Page) -> None:
    """The tab's connection dropped: stop redrawing it, unless it is already back. A reloaded tab keeps
    its session and can reconnect before the old connection's disconnect handler has run (Flet runs the
    handlers of the two connections independently); forgetting it then would leave it deaf to the other
    devices' changes until its next own tap."""
    if page.session.connection is None:
        HUB.unsubscribe(page.session.id)


def before_main(page: ft.Page) -> None:
    """A new session for a tab that asked for an old one (Flet no longer had it: kept too long without a
    connection, a restart, or its old connection not yet seen closing): a referee's tab gets its seat back
    before the app draws its first screen (`Hub.reseat`; the App then opens the table as its referee)."""
    asked = ASKED_SESSION.get()
    if asked and page.session is not None and asked != page.session.id:
        games = HUB.reseat(asked, page.session.id)
        if games:
            logging.getLogger("companion.ui").info("a referee's tab came back on a new session: %s", games)


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
    gc.collect()
    gc.freeze()


def _logging() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _announce(host: str, port: int, https: bool) -> None:
    """Print the address(es) to open: this machine's, and the network ones phones use when serving the network."""
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
    data = data_dir or str(default_data_dir())
    HUB.configure(data)
    JUDGE.warm()  # load the word list now, not on the first challenge
    _settle_startup_objects()
    os.environ.setdefault("FLET_WEB_NO_CDN", "true")
    # Phones download the web client from `ClientServer` (compressed, cached, versioned); Flet's app
    # behind it keeps the websocket. Flet serves no folder of ours (assets_dir=None): its default, an
    # `assets` folder in the current directory, would publish whatever folder the app was started in.
    try:
        client = Client()
    except OSError:  # no writable cache folder: keep the prepared client beside the games
        client = Client(Path(data) / "web-client")
    app = ClientServer(ft.run(main, before_main=before_main, export_asgi_app=True, no_cdn=True, assets_dir=None),
                       client)
    https = bool(cert and key)
    _announce(host, port, https=https)
    _open_browser_when_desktop(host, port, https)
    # HTTPS: phone browsers give a page the camera only in a secure context.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                ssl_certfile=cert if https else None, ssl_keyfile=key if https else None)


def _open_browser_when_desktop(host: str, port: int, https: bool) -> None:
    """As `ft.run(view=WEB_BROWSER)` did: on a machine with a screen (a player's laptop) the app opens in
    its browser; a server without one (Linux with no display, or FLET_FORCE_WEB_SERVER) only prints."""
    # Flet's helpers are unannotated (they return bool).
    if get_bool_env_var("FLET_FORCE_WEB_SERVER") or is_linux_server():  # type: ignore[no-untyped-call]
        return
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"{'https' if https else 'http'}://{shown}:{port}"
    threading.Timer(1.0, webbrowser.open, args=(url,)).start()
