"""Invite phones to a table: the table's own address, as text and as a QR code to scan.

The address is the table's (`/table/<game id>`) on the network address the server listens on, so a
phone that scans it opens this game, not another table of the same server: it watches, and can referee
with the game's PIN. The QR code is made by `segno` (pure Python, no image library) as a PNG.
"""

from __future__ import annotations

import io

import flet as ft
import segno

from companion.ui.hub import HUB
from companion.ui.models import AppState

QR_SCALE = 8  # px per module: a table address (~40 characters, version 3-4) is ~260 px, scannable across a table


def qr_png(text: str, scale: int = QR_SCALE) -> bytes:
    """A QR code of `text` as PNG bytes (error correction M: readable from a slightly glossy screen)."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


@ft.component
def TableQr(game_id: str, scale: int = QR_SCALE) -> ft.Control:
    url = HUB.table_url(game_id)
    png = ft.use_memo(lambda: qr_png(url, scale), [url, scale])
    return ft.Semantics(identifier=f"qr-{game_id}", label=f"QR code of {url}",
                        content=ft.Image(src=png, width=None, height=None))


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
    items.append(ft.TextButton("Back to the game", on_click=lambda e: app.go(
        app.back_screen())))
    return ft.Column(items, spacing=10)
