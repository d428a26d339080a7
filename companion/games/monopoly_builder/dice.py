"""The dice pad (Monopoly Builder): a roll of two dice entered in one tap, or rolled by the app.

The order of the two dice never matters to the rules (only their total and whether they match), so the
pad offers the 21 unordered pairs, one row per lower die: the doubles open each row in amber, so a
double is seen on the button before it is tapped and on the turn line after. `on_roll(a, b)` is called
with the two dice. (When the table lets the app roll, the turn shows one button instead:
`BuilderTable.roll_app`.)"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.ui.flet_typed import memo

DOUBLE_BG = "#FFB300"
PLAIN_BG = "#ECEFF1"


@ft.component
def _pad(label: str, on_roll: Callable[[int, int], object], disabled: bool,
         legend: str = "doubles: roll again (three in a row: Jail)") -> ft.Control:
    rows: list[ft.Control] = []
    for a in range(1, 7):
        buttons: list[ft.Control] = []
        for b in range(a, 7):
            double = a == b
            buttons.append(ft.Semantics(identifier=f"dice-{a}-{b}", button=not disabled,
                                        label=f"Dice {a} and {b}" + (" doubles" if double else ""),
                                        content=ft.Container(
                width=48, height=40, border_radius=6, alignment=ft.Alignment.CENTER,
                bgcolor=DOUBLE_BG if double else PLAIN_BG,
                border=ft.Border.all(1, "#90A4AE"),
                on_click=None if disabled else (lambda e, a=a, b=b: on_roll(a, b)),
                content=ft.Text(f"{a}+{b}", size=15, weight=ft.FontWeight.BOLD if double else ft.FontWeight.NORMAL,
                                color="#212121"))))
        rows.append(ft.Row(buttons, spacing=4, tight=True))
    return ft.Column([ft.Text(label, size=13), *rows,
                      ft.Row([ft.Container(width=14, height=14, bgcolor=DOUBLE_BG, border_radius=3),
                              ft.Text(legend, size=12)], spacing=6)],
                     spacing=4, tight=True)


DicePad = memo(_pad)
