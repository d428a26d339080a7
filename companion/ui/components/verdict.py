"""Full-screen ruling on a challenge: one verdict for the whole play, the word list named."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import flet as ft

from companion.ui.adapters import Verdict
from companion.ui.models import AppState


@ft.component
def VerdictScreen(app: AppState) -> ft.Control:
    verdict = app.verdict

    async def clear_later() -> None:
        await asyncio.sleep(6)
        if app.screen == "verdict":
            app.close_verdict()

    ft.on_mounted(lambda: ft.context.page.run_task(clear_later))
    if verdict is None:
        return ft.Container()
    game = app.game
    consequence = ""
    if game is not None and game.notice:
        consequence = game.notice
    return RulingPanel(verdict, consequence, app.close_verdict)


def RulingPanel(verdict: Verdict, consequence: str, on_close: Callable[[], None]) -> ft.Control:
    """The ruling as the whole table reads it: ACCEPTABLE or UNACCEPTABLE, the words, the word list named.
    Shared by a challenge and the word lookup (`components/lookup.py`), so both look the same."""
    ok = verdict.acceptable
    return ft.Semantics(identifier="verdict", content=ft.Container(
        expand=True, bgcolor="#2E7D32" if ok else "#C62828", padding=24,
        on_click=lambda e: on_close(),
        content=ft.Column([
            # 44 px broke UNACCEPTABLE in two at phone width (360 px): smaller there, whole word on one line.
            ft.Text("ACCEPTABLE" if ok else "UNACCEPTABLE", size=44 if (ft.context.page.width or 360) >= 480 else 34,
                    weight=ft.FontWeight.BOLD, color="#FFFFFF", no_wrap=True),
            ft.Text(" ".join(verdict.words), size=28, color="#FFFFFF"),
            ft.Text(f"Word list: {verdict.lexicon}", size=16, color="#FFFFFF"),
            ft.Text(consequence, size=16, color="#FFFFFF"),
            ft.Text("Tap to close (closes by itself in a few seconds).", size=12, color="#FFFFFF"),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER, spacing=16),
        alignment=ft.Alignment.CENTER))
