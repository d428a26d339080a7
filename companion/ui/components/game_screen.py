"""What every game's screens share around their own content: the placeholder until a game is open
(`game_screen`) and the winner's banner at the end (`winner_banner`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.ui.models import AppState

WINNER_GREEN = "#1B5E20"


def game_screen(screen: Callable[[AppState, Any], ft.Control]) -> Callable[[AppState], ft.Control]:
    """A screen of the open game: "No game yet." until one is open, else `screen(app, game)`, where the
    screen names the game's table type in its signature (`game: DealTable`). Put under `@ft.component`;
    a screen that calls hooks (`ft.use_state`...) keeps its own check, so that its hooks run on every draw."""

    @functools.wraps(screen)
    def draw(app: AppState) -> ft.Control:
        game = app.game
        if game is None:
            return ft.Text("No game yet.")
        return screen(app, game)

    return draw


def winner_banner(text: str) -> ft.Control:
    """The end screen's headline ("Winner: Ann", "Tie: Ann and Bob"...), found by tests as `winner`."""
    return ft.Semantics(identifier="winner", content=ft.Text(text, size=26, weight=ft.FontWeight.BOLD,
                                                             color=WINNER_GREEN))
