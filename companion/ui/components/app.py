"""The root component: one AppState per tab, a navigation row, the screen of the moment.

The shell's own screens are home, setup, follow and verdict; every other screen is the game's
(`GameUI.screens`, found in the registry by the game's id), so this file names no game.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui.components.follow import FollowScreen
from companion.ui.components.home import Home
from companion.ui.components.messages import Messages
from companion.ui.components.setup import Setup
from companion.ui.components.tools import FULL_SCREENS, SCREENS, tool_buttons
from companion.ui.components.verdict import VerdictScreen
from companion.ui.hub import HUB
from companion.ui.models import AppState, game_ui

SHELL_SCREENS = ("home", "setup", "follow", "verdict", *SCREENS, *FULL_SCREENS)


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


def _nav(app: AppState) -> ft.Control:
    game = app.game
    screen = game_screen(app)
    tools = tool_buttons(app)  # word lookup and the rack check: on every screen
    if game is None or app.screen in ("home", "setup") or (screen is not None and not screen.needs_game):
        return ft.Row(tools, wrap=True, spacing=0)
    if app.role == "follower":
        return ft.Row([ft.TextButton("Home", on_click=lambda e: app.go("home")), *tools], wrap=True, spacing=0)
    buttons = [ft.TextButton(s.label, on_click=lambda e, k=s.key: app.go(k))
               for s in game_ui(game.kind).screens if s.label]
    buttons.append(ft.TextButton("Home", on_click=lambda e: app.go("home")))
    return ft.Row(buttons + tools, wrap=True, spacing=0)


@ft.component
def App():
    app, _ = ft.use_state(lambda: AppState(screen="follow" if HUB.game is not None else "home",
                                           role="follower" if HUB.game is not None else "referee"))
    page = ft.context.page

    def mounted():
        key = page.session.id
        app.session_key = key

        async def bump():
            app.refresh()

        HUB.subscribe(key, lambda: page.run_task(bump))

    def unmounted():
        HUB.unsubscribe(page.session.id)

    ft.on_mounted(mounted)
    ft.on_unmounted(unmounted)

    screen = app.screen
    own = game_screen(app)
    if screen == "setup":
        body: ft.Control = Setup(app)
    elif own is not None:
        body = own.view(app)
    elif screen == "verdict":
        body = VerdictScreen(app)
    elif screen in SCREENS or screen in FULL_SCREENS:
        body = {**SCREENS, **FULL_SCREENS}[screen](app)
    elif screen == "follow":
        body = FollowScreen(app)
    else:
        body = Home(app)
    if screen == "verdict" or screen in FULL_SCREENS:
        # The ruling fills the screen so the whole table can read it; a tap (or a few seconds) closes it.
        return ft.SafeArea(expand=True, content=body)
    return ft.SafeArea(
        expand=True,
        content=ft.Column(
            [ft.Container(content=ft.Column([_nav(app), Messages(app), body], spacing=8),
                          padding=10, width=640)],
            scroll=ft.ScrollMode.AUTO, expand=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    )
