"""End of a word-board game: racks left, final table, winner, chart. What differs between the games
(racks as letters or counts, the columns, the notes, the chart's title) the game's table says
(`WordTable.rack_field`, `final_columns`, `end_notes`, `history_title`)."""

from __future__ import annotations

import flet as ft

from companion.ui.components.chart import HistoryChart
from companion.ui.components.game_screen import winner_banner
from companion.ui.components.layout import side_by_side
from companion.ui.components.review import PlayReview
from companion.ui.models import AppState, game_ui


@ft.component
def EndScreen(app: AppState) -> ft.Control:
    game = app.game
    if game is None:
        return ft.Text("No game yet.")
    f = app.form
    items: list[ft.Control] = [ft.Text("End of game", size=24, weight=ft.FontWeight.BOLD)]
    if not game.finished:
        items.append(ft.Text(game.rack_prompt))
        note = game.rack_note()
        if note:
            items.append(ft.Text(note, size=13))
        for p in game.players:
            label, start = game.rack_field(p)
            items.append(ft.TextField(label=label, value=f.racks.get(p, "") or start,
                                      width=200, dense=True, capitalization=ft.TextCapitalization.CHARACTERS,
                                      on_change=lambda e, p=p: f.racks.__setitem__(p, e.control.value)))
        agreed = game.end_reason is None
        if agreed:
            items.append(ft.Text("The game is not over by the rules: finishing now ends it by agreement.",
                                 italic=True))
        items.append(ft.FilledButton("Finish and show the winner", on_click=lambda e: app.end_game(agreed)))
        items.append(ft.TextButton("Back to the game", on_click=lambda e: app.open_screen(game_ui(game.kind).play_screen)))
        return ft.Column(items, spacing=10)
    winners = game.winner()
    items.append(winner_banner(("Winner: " if len(winners) == 1 else "Tie: ") + " and ".join(winners)))
    columns = game.final_columns()
    cols = [ft.DataColumn(label=ft.Text("Player"))] + [ft.DataColumn(label=ft.Text(header)) for header, _ in columns]
    rows = [ft.DataRow(cells=[ft.DataCell(ft.Text(p))] + [ft.DataCell(ft.Text(values[p])) for _, values in columns])
            for p in game.ranking()]
    items.append(ft.DataTable(columns=cols, rows=rows))
    for line in game.end_notes():
        items.append(ft.Text(line, size=13))
    items.append(ft.FilledButton("New game", on_click=lambda e: app.open_screen("setup")))
    # On a wide page the chart and the review sit beside the final table.
    return side_by_side(items, [
        HistoryChart(game.history(), {p: game.colour(p) for p in game.players}, game.history_title),
        PlayReview(app),  # the best play of each turn entered with a rack (empty otherwise)
    ])
