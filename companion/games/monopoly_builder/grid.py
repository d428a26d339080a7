"""The building grid (Monopoly Builder): Monopoly Island's foundations as the board prints them, each
building in its owner's colour with its height, the penthouse marked. The referee taps a foundation to
build the next floor there for the player whose turn it is; the engine checks and takes the cost. The
profile editor draws the same grid with every cell tappable (a foundation or not).

Each cell is drawn from plain values (`Site`, from the table), memoized, so a change redraws only the
cells it touched. Cells are found in tests by `[flt-semantics-identifier="site-A1"]` (column letter, row
number, as the engine names foundations)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.games.monopoly_builder.table import Site
from companion.ui import theme
from companion.ui.components.layout import is_wide
from companion.ui.flet_typed import memo

EMPTY_FOUNDATION = "#D7CCC8"
PENTHOUSE_RING = "#FFD600"
PICKED_RING = "#000000"


WIDE_CELL = 80  # px: on a laptop the grid has half the page; larger squares read across the table


def cell_size(page_width: float | None, cols: int) -> int:
    width = page_width or 360
    if is_wide(width):  # the grid beside the turn: up to half the page
        return int(max(26, min(WIDE_CELL, (min(width / 2, 620) - 40) // max(1, cols))))
    return int(max(26, min(50, (min(width, 620) - 40) // max(1, cols))))


def grid_width(page_width: float | None, cols: int) -> int:
    """The drawn width of a grid of `cols` columns (the row numbers, the cells and the gaps between)."""
    return 14 + cols * (cell_size(page_width, cols) + 2)


@ft.component
def _site(site: Site, size: int, picked: bool, tap: Callable[[int, int], None] | None) -> ft.Control:
    if site.kind == "none":
        body: ft.Control | None = None
        bg = "#FFFFFF"
    elif site.kind == "empty":
        body = ft.Container(width=size * 0.22, height=size * 0.22, border_radius=size, bgcolor="#8D6E63")
        bg = EMPTY_FOUNDATION
    else:
        body = ft.Text("P" if site.penthouse else str(site.height), size=size * 0.45, weight=ft.FontWeight.BOLD,
                       color="#FFFFFF")
        bg = theme.token(site.colour)
    ring, width = "#A1887F", 1.0
    if site.penthouse:
        ring, width = PENTHOUSE_RING, 4.0
    if picked:
        ring, width = PICKED_RING, 3.0
    box = ft.Container(
        width=size, height=size, bgcolor=bg, alignment=ft.Alignment.CENTER, border_radius=4,
        border=ft.Border.all(width, ring), content=body,
        on_click=(lambda e: tap(site.row, site.col)) if tap is not None else None,
    )
    # The key changes when the cell becomes tappable (or stops): Flutter's web engine then draws a new
    # semantics node, which carries the identifier. Updated in place from read-only to a button, the node
    # lost its identifier in Chromium (seen on a laptop-width page, where the grid is in view from the start).
    return ft.Semantics(identifier=f"site-{site.cell}", label=site.label, button=tap is not None, content=box,
                        key=f"site-{site.cell}-{'tap' if tap is not None else 'view'}")


SiteCell = memo(_site)


@ft.component
def BuildingGrid(sites: tuple[tuple[Site, ...], ...], on_tap: Callable[[int, int], None] | None = None,
                 picked: str = "", editing: bool = False) -> ft.Control:
    """`sites`: the grid row by row; `on_tap(row, col)` when a foundation is tapped (every cell while
    `editing`; None: read-only); `picked`: the foundation chosen (ringed in black)."""
    cols = max((len(r) for r in sites), default=1)
    size = cell_size(ft.context.page.width, cols)
    letters = ft.Row([ft.Container(width=14), *(
        ft.Container(width=size, content=ft.Text(chr(65 + c), size=10, text_align=ft.TextAlign.CENTER))
        for c in range(cols))], spacing=2, tight=True)
    rows = [ft.Row([ft.Container(width=14, height=size, alignment=ft.Alignment.CENTER_RIGHT,
                                 content=ft.Text(str(r + 1), size=10))]
                   + [SiteCell(s, size, s.cell == picked, on_tap if (editing or s.kind != "none") else None)
                      for s in row], spacing=2, tight=True)
            for r, row in enumerate(sites)]
    return ft.Column([letters, *rows], spacing=2, tight=True)
