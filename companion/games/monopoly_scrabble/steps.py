"""Monopoly Scrabble: the rest of the turn in the engine's order (what the last action did, then the
step the turn waits for: jail fee, card, bingo choice, debt, end), and the Bank tiles bought for a word."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_scrabble.rules import VARIANT
from companion.games.monopoly_scrabble.table import MonopolyScrabbleTable
from companion.ui import theme
from companion.ui.models import AppState

# How each card effect the rules offer (`CardOffer.effects`) is labelled on its button; the effects come
# from the rules, in their order.
CARD_LABELS = {
    "collect": "Card: collect", "pay_bank": "Card: pay the Bank", "pay_pot": "Card: pay Free Parking",
    "pay_each": "Card: pay each player", "collect_each": "Card: collect from each", "move_to": "Card: move to space",
    "move_by": "Card: move by steps", "go_to_jail": "Card: go to Jail", "take_property": "Card gives a Property Card",
    "none": "Card: nothing to do",
}


@ft.component
def MonopolyScrabbleSteps(app: AppState, word_entry: bool = True) -> ft.Control:
    """`word_entry=False` (the Bank screen) leaves out the Bank tiles field, which belongs to the word.
    Every button is a move the rules offer now (`MonopolyScrabbleTable.legal()`)."""
    game = app.game
    if game is None:
        return ft.Container()
    st = game.mstate
    f = app.form
    tab = app.local(VARIANT)
    items: list[ft.Control] = []
    if game.turn_lines:
        items.append(ft.Semantics(identifier="turn-steps", content=ft.Container(
            bgcolor="#F1F8E9", padding=8, border_radius=6,
            content=ft.Column([ft.Text(s, size=13) for s in game.turn_lines], spacing=2, tight=True))))
    if game.finished:
        return ft.Column(items, spacing=6)
    legal = game.legal()
    pending = st.pending
    step = pending[0] if pending else None
    names = game.group_names()
    price = theme.money_prefixed(st.profile.amounts.bank_tile_price.value)
    if legal.play is not None and word_entry:
        if legal.play.bank_tiles:
            items.append(ft.Text(f"Bank rack: {st.bank_rack_count} tiles for sale at {price} each; "
                                 f"{legal.play.player} can buy up to {legal.play.bank_tiles}. Letters bought "
                                 "for this word count as the player's own.", size=13))
            items.append(ft.TextField(label="Bought from Bank", value=f.bought, width=170, dense=True,
                                      hint_text="letters, e.g. G",
                                      capitalization=ft.TextCapitalization.CHARACTERS,
                                      on_change=lambda e: setattr(f, "bought", e.control.value)))
        else:
            items.append(ft.Text(f"Bank rack: {st.bank_rack_count} tiles at {price} each; {legal.play.player} "
                                 "cannot buy any now.", size=13))
    fee = legal.jail_fee()
    if fee is not None and step is not None:
        items.append(ft.Text(f"{fee.player} is in Jail: pay {theme.money_prefixed(step.amount)} to Free Parking, "
                             "then play normally.", weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("Pay jail fee", on_click=lambda e: app.do(MonopolyScrabbleTable.pay_jail)))
    card = legal.card
    if card is not None:
        deck = "Chance" if card.deck == "chance" else "Community Chest"
        items.append(ft.Semantics(identifier="card-step", content=ft.Text(
            f"{card.player} draws a {deck} card: tap what it says.", weight=ft.FontWeight.BOLD)))
        items.append(ft.Row([
            ft.TextField(label="Card amount", value=tab.amount, width=120, dense=True,
                         on_change=lambda e: setattr(tab, "amount", e.control.value)),
            ft.TextField(label="Track space or steps", value=tab.space, width=160, dense=True,
                         on_change=lambda e: setattr(tab, "space", e.control.value)),
        ], wrap=True))
        items.append(ft.Row([ft.OutlinedButton(CARD_LABELS.get(key, key), on_click=lambda e, k=key: record_card(app, k))
                             for key in card.effects if key != "take_property"], wrap=True, spacing=6, run_spacing=6))
        if "take_property" in card.effects:
            items.append(ft.Row([ft.TextButton(f"Card gives {names[g]}",
                                               on_click=lambda e, g=g: record_card(app, "take_property", g))
                                 for g in card.groups], wrap=True, spacing=0))
    choices = legal.bingo_choices()
    if choices:
        items.append(ft.Text(f"Bingo! {choices[0].player} chooses a Property Card:", weight=ft.FontWeight.BOLD))
        items.append(ft.Row([ft.OutlinedButton(f"Take {names[c.group]}", on_click=lambda e, g=c.group: app.do(MonopolyScrabbleTable.bingo_choice, g))
                             for c in choices], wrap=True))
    sales = legal.sales()
    if sales and step is not None:
        items.append(ft.Text(f"{st.describe_step(step)}: " + theme.money_prefixed(st.cash[step.player]) + " in cash. Sell "
                             "Property Cards to the Bank at half their value.", weight=ft.FontWeight.BOLD,
                             color="#B71C1C"))
        items.append(ft.Row([ft.OutlinedButton(f"Sell {names[s.group]}",
                                               on_click=lambda e, s=s: app.do(MonopolyScrabbleTable.sell, s.player, s.group))
                             for s in sales], wrap=True))
    if "played_out" in legal.end_reasons() and step is not None:
        items.append(ft.Text(st.describe_step(step) + ".", weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("Settle the game", on_click=lambda e: app.open_screen("end")))
    return ft.Column(items, spacing=6)


def record_card(app: AppState, effect: str, group: str | None = None) -> None:
    """Record the card the table drew: the amount, space or steps come from the card fields."""
    tab = app.local(VARIANT)
    amount = 0
    space: int | None = None
    steps: int | None = None
    if effect in ("collect", "pay_bank", "pay_pot", "pay_each", "collect_each"):
        try:
            amount = int(tab.amount.replace("M", "").replace(",", "").strip())
        except ValueError:
            app.fail("Type the amount printed on the card, like 200.")
            return
    elif effect in ("move_to", "move_by"):
        try:
            value = int(tab.space.strip())
        except ValueError:
            app.fail("Type the track space (0 is GO) or the number of steps the card says, like 5 or -3.")
            return
        if effect == "move_to":
            space = value
        else:
            steps = value
    app.do(MonopolyScrabbleTable.card, effect, amount, group, space, steps)
    if not app.error:
        tab.amount = ""
        tab.space = ""
