"""End of game: racks left (classic), final table, winner, chart of scores or wealth."""

from __future__ import annotations

import flet as ft

from companion.ui.components.chart import HistoryChart
from companion.ui.models import AppState


@ft.component
def EndScreen(app: AppState):
    game = app.game
    if game is None:
        return ft.Text("No game yet.")
    f = app.form
    items: list[ft.Control] = [ft.Text("End of game", size=24, weight=ft.FontWeight.BOLD)]
    if not game.finished:
        classic = game.kind == "classic"
        items.append(ft.Text("Tiles left on each rack (leave empty for none):" if classic else
                             "How many tiles are left on each rack (M100 each; leave empty for none):"))
        tracked = {} if classic else dict(game.mstate.rack_counts)
        if tracked:
            items.append(ft.Text("The Bank's count: " + ", ".join(f"{p} {n}" for p, n in tracked.items())
                                 + ". Change a number only if a rack holds something else.", size=13))
        for p in game.players:
            value = f.racks.get(p, "") or (str(tracked[p]) if p in tracked else "")
            items.append(ft.TextField(label=f"{p} rack" if classic else f"{p} tiles left", value=value,
                                      width=200, dense=True, capitalization=ft.TextCapitalization.CHARACTERS,
                                      on_change=lambda e, p=p: f.racks.__setitem__(p, e.control.value)))
        agreed = game.end_reason is None
        if agreed:
            items.append(ft.Text("The game is not over by the rules: finishing now ends it by agreement.",
                                 italic=True))
        items.append(ft.FilledButton("Finish and show the winner", on_click=lambda e: app.end_game(agreed)))
        items.append(ft.TextButton("Back to the game", on_click=lambda e: app.go("turn")))
        return ft.Column(items, spacing=10)
    winners = game.winner()
    items.append(ft.Semantics(identifier="winner", content=ft.Text(
        ("Winner: " if len(winners) == 1 else "Tie: ") + " and ".join(winners), size=26,
        weight=ft.FontWeight.BOLD, color="#1B5E20")))
    scores = game.scores()
    wealth = game.wealth() if hasattr(game, "wealth") else None
    ranked = sorted(game.players, key=lambda p: -(wealth or scores)[p])
    cols = [ft.DataColumn(ft.Text("Player")), ft.DataColumn(ft.Text("Score"))]
    if wealth is not None:
        cols.append(ft.DataColumn(ft.Text("Wealth")))
    rows = []
    for p in ranked:
        cells = [ft.DataCell(ft.Text(p)), ft.DataCell(ft.Text(str(scores[p])))]
        if wealth is not None:
            cells.append(ft.DataCell(ft.Text(f"M{wealth[p]:,}")))
        rows.append(ft.DataRow(cells=cells))
    items.append(ft.DataTable(columns=cols, rows=rows))
    if game.kind == "classic":
        ends = [t for t in game.engine.state.turns if t.kind == "end of game"]
        if ends:
            items.append(ft.Text("End adjustments: " + ", ".join(f"{t.player} {t.score:+d} (rack {t.notation.strip('()') or 'empty'})"
                                                                 for t in ends), size=13))
    history = game.history()
    title = "Wealth over the turns" if wealth is not None else "Scores over the turns"
    items.append(HistoryChart(history, {p: game.colour(p) for p in game.players}, title))
    items.append(ft.FilledButton("New game", on_click=lambda e: app.go("setup")))
    return ft.Column(items, spacing=10)
