"""Phone or laptop: how wide the page is decides how a screen is laid out.

At phone width (under `WIDE` logical pixels) every screen is one column. On a laptop or a tablet held
sideways a screen puts its two parts side by side (`Split`: the board on the left, the players and the
controls on the right), so the width shows the board whole beside what is done with it instead of a
phone column in the middle of an empty page.
"""

from __future__ import annotations

import flet as ft

WIDE = 900  # logical px: a 15x15 board at its largest squares (590 px) plus a 300 px column beside it
MAX_WIDTH = 1280  # wider than this, lines of text get too long to read: the page stays centred
PHONE_COLUMN = 640  # the one-column layout's width (as before the wide layout)


def is_wide(page_width: float | None) -> bool:
    return (page_width or 0) >= WIDE


def wide() -> bool:
    """Is this tab's page wide enough for two columns? (Read in a component: the current page.)"""
    return is_wide(ft.context.page.width)


def content_width(page_width: float | None) -> float:
    """The width of the page's content column."""
    if not is_wide(page_width):
        return PHONE_COLUMN
    return min(MAX_WIDTH, float(page_width or MAX_WIDTH)) - 20


def split(main: list[ft.Control], before: list[ft.Control], after: list[ft.Control] | None = None,
          spacing: int = 10) -> ft.Control:
    """`main` (the board) and what goes with it (players, status, controls): side by side on a wide page
    (`before` then `after` in the right-hand column), else one column `before`, `main`, `after`, the
    order the phone layout always had."""
    after = after or []
    if not wide():
        return ft.Column([*before, *main, *after], spacing=spacing)
    return ft.Row([ft.Column(main, spacing=spacing, tight=True),
                   ft.Column([*before, *after], spacing=spacing, expand=True)],
                  spacing=20, vertical_alignment=ft.CrossAxisAlignment.START)


def side_by_side(left: list[ft.Control], right: list[ft.Control], spacing: int = 10) -> ft.Control:
    """Two halves of a screen (e.g. the final table and its chart): two equal columns on a wide page,
    else one column, `left` first."""
    if not wide():
        return ft.Column([*left, *right], spacing=spacing)
    return ft.Row([ft.Column(left, spacing=spacing, expand=True), ft.Column(right, spacing=spacing, expand=True)],
                  spacing=24, vertical_alignment=ft.CrossAxisAlignment.START)


def split_flex(main: list[ft.Control], before: list[ft.Control], after: list[ft.Control] | None = None,
               main_flex: int = 1, side_flex: int = 1, spacing: int = 10) -> ft.Control:
    """As `split` (the phone order `before`, `main`, `after`), but on a wide page the two columns share
    the width `main_flex` to `side_flex` instead of `main` taking its content's width: for a main part
    with no width of its own (the players' sides of a card table, lists that wrap)."""
    after = after or []
    if not wide():
        return ft.Column([*before, *main, *after], spacing=spacing)
    return ft.Row([ft.Column(main, spacing=spacing, expand=main_flex),
                   ft.Column([*before, *after], spacing=spacing, expand=side_flex)],
                  spacing=20, vertical_alignment=ft.CrossAxisAlignment.START)


def column_width(fraction: float) -> float | None:
    """On a wide page, `fraction` of the content column's width: the width to give a part with no width
    of its own drawn where the width is not bounded (in `split`'s main column, which takes its content's
    width); None on a phone (the phone column bounds it)."""
    page_width = ft.context.page.width
    if not is_wide(page_width):
        return None
    return int(content_width(page_width) * fraction)
