"""Monopoly Deal's UI side for the app shell: the setup form (house rules), the table screen (the
referee's taps), what happened (the story and the payments), the end with the winner and a chart, and
the follower's read-only view. Every screen uses the width of a laptop page (`layout`)."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_deal.cards import DealFollower, boards, status_line
from companion.games.monopoly_deal.rules import EndByAgreement
from companion.games.monopoly_deal.setup import DealSetupForm, DealTab, start
from companion.games.monopoly_deal.table import DealTable, rebuild
from companion.games.monopoly_deal.turn import DealTurn
from companion.games.spec import GameUI, Screen
from companion.ui.components.chart import HistoryChart
from companion.ui.components.game_screen import game_screen, winner_banner
from companion.ui.components.layout import side_by_side, split_flex
from companion.ui.models import AppState


@ft.component
@game_screen
def DealStory(app: AppState, game: DealTable) -> ft.Control:
    """Everything that happened, latest first, and every payment with its change and forgiven part."""
    st = game.st
    items: list[ft.Control] = [ft.Text("What happened", size=22, weight=ft.FontWeight.BOLD), status_line(game),
                               ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo(),
                                             disabled=not game.can_undo())]
    if st.payments:
        items.append(ft.Text("Payments (no change is ever given)", weight=ft.FontWeight.BOLD))
        items += [ft.Text(line, size=13) for line in game.payment_lines()]
    items.append(ft.Text(f"Draw pile {st.draw_count} cards, discard pile {len(st.discard)}.", size=13))
    story: list[ft.Control] = [ft.Text("Story", weight=ft.FontWeight.BOLD), ft.Semantics(
        identifier="story", content=ft.Column([ft.Text(line, size=13) for line in game.recent(len(st.story))],
                                              spacing=2))]
    return side_by_side(items, story, spacing=8)  # on a wide page the payments and the story side by side


def _agree(app: AppState) -> None:
    app.do(DealTable.end_by_agreement)
    if not app.error:
        app.go("end")


@ft.component
@game_screen
def DealEnd(app: AppState, game: DealTable) -> ft.Control:
    st = game.st
    items: list[ft.Control] = [ft.Text("End of game", size=24, weight=ft.FontWeight.BOLD)]
    if not game.finished:
        items.append(ft.Text(f"The first player with {st.limits.sets_to_win} complete sets of different colours "
                             "wins; the app declares it the moment it happens.", size=14))
        if game.offered(EndByAgreement):
            items.append(ft.Text("Or the table agrees to stop now: the most complete sets wins, then the most "
                                 "money on the table (bank, properties and buildings).", size=13))
            items.append(ft.OutlinedButton("End the game by agreement",
                                           on_click=lambda e: _agree(app)))
        return split_flex([boards(game)], items,
                          [ft.TextButton("Back to the table", on_click=lambda e: app.open_screen("table"))])
    winners = game.winner()
    items.append(winner_banner(f"Winner: {' and '.join(winners)}" if winners else "No winner"))
    if st.agreed:
        items.append(ft.Text(game.recent(1)[0] if st.story else "Ended by agreement.", size=14))
    else:
        winner = winners[0]
        colours = st.colours_listed(st.complete_colours(winner))
        items.append(ft.Text(f"{winner} completed {colours} on turn {st.turn_number}.", size=14))
    items.append(boards(game))
    # On a wide page the final sides on the left, the chart beside them.
    return side_by_side(items, [HistoryChart(game.history(), {p: game.colour(p) for p in game.players},
                                             "Money on the table (bank + properties, M) after each turn"),
                                ft.FilledButton("New game", on_click=lambda e: app.open_screen("setup"))])


UI = GameUI(
    setup_form=DealSetupForm,
    start=start,
    rebuild=rebuild,
    screens=(Screen("table", "Table", DealTurn, wide=True), Screen("story", "What happened", DealStory, wide=True),
             Screen("end", "End", DealEnd, wide=True)),
    follower=DealFollower,
    end_screen="end",
    min_players=2,
    max_players=5,
    tab_state=DealTab,
)
