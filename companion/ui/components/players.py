"""Who is playing: what each game shows per player (`chip_lines`: score, cash...), whose turn it is,
game clocks."""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from companion.ui import theme
from companion.ui.flet_typed import memo
from companion.ui.models import AppState


def _clock(seconds: float, limit_minutes: int | None) -> str:
    if limit_minutes is None:
        return ""
    left = limit_minutes * 60 - seconds
    sign = "-" if left < 0 else ""
    left = abs(int(left))
    return f"{sign}{left // 60}:{left % 60:02d}"


@ft.component
def PlayersStrip(app: AppState) -> ft.Control:
    game = app.game
    _tick, set_tick = ft.use_state(0)

    async def ticker() -> None:
        while True:
            await asyncio.sleep(1)
            g = app.game
            if g is not None and g.clocks is not None and not g.clocks.paused():
                set_tick(lambda t: t + 1)

    def start() -> Any:
        running = ft.context.page.run_task(ticker)
        return running.cancel  # stopped when the strip leaves the page (each screen change mounts a new one)

    ft.use_effect(start, [])
    if game is None:
        return ft.Container()
    current = game.current_player
    chips = []
    for i, p in enumerate(game.players):
        clock = None
        if game.clocks is not None:
            penalty = game.overtime_penalty(p)
            clock = _clock(game.clock_seconds(p), game.clock_minutes) + (f" (-{penalty})" if penalty else "")
        chips.append(PlayerChip(i, p, tuple(game.chip_lines(p)), clock, game.doing() if p == current else "",
                                theme.token(game.colour(p))))
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


@ft.component
def _player_chip(index: int, name: str, details: tuple[str, ...], clock: str | None, doing: str,
                 colour: str) -> ft.Control:
    """One player's chip; `doing`: what the player who acts now does ("to play", "to answer"...), empty
    for the others. Plain props, so `ft.memo` skips the chips an update (or a clock tick of another
    player) did not change."""
    lines: list[ft.Control] = [ft.Text(name, weight=ft.FontWeight.BOLD, size=14, color="#FFFFFF")]
    lines += [ft.Text(d, size=13, color="#FFFFFF") for d in details]
    if clock is not None:
        lines.append(ft.Text(clock, size=12, color="#FFFFFF"))
    if doing:
        lines.append(ft.Text(doing, size=11, italic=True, color="#FFFFFF"))
    return ft.Semantics(identifier=f"player-{index}", content=ft.Container(
        padding=6, border_radius=8, bgcolor=colour,
        border=ft.Border.all(3, "#000000") if doing else None,
        content=ft.Column(lines, spacing=0, tight=True)))


PlayerChip = memo(_player_chip)
