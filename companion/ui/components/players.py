"""Who is playing: scores (or cash), whose turn it is, game clocks."""

from __future__ import annotations

import asyncio

import flet as ft

from companion.ui import theme
from companion.ui.models import AppState


def _clock(seconds: float, limit_minutes: int | None) -> str:
    if limit_minutes is None:
        return ""
    left = limit_minutes * 60 - seconds
    sign = "-" if left < 0 else ""
    left = abs(int(left))
    return f"{sign}{left // 60}:{left % 60:02d}"


@ft.component
def PlayersStrip(app: AppState):
    game = app.game
    _tick, set_tick = ft.use_state(0)

    async def ticker():
        while True:
            await asyncio.sleep(1)
            g = app.game
            if g is not None and g.clocks is not None and not g.clocks.paused():
                set_tick(lambda t: t + 1)

    ft.on_mounted(lambda: ft.context.page.run_task(ticker))
    if game is None:
        return ft.Container()
    scores = game.scores()
    cash = game.cash() if hasattr(game, "cash") else None
    current = game.current_player
    chips = []
    for p in game.players:
        lines = [ft.Text(p, weight=ft.FontWeight.BOLD, size=14, color="#FFFFFF")]
        lines.append(ft.Text(f"{scores.get(p, 0)} pts", size=13, color="#FFFFFF"))
        if cash is not None:
            lines.append(ft.Text(theme.money(cash.get(p, 0)), size=13, color="#FFFFFF"))
        if game.clocks is not None:
            label = _clock(game.clock_seconds(p), game.clock_minutes)
            penalty = game.overtime_penalty(p)
            lines.append(ft.Text(label + (f" (-{penalty})" if penalty else ""), size=12, color="#FFFFFF"))
        if p == current:
            lines.append(ft.Text("to play", size=11, italic=True, color="#FFFFFF"))
        chips.append(ft.Semantics(identifier=f"player-{game.players.index(p)}", content=ft.Container(
            padding=6, border_radius=8, bgcolor=theme.token(game.colour(p)),
            border=ft.Border.all(3, "#000000") if p == current else None,
            content=ft.Column(lines, spacing=0, tight=True))))
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)
