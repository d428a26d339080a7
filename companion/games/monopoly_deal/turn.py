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

from functools import partial
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
from companion.games.monopoly_deal.rules import (
    VARIANT,
    Accept,
    BankCard,
    Build,
    Discard,
    DoubleRent,
    Draw,
    EndTurn,
    JustSayNo,
    Lay,
    Pay,
    Rent,
    Waiting,
)
from companion.games.monopoly_deal.setup import DealTab
from companion.games.monopoly_deal.table import KIND_ORDER, KIND_TITLES, DealTable, Face
from companion.ui.components.choice import Choice
from companion.ui.components.game_screen import game_screen
from companion.ui.components.layout import split_flex, wide
from companion.ui.models import AppState
from companion.ui.table import TableAction

DISCARD = "__discard__"  # the tab's `face` while the referee picks the cards over the hand limit


def act(app: AppState, action: TableAction, *args: Any) -> None:
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


# ---------------------------------------------------------------- answers and payments


def payment_panel(app: AppState, game: DealTable, tab: DealTab, w: Waiting) -> list[ft.Control]:
    payer, amount = w.player or "", w.amount
    key = (game.id, game.moves, payer)
    if tab.pay_key != key:  # a new debt: start from the rules' safe default
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
        ft.Text("The safe payment is chosen (money first, complete sets and properties kept when anything else "
                "covers the debt): tap cards to change it. Money and table cards only, never the hand.", size=13),
    ]
    buttons = []
    for cid in payable:
        colour = game.card_colour(cid)
        label = f"{game.card_name(cid)} ({game.card_value(cid)}M)" if colour else f"{game.card_name(cid)} (bank)"
        buttons.append(card_button(label, (colour,) if colour else (), partial(toggle, cid), "money",
                                   selected=cid in chosen, dim=True))
    items.append(ft.Semantics(identifier="payment",
                              content=ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)))
    if sorted(chosen) == sorted(game.proposal(payer, amount)):
        # The default as chosen: why each card is in it (and which complete sets it keeps).
        for line in game.st.payment_reasons(payer, amount, chosen):
            items.append(ft.Text(line, size=13, italic=True))
    note = game.payment_note(payer, amount, chosen)
    items.append(ft.Semantics(identifier="payment-note", content=ft.Text(note, size=14, color="#1B5E20")))
    row: list[ft.Control] = []
    if game.offered(Pay):
        row.append(ft.FilledButton(f"{payer} pays {total}M", on_click=lambda e: act(app, DealTable.pay, payer, chosen)))
    if any(m.player == payer for m in game.offered(JustSayNo)):
        row.append(ft.OutlinedButton(f"Just Say No ({payer})", on_click=lambda e: act(app, DealTable.just_say_no, payer)))
    items.append(ft.Row(row, wrap=True, spacing=6, run_spacing=6))
    return items


def double_button(app: AppState, game: DealTable) -> list[ft.Control]:
    """Double the Rent, for the player whose rent nobody has answered yet (its own tap and play)."""
    out: list[ft.Control] = []
    for m in game.offered(DoubleRent):
        plays = game.st.plays_left
        out.append(ft.OutlinedButton(f"{m.player} adds Double the Rent ({plays} play{'s' if plays != 1 else ''} "
                                     "left)", on_click=lambda e, who=m.player: act(app, DealTable.double_rent, who)))
    return out


def answer_panel(app: AppState, game: DealTable, tab: DealTab, w: Waiting) -> list[ft.Control]:
    who = w.player or ""
    doubles = double_button(app, game)
    if w.kind == "pay" or any(m.player == who for m in game.offered(Pay)):
        return payment_panel(app, game, tab, w) + doubles
    against_jsn = len(w.chain) % 2 == 1
    accept = f"{who} accepts the Just Say No" if against_jsn else f"{who} accepts"
    row: list[ft.Control] = []
    if any(m.player == who for m in game.offered(Accept)):
        row.append(ft.FilledButton(accept, on_click=lambda e: act(app, DealTable.accept, who)))
    if any(m.player == who for m in game.offered(JustSayNo)):
        row.append(ft.OutlinedButton(f"Just Say No ({who})", on_click=lambda e: act(app, DealTable.just_say_no, who)))
    return [ft.Row(row, wrap=True, spacing=6, run_spacing=6), *doubles]


# ---------------------------------------------------------------- one card's flow


def _row(controls: list[ft.Control]) -> ft.Control:
    return ft.Row(controls, wrap=True, spacing=6, run_spacing=6)


def rent_flow(app: AppState, game: DealTable, tab: DealTab, player: str, face: Face,
              offers: list[Rent]) -> list[ft.Control]:
    if not offers:
        return [ft.Text(f"{player} has no set of these colours to charge rent for (a multicolour wild alone "
                        "earns none).", size=13)]
    colours = list(dict.fromkeys(m.colour for m in offers))
    colour = tab.colour if tab.colour in colours else (colours[0] if len(colours) == 1 else None)
    items: list[ft.Control] = [ft.Text("Charge rent for:", size=13)]
    items.append(_row([card_button(f"{game.colour_name(c)}: {game.st.rent_for(player, c)}M", (c,),
                                   partial(_set, app, tab, colour=c), selected=c == colour) for c in colours]))
    targets = list(dict.fromkeys(m.target for m in offers if m.target is not None))
    target = tab.target if tab.target in targets else (targets[0] if len(targets) == 1 else None)
    if targets:
        items += [ft.Text("Charge whom (one player)?", size=13),
                  Choice([(p, p) for p in targets], target or "", lambda p: _set(app, tab, target=p))]
    chosen = next((m for m in offers if m.colour == colour and m.target == (target if targets else None)), None)
    if chosen is not None:
        whom = chosen.target or "everyone"
        amount = game.st.rent_for(player, chosen.colour)
        items.append(ft.FilledButton(f"Charge {whom} {amount}M",
                                     on_click=lambda e: act(app, DealTable.rent, face.key, chosen.colour, chosen.target)))
        if any(f.key == "Double The Rent" for f in game.hand_faces(player)):
            items.append(ft.Text("Double the Rent is its own tap, right after this rent is charged.", size=13,
                                 italic=True))
    return items


def action_flow(app: AppState, game: DealTable, tab: DealTab, player: str, face: Face,
                offers: list[Any]) -> list[ft.Control]:
    key, action = face.key, face.action
    plays = [m for m in offers if not isinstance(m, BankCard)]
    if action == "pass_go" and plays:
        return [ft.FilledButton("Play Pass Go: draw 2", on_click=lambda e: act(app, DealTable.pass_go, key))]
    if action == "its_my_birthday" and plays:
        return [ft.FilledButton(f"Everyone pays {player} {game.st.limits.birthday}M",
                                on_click=lambda e: act(app, DealTable.birthday, key))]
    if action == "debt_collector" and plays:
        amount = game.st.limits.debt_collector
        return [ft.Text(f"Who pays {player} {amount}M?", size=13),
                Choice([(m.target, m.target) for m in plays], "", lambda p: act(app, DealTable.debt_collector, key, p))]
    if action == "just_say_no":
        return [ft.Text("Just Say No answers an action played against you; on your own turn it can only be "
                        "banked.", size=13)]
    if action == "double_the_rent":
        return [ft.Text("Double the Rent joins a rent card: tap the rent card first; once the rent is charged, "
                        "Double the Rent is offered beside the answers.", size=13)]
    words = {"sly_deal": "a property outside a complete set", "forced_deal": "a property outside a complete set",
             "deal_breaker": "a complete set"}
    if not plays:
        return [ft.Text(f"No opponent has {words.get(action or '', 'anything to take')} now.", size=13)]
    targets = list(dict.fromkeys(m.target for m in plays))
    target = tab.target if tab.target in targets else (targets[0] if len(targets) == 1 else None)
    items: list[ft.Control] = [ft.Text("Against whom?", size=13),
                               Choice([(p, p) for p in targets], target or "",
                                      lambda p: _set(app, tab, target=p, take=None, colour=None))]
    if target is None:
        return items
    mine = [m for m in plays if m.target == target]

    def card_row(cards: list[str], on_pick: Any, chosen: str | None = None) -> ft.Control:
        return _row([card_button(game.card_name(c), (game.card_colour(c) or "",), partial(on_pick, c),
                                 selected=c == chosen) for c in cards])

    if action == "deal_breaker":
        return [*items, ft.Text(f"Take which of {target}'s complete sets?", size=13),
                _row([card_button(f"{game.colour_name(m.colour)} set", (m.colour,),
                                  partial(act, app, DealTable.deal_breaker, key, target, m.colour)) for m in mine])]
    takes = list(dict.fromkeys(m.take for m in mine))
    if action == "sly_deal":
        return [*items, ft.Text(f"Take which of {target}'s cards?", size=13),
                card_row(takes, lambda c: act(app, DealTable.sly_deal, key, target, c))]
    if action == "forced_deal":
        items += [ft.Text(f"Take which of {target}'s cards?", size=13), card_row(takes, lambda c: _set(app, tab, take=c),
                                                                              tab.take)]
        gives = [m.give for m in mine if m.take == tab.take]
        if gives:
            take = tab.take
            items += [ft.Text(f"Give {target} which of {player}'s cards?", size=13),
                      card_row(gives, lambda c: act(app, DealTable.forced_deal, key, target, take, c))]
        return items
    return items


def card_flow(app: AppState, game: DealTable, tab: DealTab, player: str) -> list[ft.Control]:
    face = next((f for f in game.faces(player) if f.key == tab.face), None)
    if face is None:
        tab.reset()
        return []
    offers = game.offers(player, face.key)
    heading = ft.Semantics(identifier="card-flow", content=_bold(f"{player} plays {face_label(face)}"))
    items: list[ft.Control] = [ft.Row([heading,
                                       ft.TextButton("Cancel", on_click=lambda e: _set(app, tab, face=None))],
                                      wrap=True)]
    lays = [m for m in offers if isinstance(m, Lay)]
    builds = [m for m in offers if isinstance(m, Build)]
    if face.kind == "wild" and lays:
        items.append(ft.Text("Lay it in which colour?", size=13))
        items.append(_row([card_button(game.colour_name(m.colour or ""), (m.colour or "",),
                                       partial(act, app, DealTable.lay, face.key, m.colour)) for m in lays]))
    elif face.kind == "rent":
        items += rent_flow(app, game, tab, player, face, [m for m in offers if isinstance(m, Rent)])
    elif face.kind == "building":
        if builds:
            items.append(ft.Text(f"Put the {face.key.lower()} on which complete set?", size=13))
            items.append(_row([card_button(game.colour_name(m.colour), (m.colour,),
                                           partial(act, app, DealTable.build, face.key, m.colour)) for m in builds]))
        else:
            need = "a complete set (not railroads or utilities)" if face.action == "house" else \
                "a complete set with a house"
            items.append(ft.Text(f"A {face.key.lower()} needs {need}: {player} has none now.", size=13))
    elif face.kind == "action":
        items += action_flow(app, game, tab, player, face, offers)
    elif face.kind == "property" and lays:
        items.append(ft.FilledButton("Lay it", on_click=lambda e: act(app, DealTable.lay, face.key, None)))
    if any(isinstance(m, BankCard) for m in offers):
        items.append(ft.OutlinedButton(f"Bank it as {face.value}M", on_click=lambda e: act(app, DealTable.bank, face.key)))
    # The identifier sits on the heading: a Semantics around the whole panel would merge its texts into one
    # label, and a player's screen reader (and the browser test) would no longer find each line.
    return [ft.Container(bgcolor="#E3F2FD", padding=8, border_radius=8,
                         content=ft.Column(items, spacing=6, tight=True))]


# ---------------------------------------------------------------- picker, discard, wilds


def pick_face(app: AppState, game: DealTable, tab: DealTab, face: Face) -> None:
    """A card whose only way down is one tap (money to the bank, a property to its colour) is recorded
    at once; any other opens its flow."""
    offers = game.offers(game.st.turn_player or "", face.key)
    if face.kind in ("money", "property") and len(offers) == 1:
        m = offers[0]
        if isinstance(m, BankCard):
            act(app, DealTable.bank, face.key)
            return
        if isinstance(m, Lay):
            act(app, DealTable.lay, face.key, None)
            return
    _set(app, tab, face=face.key, target=None, colour=None, doubles=0, take=None)


def picker(app: AppState, game: DealTable, tab: DealTab, player: str, on_pick: Any,
           title: str, faces: list[Face] | None = None) -> ft.Control:
    by_kind: dict[str, list[Face]] = {}
    for face in game.faces(player) if faces is None else faces:
        by_kind.setdefault(face.kind, []).append(face)
    rows: list[ft.Control] = [_bold(title), ft.Text(f"Only the cards that can still be in {player}'s hand are "
                                                    "listed.", size=12, italic=True)]
    for kind in KIND_ORDER:
        faces_of_kind = by_kind.get(kind, [])
        if not faces_of_kind:
            continue
        rows.append(ft.Text(KIND_TITLES[kind], size=12, italic=True))
        rows.append(ft.Row([card_button(face_label(f), f.colours, partial(on_pick, f), f.kind)
                            for f in faces_of_kind], wrap=True, spacing=4, run_spacing=4))
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
    if any(m.unseen for m in game.offered(Discard)):
        items.append(ft.OutlinedButton(f"{need} go face down under the draw pile",
                                       on_click=lambda e: act(app, DealTable.discard, [], True)))
    if len(chosen) == need:
        items.append(ft.FilledButton(f"Discard {need}", on_click=lambda e: act(app, DealTable.discard, list(chosen))))
    else:
        items.append(picker(app, game, tab, player, add, f"Pick {need - len(chosen)} more card(s) to discard",
                            game.hand_faces(player)))
    return items


def wild_panel(app: AppState, game: DealTable, tab: DealTab, player: str) -> list[ft.Control]:
    wilds = game.wild_moves(player)
    if not wilds:
        return []
    items: list[ft.Control] = [
        ft.Text("Move a wild card (no play):", size=13, italic=True),
        _row([card_button(f"{game.card_name(c)} (in {game.colour_name(game.wild_colour(c))})",
                          (game.wild_colour(c),), partial(_set, app, tab, wild=c), selected=c == tab.wild)
              for c in wilds])]
    if tab.wild in wilds:
        wild = tab.wild
        items.append(_row([card_button(f"Move to {game.colour_name(c)}", (c,),
                                       partial(act, app, DealTable.move_wild, wild, c)) for c in wilds[wild]]))
    return items


# ---------------------------------------------------------------- the screen


@ft.component
@game_screen
def DealTurn(app: AppState, game: DealTable) -> ft.Control:
    tab: DealTab = app.local(VARIANT)
    st = game.st
    w = st.waiting()
    items: list[ft.Control] = [status_line(game)]
    player = w.player or ""
    top: list[ft.Control] = []
    # Undo first and always drawn (greyed when there is nothing to undo): it never moves into the place of
    # a button that just went away (a double tap on "End Bob's turn" once hit Undo drawn where End was).
    top.append(ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo(),
                             disabled=not game.can_undo()))
    if game.offered(Discard) and w.kind == "play":
        hand, limit = st.hands[player], st.limits.hand_limit
        if tab.face != DISCARD:
            top.append(ft.FilledButton(f"End turn: discard {hand - limit} first",
                                       on_click=lambda e: _set(app, tab, face=DISCARD, discard=[])))
    elif game.offered(EndTurn):
        # Filled once the plays are used up; outlined before, so it does not look like the next step.
        button = ft.FilledButton if st.plays_left == 0 or st.hands[player] == 0 else ft.OutlinedButton
        top.append(button(f"End {player}'s turn", on_click=lambda e: act(app, DealTable.end_turn)))
    if top:
        items.append(ft.Row(top, wrap=True, spacing=6))
    if w.kind == "play":
        hand, limit = st.hands[player], st.limits.hand_limit
        items.append(ft.Text(f"Hand limit {limit}: {player} holds {hand} card{'s' if hand != 1 else ''}"
                             + (f", so {hand - limit} must go at the end of the turn." if hand > limit else "."),
                             size=13, color="#B71C1C" if hand > limit else None))
    if game.finished:
        items.append(ft.FilledButton("See the winner", on_click=lambda e: app.open_screen("end")))
    chain = chain_box(game)
    if chain is not None:
        items.append(chain)
    if w.kind in ("answer", "pay"):
        items += answer_panel(app, game, tab, w)
    elif w.kind == "draw" and game.offered(Draw):
        items.append(ft.FilledButton(w.sentence[:1].upper() + w.sentence[1:], on_click=lambda e: act(app, DealTable.draw)))
    elif w.kind == "play" and tab.face == DISCARD:
        items += discard_panel(app, game, tab, player)
    elif w.kind == "play" and tab.face:
        items += card_flow(app, game, tab, player)
    # On a wide page the sides of the table (banks, sets) are on the left, the turn beside them.
    before, items = items, []
    table = [boards(game)]
    if w.kind == "play" and not tab.face:
        items += wild_panel(app, game, tab, player)  # before the long picker: moving a wild is no play
        if game.faces(player):
            items.append(picker(app, game, tab, player, lambda f: pick_face(app, game, tab, f),
                                f"{player} plays a card ({st.plays_left} of {st.limits.plays_per_turn} plays left):"))
        elif st.plays_left == 0:
            items.append(ft.Text(f"{player} has used all {st.limits.plays_per_turn} plays: end the turn.", size=14))
        else:
            items.append(ft.Text(f"{player} has no cards left: end the turn (5 are drawn next turn).", size=14))
    # What just happened: last on a phone; on a wide page under the sides, clear of the long picker.
    (table if wide() else items).append(recent_box(game))
    return split_flex(table, before, items, main_flex=5, side_flex=6, spacing=8)
