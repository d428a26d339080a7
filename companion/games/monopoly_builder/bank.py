"""The Bank (Monopoly Builder): cash and resources of every player and the Bank, the 16 Title Deeds with
owners, rents and mortgages (mortgage and unmortgage in one tap), trades between players and with the
Bank, kept Chance cards, resources lying on spaces, and the transactions with undo; every button is one of
the moves the rules offer now (on a wide page the holdings on the left, trades and transactions beside
them). Every action is an
engine event; a refusal is the error line and changes nothing."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_builder.rules import BANK, Mortgage, Unmortgage
from companion.games.monopoly_builder.table import CARD_NAMES, BuilderTable, chips_text
from companion.games.monopoly_builder.trades import bank_trade_panel, hands_panel, player_trade_panel
from companion.games.monopoly_builder.turn import debt_panel, rent_panel
from companion.games.monopoly_builder.widgets import boxed, heading, resource_hex
from companion.ui import theme
from companion.ui.components.game_screen import game_screen
from companion.ui.components.layout import side_by_side
from companion.ui.components.players import PlayersStrip
from companion.ui.models import AppState


def _deed_rows(app: AppState, game: BuilderTable) -> list[ft.Control]:
    st = game.bstate
    pr = game.profile
    mortgages = {m.deed: m.player for m in game.offered(Mortgage)}
    unmortgages = {m.deed: m.player for m in game.offered(Unmortgage)}
    rows: list[ft.Control] = []
    for g in pr.groups:
        for d in pr.group_deeds(g.id):
            owner = st.owners.get(d)
            mortgaged = d in st.mortgaged
            value = pr.number(d, "mortgage")
            text = (f"{pr.deed_name(d)}: {owner or 'Bank'}" + (" (mortgaged)" if mortgaged else "")
                    + f", rent {theme.money_prefixed(st.rent_for(d) if owner else pr.number(d, 'rent'))}, "
                    f"gives {pr.deed_resource(d)} on {pr.number(d, 'dice_number')}")
            column: list[ft.Control] = [ft.Text(text, size=12)]
            if d in mortgages:
                column.append(ft.TextButton(f"Mortgage {pr.deed_name(d)} (+{theme.money_prefixed(value)})",
                                            on_click=lambda e, o=mortgages[d], d=d: app.do(BuilderTable.mortgage, o, d)))
            elif d in unmortgages:
                column.append(ft.TextButton(f"Unmortgage {pr.deed_name(d)} (-{theme.money_prefixed(value)})",
                                            on_click=lambda e, o=unmortgages[d], d=d: app.do(BuilderTable.unmortgage, o, d)))
            # No wrapping here: a wrapping row cannot hold the expanding text (Flutter draws a grey box).
            rows.append(ft.Row([
                ft.Container(width=8, height=28, bgcolor=theme.group(g.id), border_radius=2),
                ft.Container(width=10, height=10, bgcolor=resource_hex(pr.deed_resource(d)), border_radius=5),
                ft.Column(column, spacing=0, tight=True, expand=True),
            ], spacing=4))
    return rows


@ft.component
@game_screen
def BuilderBank(app: AppState, game: BuilderTable) -> ft.Control:
    st = game.bstate
    items: list[ft.Control] = [
        ft.Text("Bank", size=22, weight=ft.FontWeight.BOLD),
        PlayersStrip(app),
        ft.Text(game.waiting_for(), italic=True),
    ]
    if game.turn_lines:
        items.append(boxed("turn-steps", game.turn_lines))
    items += rent_panel(app, game)
    items += debt_panel(app, game)
    cash = ", ".join(f"{p} {theme.money_prefixed(st.cash[p])}" for p in game.players)
    items.append(ft.Semantics(identifier="cash", content=ft.Text(f"Cash: {cash}.", size=14)))
    items.append(heading("Resources"))
    items += hands_panel(game)
    items.append(ft.Text(f"Bank: {chips_text(st.resources[BANK])}.", size=12))
    lying = [f"{st.space_name(i)}: {chips_text(c)}" for i, c in sorted(st.space_resources.items())]
    if lying:
        items.append(ft.Text("On spaces (picked up by the next token to land on or pass): " + "; ".join(lying) + ".",
                             size=12))
    cards = [f"{p}: {', '.join(CARD_NAMES.get(c, c) for c in game.kept_cards(p))}" for p in game.players
             if game.kept_cards(p)]
    if cards:
        items.append(ft.Text("Kept Chance cards: " + "; ".join(cards) + ".", size=12))
    items.append(heading("Title Deeds"))
    items += _deed_rows(app, game)
    # On a wide page what everyone holds (cash, resources, deeds) on the left; trades and the log beside it.
    holdings, items = items, []
    items += bank_trade_panel(app, game)
    items += player_trade_panel(app, game)
    items.append(ft.Row([heading("Transactions"),
                         ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo(),
                                       disabled=not game.can_undo())], wrap=True))
    items.append(boxed("txn-log", list(reversed(game.ledger_lines(20))) or ["No money has moved yet."], bg="#FAFAFA"))
    return side_by_side(holdings, items, spacing=8)
