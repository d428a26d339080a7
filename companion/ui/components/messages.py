"""The one line that says what just happened or what went wrong, in plain words."""

from __future__ import annotations

import flet as ft

from companion.ui.flet_typed import memo
from companion.ui.models import AppState


@ft.component
def _messages(app: AppState, store_error: str) -> ft.Control:
    """Memoized on the store's error line (the tab's own lines notify it through `app`): a change made
    on another tab, which redraws this tab from its root, skips it."""
    items: list[ft.Control] = []
    if store_error:
        items.append(ft.Semantics(identifier="save-error", content=ft.Container(
            bgcolor="#FFEBEE", padding=8, border_radius=6,
            content=ft.Text(store_error, color="#B71C1C", weight=ft.FontWeight.BOLD))))
    if app.busy:
        items.append(ft.Row([ft.ProgressRing(width=18, height=18), ft.Text(app.busy)]))
    if app.error:
        items.append(ft.Semantics(identifier="error", content=ft.Container(
            bgcolor="#FFEBEE", padding=8, border_radius=6,
            content=ft.Text(app.error, color="#B71C1C", weight=ft.FontWeight.BOLD))))
    if app.info:
        items.append(ft.Semantics(identifier="info", content=ft.Container(
            bgcolor="#E8F5E9", padding=8, border_radius=6, content=ft.Text(app.info, color="#1B5E20"))))
    return ft.Column(items, spacing=4, tight=True)


Messages = memo(_messages)
