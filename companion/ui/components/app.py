"""The root component: one AppState per tab, a navigation row, the screen of the moment."""

from __future__ import annotations

import flet as ft

from companion.games.classic.scoresheet import Scoresheet
from companion.ui.components.end_game import EndScreen
from companion.ui.components.follow import FollowScreen
from companion.ui.components.home import Home
from companion.ui.components.messages import Messages
from companion.ui.components.setup import Setup
from companion.ui.components.turn import TurnScreen
from companion.ui.components.verdict import VerdictScreen
from companion.ui.hub import HUB
from companion.ui.models import AppState


def _nav(app: AppState) -> ft.Control:
    game = app.game
    if game is None or app.screen in ("home", "setup", "profile"):
        return ft.Container()
    if app.role == "follower":
        return ft.Row([ft.TextButton("Home", on_click=lambda e: app.go("home"))])
    buttons = [ft.TextButton("Turn", on_click=lambda e: app.go("turn"))]
    if game.kind == "classic":
        buttons.append(ft.TextButton("Scoresheet", on_click=lambda e: app.go("sheet")))
    else:
        buttons.append(ft.TextButton("Bank", on_click=lambda e: app.go("bank")))
    buttons.append(ft.TextButton("End", on_click=lambda e: app.go("end")))
    buttons.append(ft.TextButton("Home", on_click=lambda e: app.go("home")))
    return ft.Row(buttons, wrap=True, spacing=0)


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
    if screen == "setup":
        body: ft.Control = Setup(app)
    elif screen == "turn" and app.game is not None:
        body = TurnScreen(app)
    elif screen == "sheet" and app.game is not None:
        body = Scoresheet(app)
    elif screen == "bank" and app.game is not None:
        from companion.games.monopoly_scrabble.bank import BankScreen

        body = BankScreen(app)
    elif screen == "end" and app.game is not None:
        body = EndScreen(app)
    elif screen == "profile":
        from companion.games.monopoly_scrabble.profile_editor import ProfileEditor

        body = ProfileEditor(app)
    elif screen == "verdict":
        body = VerdictScreen(app)
    elif screen == "follow":
        body = FollowScreen(app)
    else:
        body = Home(app)
    if screen == "verdict":
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
