"""Invite phones to a table: the table's own address, as text and as a QR code to scan.

The address is the table's (`/table/<game id>`) on the network address the server listens on, so a
phone that scans it opens this game, not another table of the same server: it watches, and can referee
with the game's PIN. The QR code's modules come from `segno` (pure Python) and are drawn as shapes on a
canvas, not as a picture: a phone on the Wi-Fi opens the app over plain HTTP, where the browser has no
image decoder (`ImageDecoder` needs a secure context), and the client it gets there carries none either
(`companion.ui.client`: the light renderer, 0.75 MB less for every phone to download), so a PNG would not
be drawn on a phone that shows the code to the next player.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft
import flet.canvas as cv
import segno

from companion.ui.hub import HUB
from companion.ui.models import AppState

QR_SCALE = 8  # px per module: a table address (~40 characters, version 3-4) is ~260 px, scannable across a table
QR_BORDER = 4  # modules of light margin round the code, as the QR standard asks


@dataclass(frozen=True)
class QrModules:
    """A QR code as its dark modules: `size` modules a side (margin included), and each row's runs of dark
    modules as (row, first column, length), so a row of the code is drawn as a few rectangles."""

    text: str
    size: int
    runs: tuple[tuple[int, int, int], ...]


def qr_modules(text: str) -> QrModules:
    """The QR code of `text` (error correction M: readable from a slightly glossy screen)."""
    code = segno.make(text, error="m", micro=False)
    runs: list[tuple[int, int, int]] = []
    for r, row in enumerate(code.matrix_iter(border=QR_BORDER)):
        start = None
        for c, dark in enumerate([*row, False]):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                runs.append((r, start, c - start))
                start = None
    return QrModules(text, int(code.symbol_size(border=QR_BORDER)[0]), tuple(runs))


@ft.component
def TableQr(game_id: str, scale: int = QR_SCALE) -> ft.Control:
    url = HUB.table_url(game_id)
    code = ft.use_memo(lambda: qr_modules(url), [url])
    side = code.size * scale
    # Whole pixels and no antialiasing: neighbouring rectangles meet without a seam at any pixel ratio.
    dark = cv.Path([cv.Path.Rect(c * scale, r * scale, n * scale, scale) for r, c, n in code.runs],
                   paint=ft.Paint(color=ft.Colors.BLACK, style=ft.PaintingStyle.FILL, anti_alias=False))
    return ft.Semantics(identifier=f"qr-{game_id}", label=f"QR code of {url}",
                        content=ft.Container(bgcolor=ft.Colors.WHITE, width=side, height=side,
                                             content=cv.Canvas([dark], width=side, height=side)))


@ft.component
def JoinScreen(app: AppState) -> ft.Control:
    game = app.game
    if game is None:
        return ft.Text("No table chosen: pick one on the home screen.")
    url = HUB.table_url(game.id)
    items: list[ft.Control] = [
        ft.Text("Invite phones to this table", size=22, weight=ft.FontWeight.BOLD),
        ft.Text(f"{', '.join(game.players)}", size=16),
        TableQr(game.id),
        ft.Semantics(identifier="table-address", content=ft.Text(url, size=16, selectable=True,
                                                                 weight=ft.FontWeight.BOLD)),
        ft.Text("Scan the code or open the address on a phone on the same Wi-Fi: it watches this game. To "
                "referee from it, type the game's referee PIN there and tap 'Referee this game'.", size=13),
    ]
    if not HUB.phones_can_reach():
        items.append(ft.Text("This server listens only on this computer: start it with "
                             "'companion app --host 0.0.0.0' so phones can open the address.",
                             size=13, color="#B71C1C"))
    items.append(ft.TextButton("Back to the game", on_click=lambda e: app.open_screen(
        app.back_screen())))
    return ft.Column(items, spacing=10)
