"""Monopoly Deal's table screen for the referee: whose move and plays left, the Just Say No chain, the
step the game waits for (draw, an answer, a payment, the discard to 7), each card as a short guided flow
(card, then target, then colour or set), every player's side of the table, and the card picker. On a wide page the sides of the table are on the
left and the turn beside them (`layout.split_flex`).

The picker lists the faces of the cards that can still be in the player's hand (the engine knows which:
`DealTable.faces`), so the referee taps, never types. A money card banks and a one-colour property lays
in one tap; every other card opens its flow, which records the play on its last choice (or on the
Charge button for rent, whose doubles are optional). Every tap goes through `app.do` (stale-screen
guard, save, publish); the engine refuses what the rules do not allow, with a sentence.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.games.monopoly_deal.cards import (
    boards,
    card_button,
    chain_box,
    face_label,
    recent_box,
    status_line,
)
from companion.games.monopoly_deal.rules import VARIANT, Waiting
from companion.games.monopoly_deal.setup import DealTab
from companion.games.monopoly_deal.table import KIND_ORDER, KIND_TITLES, DealTable, Face
from companion.ui.components.choice import Choice
from companion.ui.components.layout import split_flex, wide
from companion.ui.models import AppState

DISCARD = "__discard__"  # the tab's `face` while the referee picks the cards over the hand limit


def act(app: AppState, action: str, *args: Any) -> None:
    """Record one tap; on success the tab's draft starts again."""
    app.do(action, *args)
    if not app.error:
        app.local(VARIANT).reset()
        app.touch()


def _set(app: AppState, tab: DealTab, **changes: Any) -> None:
    for name, value in changes.items():
        setattr(tab, name, value)
    app.touch()


def _bold(text: str) -> ft.Control:
    return ft.Text(text, weight=ft.FontWeight.BOLD, size=15)


def _targets(app: AppState, tab: DealTab, game: DealTable, player: str, on_pick: Any = None) -> ft.Control:
    """The opponents as a choice row (the one chosen filled)."""
    return Choice([(p, p) for p in game.opponents(player)], tab.target or "",
                  on_pick or (lambda p: _set(app, tab, target=p, take=None, colour=None)))


# ---------------------------------------------------------------- answers and payments


def payment_panel(app: AppState, game: DealTable, tab: DealTab, w: Waiting) -> list[ft.Control]:
    payer, amount = w.player or "", w.amount
    key = (game.id, game.moves, payer)
    if tab.pay_key != key:  # a new debt: start from the engine's proposal (the cheapest payment)
        tab.pay_key = key
        tab.pay = game.proposal(payer, amount)
    payable = game.payable(payer)
    chosen = [c for c in tab.pay if c in payable]
    total = sum(game.card_value(c) for c in chosen)

    def toggle(cid: str) -> None:
        tab.pay = [c for c in tab.pay if c != cid] if cid in tab.pay else [*tab.pay, cid]
        app.touch()

    items: list[ft.Control] = [
        _bold(f"{payer} owes {w.actor} {amount}M."),
        ft.Text("The cheapest payment is chosen: tap cards to change it. Money and table cards only, never "
                "the hand.", size=13),
    ]
    buttons = []
    for cid in payable:
        colour = game.card_colour(cid)
        label = f"{game.card_name(cid)} ({game.card_value(cid)}M)" if colour else f"{game.card_name(cid)} (bank)"
        buttons.append(card_button(label, (colour,) if colour else (), lambda c=cid: toggle(c), "money",
                                   selected=cid in chosen, dim=True))
    items.append(ft.Semantics(identifier="payment",
                              content=ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)))
    everything = sum(game.card_value(c) for c in payable)
    spare = next((c for c in chosen if total - game.card_value(c) >= amount), None)
    if spare is not None:
        left = total - game.card_value(spare)
        note = (f"Too much: {left}M already covers {amount}M without {game.card_name(spare)}, and no change is "
                "given. Tap a card to take it out.")
    elif total >= amount:
        over = total - amount
        note = f"Paying {total}M for {amount}M. " + (f"No change is given: {over}M over." if over else
                                                     "Exact: no change is due.")
    elif set(chosen) == set(payable):
        note = f"{payer} has only {everything}M in bank and properties: everything goes and {amount - total}M is forgiven."
    else:
        note = f"Paying {total}M for {amount}M: not enough. Add cards (a short payer gives everything)."
    items.append(ft.Semantics(identifier="payment-note", content=ft.Text(note, size=14, color="#1B5E20")))
    row: list[ft.Control] = [ft.FilledButton(f"{payer} pays {total}M", on_click=lambda e: act(app, "pay", payer,
                                                                                            chosen))]
    if w.kind == "answer" and w.may_say_no:
        row.append(ft.OutlinedButton(f"Just Say No ({payer})", on_click=lambda e: act(app, "just_say_no", payer)))
    items.append(ft.Row(row, wrap=True, spacing=6, run_spacing=6))
    return items


def answer_panel(app: AppState, game: DealTable, tab: DealTab, w: Waiting) -> list[ft.Control]:
    who = w.player or ""
    if w.kind == "pay" or (w.amount > 0 and who == w.target and not len(w.chain) % 2):
        return payment_panel(app, game, tab, w)
    against_jsn = len(w.chain) % 2 == 1
    accept = f"{who} accepts the Just Say No" if against_jsn else f"{who} accepts"
    row: list[ft.Control] = [ft.FilledButton(accept, on_click=lambda e: act(app, "accept", who))]
    if w.may_say_no:
        row.append(ft.OutlinedButton(f"Just Say No ({who})", on_click=lambda e: act(app, "just_say_no", who)))
    return [ft.Row(row, wrap=True, spacing=6, run_spacing=6)]


# ---------------------------------------------------------------- one card's flow


def rent_flow(app: AppState, game: DealTable, tab: DealTab, player: str, face: Face) -> list[ft.Control]:
    options = [(c, r) for c, r in game.rent_colours(player, face) if r > 0]
    if not options:
        return [ft.Text(f"{player} has no set of these colours to charge rent for (a multicolour wild alone "
                        "earns none).", size=13)]
    colour = tab.colour if tab.colour in [c for c, _ in options] else (options[0][0] if len(options) == 1 else None)
    items: list[ft.Control] = [ft.Text("Charge rent for:", size=13)]
    items.append(ft.Row([card_button(f"{game.colour_name(c)}: {r}M", (c,), lambda c=c: _set(app, tab, colour=c),
                                     selected=c == colour) for c, r in options], wrap=True, spacing=6, run_spacing=6))
    target = tab.target
    if face.any_colour:
        opponents = game.opponents(player)
        target = target if target in opponents else (opponents[0] if len(opponents) == 1 else None)
        items += [ft.Text("Charge whom (one player)?", size=13),
                  Choice([(p, p) for p in opponents], target or "", lambda p: _set(app, tab, target=p))]
    plays_left = game.st.plays_left
    can_double = any(f.key == "Double The Rent" for f in game.faces(player)) and game.double_limit(face) > 0
    doubles = min(tab.doubles, game.double_limit(face), plays_left - 1) if can_double else 0
    if can_double and plays_left > 1:
        options_d = [("0", "No Double the Rent"), ("1", "Double the Rent (x2)")]
        if min(game.double_limit(face), plays_left - 1) >= 2:
            options_d.append(("2", "Two Double the Rents (x4)"))
        items.append(Choice(options_d, str(doubles), lambda v: _set(app, tab, doubles=int(v))))
    elif can_double:
        items.append(ft.Text("Double the Rent would be a 4th play: not this turn.", size=13, italic=True))
    if colour is not None and (target is not None or not face.any_colour):
        amount = game.st.rent_for(player, colour) * 2 ** doubles
        whom = target if face.any_colour else "everyone"
        plays = 1 + doubles
        items.append(ft.FilledButton(f"Charge {whom} {amount}M" + (f" ({plays} plays)" if plays > 1 else ""),
                                     on_click=lambda e: act(app, "rent", face.key, colour,
                                                            target if face.any_colour else None, doubles)))
    return items


def action_flow(app: AppState, game: DealTable, tab: DealTab, player: str, face: Face) -> list[ft.Control]:
    key, action = face.key, face.action
    opponents = game.opponents(player)
    target = tab.target if tab.target in opponents else (opponents[0] if len(opponents) == 1 else None)
    if action == "pass_go":
        return [ft.FilledButton("Play Pass Go: draw 2", on_click=lambda e: act(app, "pass_go", key))]
    if action == "its_my_birthday":
        return [ft.FilledButton(f"Everyone pays {player} {game.st.limits.birthday}M",
                                on_click=lambda e: act(app, "birthday", key))]
    if action == "debt_collector":
        amount = game.st.limits.debt_collector
        return [ft.Text(f"Who pays {player} {amount}M?", size=13),
                Choice([(p, p) for p in opponents], "", lambda p: act(app, "debt_collector", key, p))]
    if action == "just_say_no":
        return [ft.Text("Just Say No answers an action played against you; on your own turn it can only be "
                        "banked.", size=13)]
    if action == "double_the_rent":
        return [ft.Text("Double the Rent goes with a rent card: cancel and tap the rent card.", size=13)]
    items: list[ft.Control] = [ft.Text("Against whom?", size=13), _targets(app, tab, game, player)]
    if target is None:
        return items
    if action == "deal_breaker":
        sets = game.complete_colours(target)
        if not sets:
            return [*items, ft.Text(f"{target} has no complete set to take.", size=13)]
        return [*items, ft.Text(f"Take which of {target}'s complete sets?", size=13),
                ft.Row([card_button(f"{game.colour_name(c)} set", (c,), lambda c=c: act(app, "deal_breaker", key,
                                                                                        target, c))
                        for c in sets], wrap=True, spacing=6, run_spacing=6)]
    takeable = game.takeable(target)
    if not takeable:
        return [*items, ft.Text(f"{target} has no property outside a complete set to take.", size=13)]

    def card_row(cards: list[str], on_pick: Any, chosen: str | None = None) -> ft.Control:
        return ft.Row([card_button(game.card_name(c), (game.card_colour(c) or "",), lambda c=c: on_pick(c),
                                   selected=c == chosen) for c in cards], wrap=True, spacing=6, run_spacing=6)

    if action == "sly_deal":
        return [*items, ft.Text(f"Take which of {target}'s cards?", size=13),
                card_row(takeable, lambda c: act(app, "sly_deal", key, target, c))]
    if action == "forced_deal":
        items += [ft.Text(f"Take which of {target}'s cards?", size=13),
                  card_row(takeable, lambda c: _set(app, tab, take=c), tab.take)]
        if tab.take in takeable:
            givable = game.givable(player)
            if not givable:
                items.append(ft.Text(f"{player} has no property to give outside a complete set.", size=13))
            else:
                take = tab.take
                items += [ft.Text(f"Give {target} which of {player}'s cards?", size=13),
                          card_row(givable, lambda c: act(app, "forced_deal", key, target, take, c))]
        return items
    return items


def card_flow(app: AppState, game: DealTable, tab: DealTab, player: str) -> list[ft.Control]:
    face = next((f for f in game.faces(player) if f.key == tab.face), None)
    if face is None:
        tab.reset()
        return []
    heading = ft.Semantics(identifier="card-flow", content=_bold(f"{player} plays {face_label(face)}"))
    items: list[ft.Control] = [ft.Row([heading,
                                       ft.TextButton("Cancel", on_click=lambda e: _set(app, tab, face=None))],
                                      wrap=True)]
    if face.kind == "wild":
        items.append(ft.Text("Lay it in which colour?", size=13))
        items.append(ft.Row([card_button(game.colour_name(c), (c,), lambda c=c: act(app, "lay", face.key, c))
                             for c in game.wild_colours(face)], wrap=True, spacing=6, run_spacing=6))
    elif face.kind == "rent":
        items += rent_flow(app, game, tab, player, face)
    elif face.kind == "building":
        colours = game.buildable(player, face)
        if colours:
            items.append(ft.Text(f"Put the {face.key.lower()} on which complete set?", size=13))
            items.append(ft.Row([card_button(game.colour_name(c), (c,), lambda c=c: act(app, "build", face.key, c))
                                 for c in colours], wrap=True, spacing=6, run_spacing=6))
        else:
            need = "a complete set (not railroads or utilities)" if face.action == "house" else \
                "a complete set with a house"
            items.append(ft.Text(f"A {face.key.lower()} needs {need}: {player} has none now.", size=13))
    elif face.kind == "action":
        items += action_flow(app, game, tab, player, face)
    elif face.kind == "property":
        items.append(ft.FilledButton("Lay it", on_click=lambda e: act(app, "lay", face.key, None)))
    if game.can_bank(face):
        items.append(ft.OutlinedButton(f"Bank it as {face.value}M", on_click=lambda e: act(app, "bank", face.key)))
    # The identifier sits on the heading: a Semantics around the whole panel would merge its texts into one
    # label, and a player's screen reader (and the browser test) would no longer find each line.
    return [ft.Container(bgcolor="#E3F2FD", padding=8, border_radius=8,
                         content=ft.Column(items, spacing=6, tight=True))]


# ---------------------------------------------------------------- picker, discard, wilds


def pick_face(app: AppState, game: DealTable, tab: DealTab, face: Face) -> None:
    if face.kind == "money":
        act(app, "bank", face.key)
    elif face.kind == "property":
        act(app, "lay", face.key, None)
    else:
        _set(app, tab, face=face.key, target=None, colour=None, doubles=0, take=None)


def picker(app: AppState, game: DealTable, tab: DealTab, player: str, on_pick: Any,
           title: str) -> ft.Control:
    by_kind: dict[str, list[Face]] = {}
    for face in game.faces(player):
        by_kind.setdefault(face.kind, []).append(face)
    rows: list[ft.Control] = [_bold(title), ft.Text(f"Only the cards that can still be in {player}'s hand are "
                                                    "listed.", size=12, italic=True)]
    for kind in KIND_ORDER:
        faces = by_kind.get(kind, [])
        if not faces:
            continue
        rows.append(ft.Text(KIND_TITLES[kind], size=12, italic=True))
        rows.append(ft.Row([card_button(face_label(f), f.colours, lambda f=f: on_pick(f), f.kind) for f in faces],
                           wrap=True, spacing=4, run_spacing=4))
    return ft.Semantics(identifier="card-picker", content=ft.Column(rows, spacing=4))


def discard_panel(app: AppState, game: DealTable, tab: DealTab, player: str) -> list[ft.Control]:
    hand = game.st.hands[player]
    limit = game.st.limits.hand_limit
    need = hand - limit
    chosen = tab.discard

    def add(face: Face) -> None:
        if len(tab.discard) < need:
            tab.discard = [*tab.discard, face.key]
        app.touch()

    items: list[ft.Control] = [
        _bold(f"{player} holds {hand} cards: discard {need} to keep {limit}."),
        ft.Row([ft.Text("Discarding: " + (", ".join(chosen) or "nothing yet"), size=13),
                ft.TextButton("Clear", on_click=lambda e: _set(app, tab, discard=[])),
                ft.TextButton("Cancel", on_click=lambda e: _set(app, tab, face=None, discard=[]))], wrap=True),
    ]
    if game.discards_face_down:
        items.append(ft.OutlinedButton(f"{need} go face down under the draw pile: end the turn",
                                       on_click=lambda e: act(app, "discard_and_end", [], True)))
    if len(chosen) == need:
        items.append(ft.FilledButton(f"Discard {need} and end the turn",
                                     on_click=lambda e: act(app, "discard_and_end", list(chosen))))
    else:
        items.append(picker(app, game, tab, player, add, f"Pick {need - len(chosen)} more card(s) to discard"))
    return items


def wild_panel(app: AppState, game: DealTable, tab: DealTab, player: str) -> list[ft.Control]:
    wilds = game.own_wilds(player)
    if not wilds:
        return []
    items: list[ft.Control] = [ft.Text("Move a wild card (no play):", size=13, italic=True),
                               ft.Row([card_button(f"{game.card_name(c)} (in {game.colour_name(col)})", (col,),
                                                   lambda c=c: _set(app, tab, wild=c), selected=c == tab.wild)
                                       for c, col in wilds], wrap=True, spacing=4, run_spacing=4)]
    current = dict(wilds).get(tab.wild or "")
    if tab.wild and current:
        face = next(Face.of(game.st.card(c)) for c, _ in wilds if c == tab.wild)
        wild = tab.wild
        items.append(ft.Row([card_button(f"Move to {game.colour_name(c)}", (c,),
                                         lambda c=c: act(app, "move_wild", wild, c))
                             for c in game.wild_colours(face) if c != current], wrap=True, spacing=4, run_spacing=4))
    return items


# ---------------------------------------------------------------- the screen


@ft.component
def DealTurn(app: AppState):
    game: DealTable | None = app.game
    if game is None:
        return ft.Text("No game yet.")
    tab: DealTab = app.local(VARIANT)
    st = game.st
    w = st.waiting()
    items: list[ft.Control] = [status_line(game)]
    player = w.player or ""
    top: list[ft.Control] = []
    if w.kind == "play":
        hand, limit = st.hands[player], st.limits.hand_limit
        if hand > limit:
            if tab.face != DISCARD:
                top.append(ft.FilledButton(f"End turn: discard {hand - limit} first",
                                           on_click=lambda e: _set(app, tab, face=DISCARD, discard=[])))
        else:
            # Filled once the plays are used up; outlined before, so it does not look like the next step.
            button = ft.FilledButton if st.plays_left == 0 or st.hands[player] == 0 else ft.OutlinedButton
            top.append(button(f"End {player}'s turn", on_click=lambda e: act(app, "end_turn")))
    if game.can_undo():
        top.append(ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo()))
    if top:
        items.append(ft.Row(top, wrap=True, spacing=6))
    if w.kind == "play":
        hand, limit = st.hands[player], st.limits.hand_limit
        items.append(ft.Text(f"Hand limit {limit}: {player} holds {hand} card{'s' if hand != 1 else ''}"
                             + (f", so {hand - limit} must go at the end of the turn." if hand > limit else "."),
                             size=13, color="#B71C1C" if hand > limit else None))
    if game.finished:
        items.append(ft.FilledButton("See the winner", on_click=lambda e: app.go("end")))
    chain = chain_box(game)
    if chain is not None:
        items.append(chain)
    if w.kind in ("answer", "pay"):
        items += answer_panel(app, game, tab, w)
    elif w.kind == "draw":
        items.append(ft.FilledButton(w.sentence[:1].upper() + w.sentence[1:], on_click=lambda e: act(app, "draw")))
    elif w.kind == "play" and tab.face == DISCARD:
        items += discard_panel(app, game, tab, player)
    elif w.kind == "play" and tab.face:
        items += card_flow(app, game, tab, player)
    # On a wide page the sides of the table (banks, sets) are on the left, the turn beside them.
    before, items = items, []
    table = [boards(game)]
    if w.kind == "play" and not tab.face:
        items += wild_panel(app, game, tab, player)  # before the long picker: moving a wild is no play
        if st.plays_left > 0 and st.hands[player] > 0:
            items.append(picker(app, game, tab, player, lambda f: pick_face(app, game, tab, f),
                                f"{player} plays a card ({st.plays_left} of {st.limits.plays_per_turn} plays left):"))
        elif st.plays_left == 0:
            items.append(ft.Text(f"{player} has used all {st.limits.plays_per_turn} plays: end the turn.", size=14))
        else:
            items.append(ft.Text(f"{player} has no cards left: end the turn (5 are drawn next turn).", size=14))
    # What just happened: last on a phone; on a wide page under the sides, clear of the long picker.
    (table if wide() else items).append(recent_box(game))
    return split_flex(table, before, items, main_flex=5, side_flex=6, spacing=8)
