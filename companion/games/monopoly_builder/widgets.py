"""Small pieces the Monopoly Builder screens share: resource chips drawn in their colours, a chip
counter with minus/plus taps (discards, payments, trades), a heading, a boxed list of sentences."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

import flet as ft

RESOURCE_HEX = {"red": "#D32F2F", "purple": "#7B1FA2", "green": "#388E3C", "yellow": "#F9A825"}


def resource_hex(colour: str) -> str:
    return RESOURCE_HEX.get(colour, "#757575")


def chip(colour: str, count: int, size: int = 13) -> ft.Control:
    """'3 red' on the colour itself (white text, dark text on yellow for contrast)."""
    return ft.Container(
        padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=10, bgcolor=resource_hex(colour),
        content=ft.Text(f"{count} {colour}", size=size, color="#212121" if colour == "yellow" else "#FFFFFF",
                        weight=ft.FontWeight.BOLD))


def chips_row(chips: Mapping[str, int], colours: list[str], empty: str = "no resources") -> ft.Control:
    shown = [chip(c, chips.get(c, 0)) for c in colours if chips.get(c, 0)]
    return ft.Row(shown or [ft.Text(empty, size=13, italic=True)], wrap=True, spacing=4, run_spacing=4)


def heading(text: str) -> ft.Control:
    return ft.Text(text, size=16, weight=ft.FontWeight.BOLD)


def boxed(identifier: str, lines: list[str], bg: str = "#F1F8E9", bold_first: bool = False) -> ft.Control:
    texts: list[ft.Control] = [ft.Text(line, size=13, weight=ft.FontWeight.BOLD if bold_first and i == 0 else ft.FontWeight.NORMAL)
             for i, line in enumerate(lines)]
    return ft.Semantics(identifier=identifier, content=ft.Container(
        bgcolor=bg, padding=8, border_radius=6, content=ft.Column(texts, spacing=2, tight=True)))


def tap_box(identifier: str, label: str, icon: ft.IconData, on_tap: Callable[[], None]) -> ft.Control:
    """A small square button with an icon, found in tests by its identifier."""
    return ft.Semantics(identifier=identifier, label=label, button=True, content=ft.Container(
        width=40, height=36, border_radius=6, bgcolor="#ECEFF1", alignment=ft.Alignment.CENTER,
        content=ft.Icon(icon, size=20, color="#37474F"), on_click=lambda e: on_tap()))


def chip_stepper(ident: str, colours: list[str], draft: dict[str, int], limit: Mapping[str, int] | None,
                 on_change: Callable[[], None]) -> ft.Control:
    """One line per colour: the count in the draft with minus and plus taps (identifiers
    `{ident}-{colour}-minus` / `-plus`). `limit`: the most of each colour that can be chosen (None: no limit)."""

    def step(colour: str, by: int) -> None:
        value = draft.get(colour, 0) + by
        top = limit.get(colour, 0) if limit is not None else 99
        draft[colour] = max(0, min(top, value))
        on_change()

    rows: list[ft.Control] = []
    for c in colours:
        if limit is not None and not limit.get(c, 0) and not draft.get(c, 0):
            continue  # a colour the player does not hold: nothing to choose
        rows.append(ft.Row([
            ft.Container(width=78, content=chip(c, draft.get(c, 0))),
            tap_box(f"{ident}-{c}-minus", f"one {c} less", ft.Icons.REMOVE, partial(step, c, -1)),
            tap_box(f"{ident}-{c}-plus", f"one {c} more", ft.Icons.ADD, partial(step, c, 1)),
        ] + ([ft.Text(f"has {limit.get(c, 0)}", size=12)] if limit is not None else []), spacing=4, tight=True))
    return ft.Column(rows or [ft.Text("No resources.", size=12, italic=True)], spacing=2, tight=True)
