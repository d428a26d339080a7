"""The end of a Monopoly Builder game: the winner, and each player's score as the engine counts it
(buildings by height, monopolies, Billionaire Builder, Community Builder, cash for a tie), with the points
over the game. Before the end, the table may stop the game by agreement: it is scored as it stands."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_builder.rules import EndGame
from companion.games.monopoly_builder.table import BuilderTable
from companion.ui import theme
from companion.ui.components.chart import HistoryChart
from companion.ui.components.game_screen import game_screen, winner_banner
from companion.ui.components.layout import side_by_side
from companion.ui.models import AppState

REASONS = {"penthouse": "the penthouse is built", "agreed": "ended by agreement",
           "everyone is bankrupt": "everyone is bankrupt"}


def score_card(game: BuilderTable, player: str, rank: int) -> ft.Control:
    s = game.scores()[player]
    lines = game.score_lines(player)
    if player in game.bstate.bankrupt:
        lines.append("Bankrupt (the buildings still score).")
    return ft.Semantics(identifier=f"score-{rank}", content=ft.Container(
        padding=8, border_radius=8, border=ft.Border.all(3, theme.token(game.colour(player))),
        content=ft.Column([ft.Text(f"{rank}. {player}: {s.total} points", size=17, weight=ft.FontWeight.BOLD),
                           *(ft.Text(x, size=13) for x in lines)], spacing=2, tight=True)))


def undo_to_turn(app: AppState) -> None:
    """A wrong last tap (the penthouse on the wrong foundation...): take it back and return to the turn."""
    app.undo()
    if not app.error:
        app.go("builder_turn")
        app.say("The last action was undone: the game goes on.")


@ft.component
@game_screen
def BuilderEnd(app: AppState, game: BuilderTable) -> ft.Control:
    items: list[ft.Control] = [ft.Text("Score", size=24, weight=ft.FontWeight.BOLD)]
    if not game.finished:
        items.append(ft.Text("The game ends when a player builds the penthouse. The score as it stands now:", size=13))
    else:
        winners = game.winner()
        items.append(winner_banner(("Winner: " if len(winners) == 1 else "Tie: ") + " and ".join(winners)))
        end_reason = game.bstate.end_reason or ""
        reason = REASONS.get(end_reason, end_reason)
        items.append(ft.Semantics(identifier="result", content=ft.Text(
            f"The game is over: {reason}. {game.result_line()}", size=13)))
    for rank, p in enumerate(game.ranking(), 1):
        items.append(score_card(game, p, rank))
    side: list[ft.Control] = []  # on a wide page beside the score cards: the chart and what to do next
    if game.finished:
        history = game.history()
        if len(history) > 1:
            side.append(HistoryChart(history, {p: game.colour(p) for p in game.players}, game.history_title))
        side.append(ft.Row([
            ft.FilledButton("New game", on_click=lambda e: app.open_screen("setup")),
            ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: undo_to_turn(app)),
        ], wrap=True))
    else:
        if game.offered(EndGame):
            side.append(ft.OutlinedButton("End the game by agreement", on_click=lambda e: app.do(BuilderTable.end_game)))
        side.append(ft.TextButton("Back to the turn", on_click=lambda e: app.open_screen("builder_turn")))
    return side_by_side(items, side)
