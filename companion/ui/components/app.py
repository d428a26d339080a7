"""The root component: one AppState per tab, a navigation row, the screen of the moment.

The address names the table (`/table/<game id>`, Flet's page route): a tab opened on a table's address
(typed, or scanned from its QR code) watches that game; the address bar follows the tab's table.

The shell's own screens are home, setup, follow, join (the table's address and QR code) and verdict; every other screen is the game's
(`GameUI.screens`, found in the registry by the game's id), so this file names no game.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.games.spec import RESERVED_SCREEN_KEYS
from companion.ui.client import kept_its_tree
from companion.ui.components.follow import FollowScreen
from companion.ui.components.home import Home
from companion.ui.components.join import JoinScreen
from companion.ui.components.layout import content_width
from companion.ui.components.messages import Messages
from companion.ui.components.setup import Setup
from companion.ui.components.tools import FULL_SCREENS, SCREENS, tool_buttons
from companion.ui.components.verdict import VerdictScreen
from companion.ui.flet_typed import memo
from companion.ui.hub import HUB, table_from_path
from companion.ui.models import AppState, game_ui

# The shell's screens are the keys a game may not use (`RESERVED_SCREEN_KEYS`, enforced by `GameUI`); the
# tools' screens are among them (`tests/test_game_registry.py` checks the two lists agree).
SHELL_SCREENS = RESERVED_SCREEN_KEYS


def game_screen(app: AppState) -> Any:
    """The game's `Screen` the tab is on: one of the table's game, or a screen of the game being set up
    that needs no game yet (Monopoly Scrabble's board profile editor); None for a shell screen."""
    if app.screen in SHELL_SCREENS:
        return None
    game = app.game
    if game is not None:
        screen = game_ui(game.kind).screen(app.screen)
        if screen is not None:
            return screen
    kind = app.setup_kind()
    screen = game_ui(kind).screen(app.screen) if kind else None
    return screen if screen is not None and not screen.needs_game else None


@ft.component
def _nav(app: AppState, screen: str, role: str, kind: str) -> ft.Control:
    """The navigation row. Memoized on what it shows (the screen, the role, the table's game): a
    change of the game made on another tab, which redraws this tab from its root, skips it."""
    game = app.game
    own = game_screen(app)
    tools = tool_buttons(app)  # word lookup and the rack check: on every screen
    if game is None or screen in ("home", "setup") or (own is not None and not own.needs_game):
        return ft.Row(tools, wrap=True, spacing=0)
    join = ft.TextButton("Invite phones", on_click=lambda e: app.open_screen("join"))
    if role == "follower":
        return ft.Row([ft.TextButton("Home", on_click=lambda e: app.open_screen("home")), join, *tools], wrap=True,
                      spacing=0)
    buttons = [ft.TextButton(s.label, on_click=lambda e, k=s.key: app.open_screen(k))
               for s in game_ui(kind).screens if s.label]
    buttons += [ft.TextButton("Home", on_click=lambda e: app.open_screen("home")), join]
    return ft.Row(buttons + tools, wrap=True, spacing=0)


Nav = memo(_nav)


WIDE_SHELL_SCREENS = ("home", "setup", "follow")  # the shell's screens laid out for a wide page


def wide_screen(app: AppState, own: Any) -> bool:
    """Whether the screen on show uses a wide page (`layout`); the others keep the phone column."""
    return bool(own.wide) if own is not None else app.screen in WIDE_SHELL_SCREENS


def first_state(route: str, key: str = "") -> AppState:
    """A new tab's state from the address it opened: a table's address shows that table (watching, or as
    its referee when the tab `key` may change it: a referee's tab back on a new session, `Hub.reseat`);
    the home address shows the list of tables, or the only game in progress when there is just one."""
    game_id = table_from_path(route)
    if not game_id:
        open_games = HUB.open_tables()
        game_id = open_games[0].id if len(open_games) == 1 else ""
    game = HUB.table(game_id) if game_id else None
    if game is not None and HUB.is_referee(game, key):
        app = AppState(screen="follow", role="follower", session_key=key)
        app.open_table(game_id)
        return app
    if game is not None:
        return AppState(screen="follow", role="follower", table=game_id)
    app = AppState(screen="home", role="referee")
    if game_id:
        app.error = f"There is no game {game_id} on this server: pick a table below."
    return app


@ft.component
def App() -> ft.Control:
    page = ft.context.page

    def opening_state() -> AppState:
        return first_state(page.route, page.session.id if page.session is not None else "")

    def no_echoes() -> list[str]:
        return []

    # mypy cannot solve use_state's `StateT | Callable[[], StateT]` for an @ft.observable class (Never).
    app: AppState = ft.use_state(opening_state)[0]  # type: ignore[arg-type]
    _, redraw = ft.use_state(0)
    # How many times this tab's connection came back keeping its old controls: the screen's key, so it
    # is drawn again as new controls after such a drop (`client.SessionResume`, `reconnected` below).
    connection, set_connection = ft.use_state(0)
    # The addresses this tab pushed to the address bar whose echo (the browser's route change event) has
    # not come back yet: an echo arriving after the tab moved on must not move it back. (One list for the
    # tab's life, mutated in place.)
    pushed = ft.use_memo(no_echoes, [])

    async def bump() -> None:
        # Another tab changed this tab's game: redraw from this root, each component once. (Bumping
        # the observable instead scheduled every component holding `app` besides the root, and the
        # root then drew most of them a second time: measured with benchmarks/load.py.)
        app.note_change()
        redraw(lambda n: n + 1)

    def subscribe() -> None:
        key = page.session.id
        app.session_key = key
        HUB.subscribe(key, redraw_soon, app.table)

    def redraw_soon() -> None:
        page.run_task(bump)

    def reconnected() -> None:
        # A follower whose Wi-Fi dropped for a moment: its session (and this state) outlived the
        # connection, but the hub forgot it and Flet dropped the updates meanwhile. Watch the table
        # again and redraw it now, so it catches up without waiting for the next change. As new controls
        # only when the tab kept its old tree (`client.kept_its_tree`); a reloaded tab was sent the
        # server's own tree, and new controls would make a tap on what it just drew go nowhere.
        subscribe()
        if kept_its_tree(page.session.id):
            set_connection(lambda n: n + 1)
        page.run_task(bump)

    def route_changed(e: ft.RouteChangeEvent) -> None:
        # The address bar changed (back/forward, a typed or scanned address): show what it names.
        if e.route in pushed:
            del pushed[:pushed.index(e.route) + 1]  # our own push coming back, not the user's
            return
        wanted = table_from_path(e.route)
        if wanted and wanted != app.table:
            app.open_table(wanted)
        elif not wanted and app.table and app.screen != "setup":
            app.go("home")

    def resized(e: ft.PageResizeEvent) -> None:
        app.touch()  # the layout depends on the width (`layout.wide`)

    def mounted() -> None:
        subscribe()
        page.on_route_change = route_changed
        page.on_resize = resized
        # A tab whose connection dropped and came back within the session's lifetime keeps its session
        # (and this state): watch the table again (the hub forgot it when the connection dropped).
        page.on_connect = lambda e: reconnected()

    def unmounted() -> None:
        HUB.unsubscribe(page.session.id)

    ft.on_mounted(mounted)
    ft.on_unmounted(unmounted)

    async def show_address() -> None:
        # Also when an earlier push has not come back yet: page.route may still be the address before it.
        if page.route != path or pushed:
            pushed.append(path)
            del pushed[:-8]  # an echo that never came (the browser was already there) is dropped
            await page.push_route(path)

    path = app.path()
    ft.use_effect(lambda: page.run_task(show_address), [path])

    screen = app.screen
    own = game_screen(app)
    if screen == "setup":
        body: ft.Control = Setup(app)
    elif own is not None:
        body = own.view(app)
    elif screen == "verdict":
        body = VerdictScreen(app)
    elif screen == "join":
        body = JoinScreen(app)
    elif screen in SCREENS or screen in FULL_SCREENS:
        body = {**SCREENS, **FULL_SCREENS}[screen](app)
    elif screen == "follow":
        body = FollowScreen(app)
    else:
        body = Home(app)
    if screen == "verdict" or screen in FULL_SCREENS:
        # The ruling fills the screen so the whole table can read it; a tap (or a few seconds) closes it.
        return ft.SafeArea(key=f"connection-{connection}", expand=True, content=body)
    return ft.SafeArea(
        key=f"connection-{connection}",
        expand=True,
        # The container spans the page and centres the content column on it (a Column alone shrinks to
        # its content and sat in the top left corner of a laptop screen); on a phone the column's width
        # is capped by the screen's, so text still wraps.
        content=ft.Container(
            alignment=ft.Alignment.TOP_CENTER,
            expand=True,
            content=ft.Column(
                [ft.Container(content=ft.Column([Nav(app, screen, app.role, app.game.kind if app.game else ""),
                                                 Messages(app, HUB.store.error), body], spacing=8),
                              padding=10,
                              width=content_width(page.width if wide_screen(app, own) else None))],
                scroll=ft.ScrollMode.AUTO, expand=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
    )
