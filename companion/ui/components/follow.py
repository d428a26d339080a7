"""A follower's tab, read-only and live: the players, the latest ruling, whose turn it is, then the game's
own follower view (`GameUI.follower`: the board, money...), side by side on a wide page; and the way to
referee this table from this device (its PIN)."""

from __future__ import annotations

import asyncio
import time

import flet as ft

from companion.ui.components.layout import split
from companion.ui.components.players import PlayersStrip
from companion.ui.components.watch import WatchFollower
from companion.ui.flet_typed import memo
from companion.ui.hub import HUB
from companion.ui.models import AppState, game_ui

VERDICT_SECONDS = 8


@ft.component
def FollowScreen(app: AppState) -> ft.Control:
    game = app.game
    _, redraw = ft.use_state(0)
    shown_at = game.last_verdict_at if game is not None else 0.0

    async def expire() -> None:
        # Take the ruling banner down after its time even if nothing else happens at the table.
        await asyncio.sleep(max(0.0, shown_at + VERDICT_SECONDS - time.time()) + 0.2)
        redraw(lambda x: x + 1)

    ft.use_effect(lambda: ft.context.page.run_task(expire) if shown_at else None, [shown_at])
    if game is None:
        return ft.Column([ft.Text("Waiting for a game to start...", size=18)])
    items: list[ft.Control] = [ft.Text("Watching (read-only)", size=14, italic=True), PlayersStrip(app)]
    verdict = game.last_verdict
    if verdict is not None and time.time() - game.last_verdict_at < VERDICT_SECONDS:
        items.append(ft.Container(
            bgcolor="#2E7D32" if verdict.acceptable else "#C62828", padding=10, border_radius=8,
            content=ft.Text(("ACCEPTABLE " if verdict.acceptable else "UNACCEPTABLE ") + " ".join(verdict.words),
                            color="#FFFFFF", size=20, weight=ft.FontWeight.BOLD)))
    current = game.current_player
    if game.finished:
        items.append(ft.Semantics(identifier="follow-status", content=ft.Text(
            "Game over. Winner: " + " and ".join(game.winner()), size=18, weight=ft.FontWeight.BOLD)))
    elif current:
        items.append(ft.Semantics(identifier="follow-status", content=ft.Text(
            f"{current} {game.doing()}", size=18, weight=ft.FontWeight.BOLD)))
    items.append(WatchFollower(app))  # a table watched by a camera: what the watcher sees, as it happens
    pin = HUB.store.has_pin(game) and not HUB.is_referee(game, app.session_key)
    return split([game_ui(game.kind).follower(app)], items, [TakeOver(app, pin)])


@ft.component
def _take_over(app: AppState, pin: bool) -> ft.Control:
    """Referee this table from this device: with the game's referee PIN when it has one (`pin`: the hub
    checks it, and checks again on every change this tab makes). Memoized: the game's changes skip it."""
    items: list[ft.Control] = []
    if pin:
        items.append(ft.TextField(label="Referee PIN", password=True, width=160, dense=True,
                                  keyboard_type=ft.KeyboardType.NUMBER,
                                  on_change=lambda e: setattr(app.form, "pin_try", e.control.value),
                                  on_submit=lambda e: app.take_over()))
    items.append(ft.OutlinedButton("Referee this game", on_click=lambda e: app.take_over()))
    return ft.Row(items, wrap=True)


TakeOver = memo(_take_over)
