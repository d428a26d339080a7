"""The Bank (Monopoly Scrabble): cash, Free Parking, Property Cards and owners, rents, one-tap actions,
the transaction log with undo. Every action is an engine event; the engine refuses what the turn does
not allow, and the refusal is shown as the error line."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_scrabble.rules import POT
from companion.games.monopoly_scrabble.steps import MonopolyScrabbleSteps
from companion.games.monopoly_scrabble.table import MonopolyScrabbleTable
from companion.ui import theme
from companion.ui.components.game_screen import game_screen
from companion.ui.components.layout import side_by_side
from companion.ui.components.players import PlayersStrip
from companion.ui.models import AppState


def _table(columns: list[str], rows: list[list[ft.Control]]) -> ft.Control:
    table = ft.DataTable(columns=[ft.DataColumn(label=ft.Text(c)) for c in columns],
                         rows=[ft.DataRow(cells=[ft.DataCell(c) for c in r]) for r in rows],
                         column_spacing=12, heading_row_height=32, data_row_min_height=28, data_row_max_height=36)
    return ft.Row([table], scroll=ft.ScrollMode.AUTO)


@ft.component
@game_screen
def BankScreen(app: AppState, game: MonopolyScrabbleTable) -> ft.Control:
    st = game.mstate
    profile = st.profile
    names = game.group_names()
    wealth = game.wealth()
    items: list[ft.Control] = [
        ft.Text("Bank", size=22, weight=ft.FontWeight.BOLD),
        ft.Text(f"Banker: {game.banker}. Next: {st.next_step()}.", italic=True),
        PlayersStrip(app),
        ft.Semantics(identifier="free-parking", content=ft.Text(
            f"Free Parking pot: {theme.money_prefixed(st.cash[POT])}", size=16, weight=ft.FontWeight.BOLD)),
        _table(["Player", "Cash", "Cards", "Token on", "Wealth"], [
            [ft.Text(p), ft.Text(theme.money_prefixed(st.cash[p])), ft.Text(", ".join(names[g] for g in st.cards_of(p)) or "-"),
             ft.Text(st.space_name(st.positions[p]) + (" (in Jail)" if p in st.in_jail else "")),
             ft.Text(theme.money_prefixed(wealth.get(p, 0)))]
            for p in game.players]),
    ]
    # What the turn waits for (card, jail fee, bingo, debt): the same one-tap actions as the turn screen.
    items.append(MonopolyScrabbleSteps(app, word_entry=False))
    items.append(ft.Text("Property Cards", weight=ft.FontWeight.BOLD))
    assert profile is not None
    items.append(_table(["Card", "Owner", "Rent", "Value"], [
        [ft.Text(g.name), ft.Text(st.owners.get(g.id) or "Bank"), ft.Text(theme.money_prefixed(g.rent.value or 0)),
         ft.Text(theme.money_prefixed(g.card_value.value or 0))]
        for g in profile.groups]))
    left, items = items, []  # on a wide page: the money and cards left, the blank swap and the log right
    swaps = game.legal().blank_swaps()  # one button per blank and source the rules offer now
    if swaps:
        fee = theme.money_prefixed(profile.amounts.blank_replacement_fee.value)
        items.append(ft.Text(f"Replace a blank for {swaps[0].player} (before the word; {fee} to Free Parking, "
                             "and the tile's price for a Bank tile):", weight=ft.FontWeight.BOLD))
        items.append(ft.Row([
            ft.OutlinedButton(f"Swap blank on {s.square} ({'own tile' if s.source == 'rack' else 'Bank tile'})",
                              on_click=lambda e, s=s: app.do(MonopolyScrabbleTable.blank_swap, s.square, s.source == "bank"))
            for s in swaps], wrap=True))
    items.append(ft.Row([ft.Text("Transactions", weight=ft.FontWeight.BOLD),
                         ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo(),
                                       disabled=not game.can_undo())], wrap=True))
    log: list[ft.Control] = [ft.Text(line, size=13) for line in reversed(game.ledger_lines(20))]
    items.append(ft.Semantics(identifier="txn-log", content=ft.Container(
        bgcolor="#FAFAFA", padding=8, content=ft.Column(log, spacing=2, tight=True))))
    return side_by_side(left, items)
