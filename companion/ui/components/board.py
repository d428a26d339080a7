"""The board: premium squares, tiles, the latest read (new tiles, low-confidence squares), tokens."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.rules.board import Board, Layout
from companion.ui import theme
from companion.ui.flet_typed import memo
from companion.ui.models import AppState

COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOW_CONFIDENCE = 0.6


def _cell_size(page_width: float | None, size: int) -> int:
    width = page_width or 360
    return int(max(20, min(38, (min(width, 620) - 40) // size)))


@ft.component
def _board_cell(r: int, c: int, cell: int, bg: str, border_width: float, border_colour: str, text: str,
                letter_style: str, centre: bool, label: str, tap: Callable[[int, int], None] | None) -> ft.Control:
    """One square. Every prop is a plain value (or the same bound method each time), so `ft.memo`
    skips the squares an update did not change: a follower's re-render then rebuilds and diffs a few
    squares instead of all 225 (Semantics + Container + Text each)."""
    is_letter = letter_style != "label"
    content = ft.Container(
        width=cell,
        height=cell,
        bgcolor=bg,
        alignment=ft.Alignment.CENTER,
        border=ft.Border.all(border_width, border_colour),
        content=ft.Icon(ft.Icons.STAR, size=cell * 0.7, color="#FFFFFF") if centre else ft.Text(
            text,
            size=(cell * 0.55) if is_letter else cell * 0.3,
            weight=ft.FontWeight.BOLD if is_letter else ft.FontWeight.NORMAL,
            color=("#C62828" if letter_style == "blank" else "#212121") if is_letter else "#FFFFFF",
            italic=letter_style == "blank",
        ),
        on_click=(lambda e: tap(r, c)) if tap is not None else None,
    )
    return ft.Semantics(identifier=f"cell-{r}-{c}", label=label, button=tap is not None, content=content)


BoardCell = memo(_board_cell)

CellProps = tuple[int, str, float, str, str, str, bool, str]  # col, bg, border w/colour, text, style, centre, label


@ft.component
def _board_row(r: int, cell: int, cells: tuple[CellProps, ...], tap: Callable[[int, int], None] | None) -> ft.Control:
    """One row of squares. Memoized on the row's plain cell props: an update usually changes one or two
    rows, so the other rows are skipped whole (one comparison instead of fifteen)."""
    label_cell = ft.Container(width=14, height=cell, alignment=ft.Alignment.CENTER_RIGHT,
                              content=ft.Text(str(r + 1), size=8))
    return ft.Row([label_cell, *(BoardCell(r, c, cell, bg, bw, bc, text, style, centre, label, tap)
                                 for c, bg, bw, bc, text, style, centre, label in cells)],
                  spacing=0, tight=True)


BoardRow = memo(_board_row)


@ft.component
def _board_header(cell: int, size: int) -> ft.Control:
    """The column letters; the same on every render, so memoized."""
    return ft.Row([ft.Container(width=14), *(
        ft.Container(width=cell, content=ft.Text(COLS[c], size=9, text_align=ft.TextAlign.CENTER))
        for c in range(size))], spacing=0, tight=True)


BoardHeader = memo(_board_header)


Squares = tuple[tuple[CellProps, ...], ...]  # the board's rows of square props


def _squares(layout: Layout, board: Board, properties: dict[tuple[int, int], str], read: tuple[str, ...] | None,
             conf: tuple[tuple[float, ...], ...] | None, new_squares: set[tuple[int, int]], preview: bool,
             selected: tuple[int, int] | None) -> Squares:
    """Every square's plain props: the tiles, the read being checked (new tiles, unsure letters), the
    play being previewed, the selected square, the property rings."""
    rows = []
    for r in range(board.size):
        cells = []
        for c in range(board.size):
            premium = layout.premiums[r][c].value
            tile = board._cells[r][c]
            letter = tile.letter if tile else ""
            blank = bool(tile and tile.blank)
            state = "empty"
            if read is not None and tile is None and read[r][c] not in ".#":
                ch = read[r][c]
                letter = "" if ch == "?" else ch.upper()
                blank = ch == "?" or ch.islower()
                state = "new"
            elif tile is None and (r, c) in new_squares and preview:
                state = "preview"
            elif tile is not None:
                state = "tile"
            low = conf is not None and read is not None and conf[r][c] < LOW_CONFIDENCE and read[r][c] != "."
            is_selected = selected == (r, c)
            if low:
                bg = theme.TILE_LOW_BG  # unsure letter: a different fill, not only a ring, so it shows at 360 px
            elif state in ("new", "preview"):
                bg = theme.TILE_NEW
            elif state == "tile":
                bg = theme.TILE_BG
            else:
                bg = theme.PREMIUM_BG[premium]
            prop = properties.get((r, c))
            border_colour = theme.TILE_LOW if low else (theme.group(prop) if prop else None)
            if is_selected:
                border_colour = "#000000"
            text = letter if letter else ("?" if blank else theme.PREMIUM_LABEL[premium])
            centre = (r, c) == (layout.centre.row, layout.centre.col) and not (bool(letter) or blank)
            is_letter = bool(letter) or blank
            label = f"{COLS[c]}{r + 1} " + (
                (f"{letter or 'blank'}{' blank' if blank and letter else ''}{' new' if state == 'new' else ''}"
                 f"{' check' if low else ''}") if is_letter else "empty") + (f" property {prop}" if prop else "")
            border_width = 3 if (prop or low) and not is_selected else (2 if border_colour else 0.5)
            cells.append((c, bg, border_width, border_colour or theme.BOARD_LINE, text,
                          ("blank" if blank else "letter") if is_letter else "label", centre, label))
        rows.append(tuple(cells))
    return tuple(rows)


def _same_where_equal(before: Squares | None, now: Squares) -> Squares:
    """`now`, with the rows equal to `before`'s being `before`'s own objects (all of `before` when nothing
    changed): the memoized rows and board then skip them on an identity check."""
    if before is None or len(before) != len(now):
        return now
    rows = tuple(b if b == n else n for b, n in zip(before, now, strict=True))
    return before if all(b is n for b, n in zip(before, rows, strict=True)) else rows


@ft.component
def _board_body(squares: Squares, cell: int, tap: Callable[[int, int], None] | None, legend: bool) -> ft.Control:
    """The column letters, the rows, the read's legend. Memoized: a board whose squares did not change
    (every pass, exchange, challenge, clock tap...) is skipped whole."""
    rows = [BoardRow(r, cell, cells, tap) for r, cells in enumerate(squares)]
    extra: list[ft.Control] = []
    if legend:
        extra = [ft.Row([_swatch(theme.TILE_NEW), ft.Text("new tile", size=11), _swatch(theme.TILE_LOW_BG),
                         ft.Text("check this letter (tap to correct)", size=11)], wrap=True, spacing=4)]
    return ft.Column([BoardHeader(cell, len(squares)), *rows, *extra], spacing=0, tight=True)


BoardBody = memo(_board_body)


@ft.component
def BoardGrid(app: AppState, interactive: bool = True, layout: Layout | None = None,
              properties: dict[tuple[int, int], str] | None = None,
              on_tap: Callable[[int, int], None] | None = None) -> ft.Control:
    """The game's board; or, with `layout` (the profile editor), an empty board whose property squares
    are `properties` and whose taps go to `on_tap`.

    The game's board as every follower sees it (no read, no preview, no selection) is made once per
    change of the game and shared by the tabs showing it (`TableBase.view`)."""
    game = app.game
    if layout is None and game is None:
        return ft.Text("No game yet.")
    tap = on_tap or app.select
    cell = _cell_size(ft.context.page.width, layout.size if layout is not None else game.board.size)
    if layout is not None:
        squares = _squares(layout, Board(layout.size), properties or {}, None, None, set(), False, None)
        return BoardBody(squares, cell, tap if interactive else None, False)
    assert game is not None
    read = app.read_rows if app.role == "referee" else None
    conf = app.read_conf if app.role == "referee" else None
    check = app.read_check if read is not None else app.hand_check
    preview = app.hand_check is not None and app.hand_check.ok
    new_squares = set(check.new_squares) if check is not None else set()
    if read is None and not preview and app.selected is None:
        squares = game.view(f"board-squares/{cell}", lambda before: _same_where_equal(before, _squares(
            game.layout, game.board, game.property_squares(), None, None, set(), False, None)))
    else:  # this tab's own draft on the board: only this tab shows it
        squares = _squares(game.layout, game.board, game.property_squares(), read, conf, new_squares, preview,
                           app.selected)
    return BoardBody(squares, cell, tap if interactive else None, read is not None)


def _swatch(colour: str) -> ft.Control:
    return ft.Container(width=12, height=12, bgcolor=colour, border=ft.Border.all(1, theme.BOARD_LINE))
