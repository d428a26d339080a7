""""Can anyone still play?": a player types their rack (on their own phone, a follower's tab will do, or
the referee does) and the app answers yes or no on the board as it is now, with the move generator.
The play stays hidden unless the player asks ("Show my best play", for learning).

Offered for any game whose table can answer (`supports_rack_check`: the word-board table's
`rack_check`), never by the game's name. Asking changes nothing in the game; the rack stays on this tab.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.ui.models import AppState
from companion.ui.table import TableError


def supports_rack_check(game: Any) -> bool:
    """Can this table answer "can this rack play?" (the word-board games' tables can)."""
    return game is not None and callable(getattr(game, "rack_check", None))


@dataclass
class RackDraft:
    rack: str = ""
    answer: Any = None  # companion.rack_check.RackAnswer
    error: str = ""
    busy: bool = False
    seen: tuple[str, int] | None = None  # the game (id, moves) the answer is about
    back: str = "home"


def draft(app: AppState) -> RackDraft:
    found: RackDraft = app.form.tools.setdefault("rack", RackDraft())
    return found


def open_rack_check(app: AppState) -> None:
    d = draft(app)
    if app.screen != "rack":
        d.back = app.screen
    app.go("rack")


async def ask(app: AppState, best: bool = False) -> None:
    """The move generator runs in a worker thread (a two-blank rack can take tens of milliseconds)."""
    game = app.game
    d = draft(app)
    if not supports_rack_check(game):
        return
    d.busy = True
    d.error = ""
    app.touch()
    seen = (game.id, game.moves)
    try:
        answer = await asyncio.get_running_loop().run_in_executor(None, game.rack_check, d.rack, best)
    except TableError as exc:
        d.answer, d.error = None, str(exc)
    else:
        d.answer, d.seen = answer, seen
    d.busy = False
    app.touch()


@ft.component
def RackCheckScreen(app: AppState) -> ft.Control:
    game = app.game
    d = draft(app)
    back = ft.TextButton("Back", on_click=lambda e: app.open_screen(d.back if d.back != "rack" else "home"))
    if not supports_rack_check(game):
        return ft.Column([ft.Text("There is no word board on the table to check a rack against."), back])
    async def on_ask() -> None:
        await ask(app)

    async def on_best() -> None:
        await ask(app, best=True)

    answer = d.answer
    if answer is not None and d.seen != (game.id, game.moves):
        answer = d.answer = None  # the board changed since: the old answer no longer holds
    items: list[ft.Control] = [
        ft.Text("Can anyone still play?", size=24, weight=ft.FontWeight.BOLD),
        ft.Text("Type your rack (? for a blank). The app answers yes or no on the board as it is now; "
                "your play stays hidden unless you ask for it. Nothing in the game changes.", size=13),
        ft.TextField(label="Rack", value=d.rack, autofocus=True, dense=True, width=220,
                     capitalization=ft.TextCapitalization.CHARACTERS,
                     on_change=lambda e: setattr(d, "rack", e.control.value),
                     on_submit=on_ask),
        ft.Row([ft.FilledButton("Can I play?", on_click=on_ask), back], wrap=True),
    ]
    if d.busy:
        items.append(ft.Text("Looking...", italic=True))
    if d.error:
        items.append(ft.Semantics(identifier="rack-error", content=ft.Text(d.error, color="#B71C1C")))
    if answer is not None:
        items.append(ft.Semantics(identifier="rack-answer", content=ft.Container(
            bgcolor="#2E7D32" if answer.can_play else "#C62828", padding=14, border_radius=8,
            content=ft.Text(answer.sentence, size=20, weight=ft.FontWeight.BOLD, color="#FFFFFF"))))
        if answer.best is not None:
            items.append(ft.Semantics(identifier="best-play", content=ft.Text(
                answer.best_sentence, size=18, weight=ft.FontWeight.BOLD)))
        elif answer.can_play:
            items.append(ft.OutlinedButton("Show my best play", icon=ft.Icons.LIGHTBULB_OUTLINE,
                                           on_click=on_best))
    return ft.Column(items, spacing=10)
