"""Monopoly Scrabble: the rest of the turn in order (score, token, landing, property, bingo, refill)."""

from __future__ import annotations

import flet as ft

from companion.ui import theme
from companion.ui.models import AppState


@ft.component
def MonopolySteps(app: AppState):
    game = app.game
    if game is None or game.kind != "monopoly" or game.finished:
        return ft.Container()
    st = game.mstate
    player = game.current_player
    f = app.form
    items: list[ft.Control] = []
    stage = game.turn_stage()
    if stage == "jail":
        items.append(ft.Text(f"{player} is in Jail: pay {theme.money(st.profile.jail_fee)} to Free Parking, "
                             "then play normally.", weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("Pay jail fee", on_click=lambda e: app.do("pay_jail")))
    elif stage == "word":
        items.append(ft.Text(f"Bank rack: {st.bank_rack - st.bought} tiles for sale at "
                             f"{theme.money(st.profile.tile_price)}" + (f" ({st.bought} bought this turn, play them now)"
                                                                       if st.bought else "") + "."))
        items.append(ft.Row([ft.OutlinedButton("Buy 1 Bank tile", on_click=lambda e: app.do("buy_tiles", 1))],
                            wrap=True))
    elif stage == "resolve":
        steps = [ft.Text(f"{i}. {s}") for i, s in enumerate(st.steps, 1)]
        items.append(ft.Semantics(identifier="turn-steps", content=ft.Container(
            bgcolor="#F1F8E9", padding=8, border_radius=6, content=ft.Column(steps, spacing=2, tight=True))))
        if "card" in st.pending:
            items.append(ft.Text("Card drawn: tap what it says.", weight=ft.FontWeight.BOLD))
            items.append(ft.TextField(label="Card amount", value=f.amount, width=120, dense=True,
                                      on_change=lambda e: setattr(f, "amount", e.control.value)))
            items.append(ft.Row([
                ft.OutlinedButton("Card: collect", on_click=lambda e: app.card("collect")),
                ft.OutlinedButton("Card: pay", on_click=lambda e: app.card("pay")),
                ft.OutlinedButton("Card: go to Jail", on_click=lambda e: app.card("go_to_jail")),
            ], wrap=True))
            items.append(ft.Row([ft.TextButton(f"Card gives {lab}",
                                               on_click=lambda e, g=g: app.card("take_property", g))
                                 for g, lab in _groups()], wrap=True))
        if "bingo" in st.pending:
            items.append(ft.Text("Bingo! Choose a Property Card nobody owns:", weight=ft.FontWeight.BOLD))
            items.append(ft.Row([ft.OutlinedButton(f"Take {lab}", on_click=lambda e, g=g: app.do("bingo_choice", g))
                                 for g, lab in _groups() if st.owner.get(g) is None], wrap=True))
        items.append(ft.FilledButton("Next player", on_click=lambda e: app.do("end_turn")))
    return ft.Column(items, spacing=6)


def _groups() -> list[tuple[str, str]]:
    from companion.ui.monopoly_adapter import GROUP_LABEL, GROUPS

    return [(g, GROUP_LABEL[g]) for g in GROUPS]
