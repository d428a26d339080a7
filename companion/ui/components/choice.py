"""A row of options, the chosen one filled: easy to tap on a phone, easy to find by name in tests."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft


@ft.component
def Choice(options: list[tuple[str, str]], value: str, on_pick: Callable[[str], None]) -> ft.Control:
    buttons: list[ft.Control] = []
    for key, label in options:
        if key == value:
            buttons.append(ft.FilledButton(label, on_click=lambda e, k=key: on_pick(k)))
        else:
            buttons.append(ft.OutlinedButton(label, on_click=lambda e, k=key: on_pick(k)))
    return ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)
