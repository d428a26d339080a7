"""Monopoly Deal's small pieces of screen: a card button in its colour, a set chip ("Red 2/3 +House"),
one player's side of the table, the Just Say No chain, what just happened. No rule and no state here."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.games.monopoly_deal.table import BoardView, DealTable, Face, SetView
from companion.ui import theme
from companion.ui.components.layout import column_width
from companion.ui.models import AppState

# The printed colours of the property cards (text colour chosen for contrast on each).
COLOUR_HEX = {
    "brown": "#795548", "light_blue": "#81D4FA", "pink": "#D81B60", "orange": "#EF6C00", "red": "#C62828",
    "yellow": "#FDD835", "green": "#2E7D32", "dark_blue": "#1A237E", "railroad": "#212121", "utility": "#B0BEC5",
}
DARK_TEXT = {"light_blue", "yellow", "utility"}
KIND_HEX = {"money": "#A5D6A7", "rent": "#FFF59D", "action": "#FFCC80", "building": "#BCAAA4"}


def colour_hex(colour: str) -> str:
    return COLOUR_HEX.get(colour, "#9E9E9E")


def text_on(colour: str) -> str:
    return "#000000" if colour in DARK_TEXT or colour not in COLOUR_HEX else "#FFFFFF"


def face_label(face: Face) -> str:
    """A short label for a picker button (the rent cards' long names shortened)."""
    if face.kind == "rent":
        return "Rent: any colour, one player" if face.any_colour else "Rent " + face.key.removeprefix("Rent ") \
            .replace(" (all players)", "")
    if face.kind == "wild":
        return face.key.replace("Multicolour property wild", "Multicolour wild")
    if face.kind in ("action", "building"):
        return f"{face.key} ({face.value}M)"
    return face.key


def card_button(label: str, colours: tuple[str, ...] | list[str], on_click: Callable[[], None],
                kind: str = "property", selected: bool = False, dim: bool = False) -> ft.Control:
    """A tappable card: property colours as the button's colour; a two-colour card shows its first colour
    with a band of the second; money, rent and action cards in their own light colours. `dim`: a card
    that can be chosen but is not (a payment's cards left out) is drawn faded."""
    if colours and colours[0] in COLOUR_HEX:
        bg, fg = colour_hex(colours[0]), text_on(colours[0])
    else:
        bg, fg = KIND_HEX.get(kind, "#E0E0E0"), "#000000"
    side = ft.BorderSide(3, "#000000") if selected else None
    button = ft.Button(label, on_click=lambda e: on_click(), opacity=0.5 if selected is False and dim else 1.0,
                       style=ft.ButtonStyle(color=fg, bgcolor=bg, side=side, padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                                            shape=ft.RoundedRectangleBorder(radius=6)))
    if len(colours) == 2 and colours[1] in COLOUR_HEX:
        return ft.Container(content=button, padding=ft.Padding.only(bottom=4), border_radius=8,
                            bgcolor=colour_hex(colours[1]))
    return button


def set_chip(s: SetView) -> ft.Control:
    """A coloured chip: the colour's name, cards owned of the set size, buildings; bold border when full."""
    words = f"{s.name} {s.count}" + (" +House" if s.house else "") + (" +Hotel" if s.hotel else "")
    fg = text_on(s.colour)
    return ft.Container(
        padding=ft.Padding.symmetric(horizontal=8, vertical=3), border_radius=12, bgcolor=colour_hex(s.colour),
        border=ft.Border.all(3, "#FFD600" if s.complete else colour_hex(s.colour)),
        content=ft.Text(words + (" FULL" if s.complete else ""), size=13, color=fg,
                        weight=ft.FontWeight.BOLD if s.complete else ft.FontWeight.NORMAL))


def player_board(game: DealTable, index: int, b: BoardView, role: str) -> ft.Control:
    """One player's side of the table: name, what they do now (their turn, answering, paying), bank, hand
    count, sets won, the set chips."""
    win = game.st.limits.sets_to_win
    head = ft.Row([
        ft.Container(width=12, height=12, border_radius=6, bgcolor=theme.token(game.colour(b.player))),
        ft.Text(b.player, weight=ft.FontWeight.BOLD, size=15),
        *([ft.Text(role, size=13, weight=ft.FontWeight.BOLD, italic=True, color="#B71C1C")] if role else []),
        ft.Text(f"Bank {b.bank_total}M | Hand {b.hand} | {b.complete} of {win} sets", size=13),
    ], wrap=True, spacing=6)
    chips = [set_chip(s) for s in b.sets] or [ft.Text("No properties yet", size=12, italic=True)]
    turn = role == "turn"
    return ft.Semantics(identifier=f"board-{index}", content=ft.Container(
        padding=8, border_radius=8, bgcolor="#FFFDE7" if turn else "#F5F5F5",
        border=ft.Border.all(2, "#000000") if turn else None,
        content=ft.Column([head, ft.Row(chips, wrap=True, spacing=4, run_spacing=4)], spacing=4, tight=True)))


def boards(game: DealTable) -> ft.Control:
    """Every player's side; the turn's player framed, the player who must answer or pay named so."""
    w = game.st.waiting()
    turn = game.st.turn_player if not game.finished else None
    acting = {"answer": "to answer", "pay": "to pay"}.get(w.kind, "")

    def role(p: str) -> str:
        if acting and p == w.player and p != turn:
            return acting
        return "turn" if p == turn else ""

    return ft.Column([player_board(game, i, game.board(p), role(p)) for i, p in enumerate(game.players)],
                     spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def chain_box(game: DealTable) -> ft.Control | None:
    """The open action and its Just Say No chain, large enough for the whole table to read."""
    lines = game.chain_lines()
    if not lines:
        return None
    texts: list[ft.Control] = []
    for i, line in enumerate(lines):
        last = i == len(lines) - 1 and len(lines) > 1  # the closing line says what the chain means so far
        texts.append(ft.Text(("" if i == 0 or last else "-> ") + line, size=15 if not last else 14,
                             weight=ft.FontWeight.BOLD if not last else ft.FontWeight.NORMAL,
                             italic=last, color="#B71C1C" if "Just Say No" in line else None))
    return ft.Semantics(identifier="jsn-chain", content=ft.Container(
        bgcolor="#FFF3E0", padding=8, border_radius=8, border=ft.Border.all(2, "#EF6C00"),
        content=ft.Column(texts, spacing=2, tight=True)))


def recent_box(game: DealTable, n: int = 4) -> ft.Control:
    lines = game.recent(n)
    return ft.Semantics(identifier="recent", content=ft.Container(
        bgcolor="#FAFAFA", padding=8, border_radius=6,
        content=ft.Column([ft.Text("What happened (latest first)", size=12, italic=True),
                           *(ft.Text(s, size=13) for s in lines)], spacing=2, tight=True)))


def status_line(game: DealTable) -> ft.Control:
    return ft.Semantics(identifier="deal-status", content=ft.Text(game.status(), size=18,
                                                                  weight=ft.FontWeight.BOLD))


@ft.component
def DealFollower(app: AppState) -> ft.Control:
    """What a watching phone shows: whose move, the Just Say No chain, every player's side, the story."""
    game: DealTable = app.game
    items: list[ft.Control] = [status_line(game)]
    chain = chain_box(game)
    if chain is not None:
        items.append(chain)
    items += [boards(game), recent_box(game, 6)]
    # The shell draws this in the left column of a wide page, which takes its content's width: the sides
    # (chips that wrap) need a width of their own there.
    return ft.Container(width=column_width(0.6), content=ft.Column(items, spacing=8))
