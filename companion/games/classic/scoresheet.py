"""Classic scoresheet: turns, running totals, unseen tiles, bag, GCG export."""

from __future__ import annotations

from pathlib import Path

import flet as ft

from companion.ui.components.board import BoardGrid
from companion.ui.components.layout import split, wide
from companion.ui.components.players import PlayersStrip
from companion.ui.hub import HUB
from companion.ui.models import AppState


@ft.component
def Scoresheet(app: AppState) -> ft.Control:
    game = app.game
    show_gcg, set_show_gcg = ft.use_state(False)
    gcg_path, set_gcg_path = ft.use_state("")
    if game is None:
        return ft.Text("No game yet.")
    st = game.engine.state

    def toggle_gcg() -> None:
        """Show the GCG record and save it beside the games (`DATA/GAME_ID.gcg`)."""
        show = not show_gcg
        set_show_gcg(show)
        if show and HUB.store.data_dir:
            path = Path(HUB.store.data_dir) / f"{game.id}.gcg"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(game.gcg(), encoding="utf-8")
                set_gcg_path(str(path))
            except OSError as exc:
                app.fail(f"The GCG file could not be saved ({exc}).")

    rows = [
        ft.DataRow(cells=[ft.DataCell(ft.Text(str(i))), ft.DataCell(ft.Text(t.player)),
                          ft.DataCell(ft.Text(_describe(t.kind, t.notation))),
                          ft.DataCell(ft.Text(f"{t.score:+d}" if t.kind != "play" else str(t.score))),
                          ft.DataCell(ft.Text(str(t.total)))])
        for i, t in enumerate(st.turns, 1)
    ]
    table = ft.DataTable(
        columns=[ft.DataColumn(label=ft.Text(title)) for title in ("#", "Player", "Play", "Score", "Total")],
        rows=rows, column_spacing=12, data_row_min_height=28, data_row_max_height=36, heading_row_height=32)
    unseen = st.unseen_tiles()
    unseen_text = " ".join(f"{k}{v if v > 1 else ''}" for k, v in sorted(unseen.items())) if unseen else "-"
    exchanges = sum(1 for t in st.turns if t.kind == "exchange")
    passes = sum(1 for t in st.turns if t.kind == "pass")
    gcg_text = game.gcg() if show_gcg else ""
    items: list[ft.Control] = [
        ft.Text("Scoresheet", size=22, weight=ft.FontWeight.BOLD),
        PlayersStrip(app),
        ft.Text(f"Rules: {game.preset_label}. Bag: {st.bag_count} tiles. Exchanges: {exchanges}. Passes: {passes}."),
        ft.Row([table], scroll=ft.ScrollMode.AUTO),
        ft.Text(f"Unseen tiles ({sum(unseen.values()) if unseen else 0}):", weight=ft.FontWeight.BOLD),
        ft.Semantics(identifier="unseen", content=ft.Text(unseen_text)),
        ft.OutlinedButton("Export GCG", on_click=lambda e: toggle_gcg()),
    ]
    if gcg_text:
        # One Text per line, not selectable: Flutter web exposes selectable text as an empty textarea,
        # which screen readers (and the browser tests) cannot read. The file itself is saved below.
        lines: list[ft.Control] = [ft.Text(line, font_family="monospace", size=12) for line in gcg_text.splitlines()]
        items.append(ft.Semantics(identifier="gcg", content=ft.Container(
            bgcolor="#F5F5F5", padding=8, content=ft.Column(lines, spacing=0, tight=True))))
        items.append(ft.Text(f"Saved as {gcg_path}" if gcg_path else "", size=12))
    if not wide():
        return ft.Column(items, spacing=10)
    return split([BoardGrid(app, interactive=False)], items)  # on a laptop: the board the sheet describes


def _describe(kind: str, notation: str) -> str:
    """A scoresheet line in words: plays keep their notation, other turns say what happened."""
    if kind == "play":
        return notation
    if kind == "exchange":
        n = notation.lstrip("-").strip()
        return f"exchanged {n} tiles" if n.isdigit() else f"exchanged {n}".strip()
    if kind == "pass":
        return "passed"
    if kind == "challenge bonus":
        return "challenge bonus"
    return f"{kind} {notation}".strip()
