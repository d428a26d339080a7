"""The Bank (Monopoly Scrabble): cash, Free Parking, Property Cards, one-tap actions, the transaction log."""

from __future__ import annotations

import flet as ft

from companion.ui import theme
from companion.ui.components.players import PlayersStrip
from companion.ui.models import AppState


@ft.component
def BankScreen(app: AppState):
    game = app.game
    if game is None or game.kind != "monopoly":
        return ft.Text("The Bank is for Monopoly Scrabble.")
    from companion.ui.monopoly_adapter import GROUP_LABEL

    st = game.mstate
    f = app.form
    current = game.current_player
    items: list[ft.Control] = [
        ft.Text("Bank", size=22, weight=ft.FontWeight.BOLD),
        ft.Text(f"Banker: {game.banker}", italic=True),
        PlayersStrip(app),
        ft.Semantics(identifier="free-parking", content=ft.Text(
            f"Free Parking pot: {theme.money(st.free_parking)}", size=16, weight=ft.FontWeight.BOLD)),
    ]
    cash_rows = [ft.DataRow(cells=[ft.DataCell(ft.Text(p)), ft.DataCell(ft.Text(theme.money(st.cash[p]))),
                                   ft.DataCell(ft.Text(str(st.position[p]))),
                                   ft.DataCell(ft.Text(theme.money(game.wealth()[p])))])
                 for p in game.players]
    items.append(ft.DataTable(columns=[ft.DataColumn(ft.Text("Player")), ft.DataColumn(ft.Text("Cash")),
                                       ft.DataColumn(ft.Text("Space")), ft.DataColumn(ft.Text("Wealth"))],
                              rows=cash_rows, column_spacing=14, heading_row_height=32, data_row_min_height=28,
                              data_row_max_height=34))
    debtors = [p for p, c in st.cash.items() if c < 0]
    if debtors:
        items.append(ft.Text(f"{', '.join(debtors)} owes money: sell Property Cards to the Bank at half value.",
                             color="#B71C1C", weight=ft.FontWeight.BOLD))
    items.append(ft.Text("Property Cards", weight=ft.FontWeight.BOLD))
    prop_rows = []
    for card in st.profile.properties:
        owner = st.owner.get(card.group)
        action = ft.DataCell(ft.TextButton(f"Sell {GROUP_LABEL[card.group]}",
                                           on_click=lambda e, o=owner, g=card.group: app.do("sell", o, g))
                             if owner else ft.Text(""))
        prop_rows.append(ft.DataRow(cells=[
            ft.DataCell(ft.Text(GROUP_LABEL[card.group])), ft.DataCell(ft.Text(owner or "Bank")),
            ft.DataCell(ft.Text(theme.money(card.rent))), ft.DataCell(ft.Text(theme.money(card.value))),
            action]))
    items.append(ft.Row([ft.DataTable(
        columns=[ft.DataColumn(ft.Text("Card")), ft.DataColumn(ft.Text("Owner")), ft.DataColumn(ft.Text("Rent")),
                 ft.DataColumn(ft.Text("Value")), ft.DataColumn(ft.Text(""))],
        rows=prop_rows, column_spacing=10, heading_row_height=32, data_row_min_height=28, data_row_max_height=34)],
        scroll=ft.ScrollMode.AUTO))
    if current is not None:
        items.append(ft.Text(f"Actions for {current}", weight=ft.FontWeight.BOLD))
        stage = game.turn_stage()
        acts: list[ft.Control] = []
        if stage == "jail":
            acts.append(ft.FilledButton("Pay jail fee", on_click=lambda e: app.do("pay_jail")))
        if stage == "word":
            acts.append(ft.OutlinedButton("Buy 1 Bank tile", on_click=lambda e: app.do("buy_tiles", 1)))
        items.append(ft.Row(acts, wrap=True))
        if stage == "word":
            items.append(ft.Row([
                ft.TextField(label="Blank on square", value=f.square, width=130, dense=True,
                             on_change=lambda e: setattr(f, "square", e.control.value)),
                ft.OutlinedButton("Swap blank (own tile)", on_click=lambda e: app.do("blank_swap", f.square, False)),
                ft.OutlinedButton("Swap blank (Bank tile)", on_click=lambda e: app.do("blank_swap", f.square, True)),
            ], wrap=True))
    items.append(ft.Row([ft.Text("Transactions", weight=ft.FontWeight.BOLD),
                         ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo(),
                                       disabled=not game.can_undo())]))
    log = [ft.Text(t.text, size=13) for t in reversed(st.txns[-20:])]
    items.append(ft.Semantics(identifier="txn-log", content=ft.Container(
        bgcolor="#FAFAFA", padding=8, content=ft.Column(log, spacing=2, tight=True))))
    return ft.Column(items, spacing=10)
