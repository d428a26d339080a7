"""Correct one square of the board read: a letter, a blank naming a letter, or no tile."""

from __future__ import annotations

import flet as ft

from companion.ui.models import AppState

COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@ft.component
def Correction(app: AppState) -> ft.Control:
    assert app.selected is not None and app.read_rows is not None
    r, c = app.selected
    f = app.form
    shown = app.read_rows[r][c]
    now = "no tile" if shown == "." else ("a blank" if shown == "?" else
                                         (f"blank as {shown.upper()}" if shown.islower() else shown))
    return ft.Semantics(identifier="correction", content=ft.Container(
        bgcolor="#FFF8E1", padding=8, border_radius=6,
        content=ft.Column([
            ft.Text(f"Square {COLS[c]}{r + 1}: read as {now}", weight=ft.FontWeight.BOLD),
            ft.TextField(label="Letter", value=f.letter, width=90, dense=True, max_length=1,
                         capitalization=ft.TextCapitalization.CHARACTERS,
                         on_change=lambda e: setattr(f, "letter", e.control.value),
                         on_submit=lambda e: app.correct(f.letter)),
            ft.Row([
                ft.FilledButton("Set letter", on_click=lambda e: app.correct(f.letter)),
                ft.OutlinedButton("Blank as letter", on_click=lambda e: app.correct(f.letter, blank=True)),
                ft.OutlinedButton("No tile here", on_click=lambda e: app.correct("")),
                ft.TextButton("Cancel", on_click=lambda e: app.select_none()),
            ], wrap=True),
        ], tight=True, spacing=6)))
