"""Monopoly Deal's setup form (the house rules, each with the box's default) and the per-tab drafts
(`DealTab`: the setup answers and the card being played, its target and colour, a payment, a discard)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from companion.games.monopoly_deal.rules import VARIANT, HouseRules
from companion.games.monopoly_deal.table import DealTable, new_deal
from companion.ui.components.choice import Choice
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo, TableError

# Each house rule: a short question and its answers (value, label). The values are HouseRules' own; the
# first answer listed is not necessarily the default: the form preselects HouseRules()'s value.
HOUSE_RULES: list[tuple[str, str, list[tuple[Any, str]]]] = [
    ("double_with_any_rent", "Double the Rent with the any-colour rent card?", [(True, "Yes"), (False, "No")]),
    ("stack_double_rent", "Two Double the Rents on one rent (x4)?", [(True, "Yes"), (False, "No")]),
    ("excess_cards_to", "Cards over 7 at the end of a turn go to",
     [("discard_pile", "Discard pile"), ("draw_pile_bottom", "Bottom of the draw pile")]),
    ("received_building", "A house or hotel received as payment goes to",
     [("bank", "The bank (as money)"), ("property", "A complete set")]),
    ("broken_set_buildings", "Buildings on a set that is no longer complete",
     [("stay", "Stay on the set"), ("bank", "Go to the bank"), ("discard", "Are discarded")]),
    ("bank_property_wilds", "Property wild cards with a value may be banked?", [(True, "Yes"), (False, "No")]),
    ("forced_deal_from_full_set", "Forced Deal may give a card from a complete set?",
     [(True, "Yes"), (False, "No")]),
    ("reshuffle_discards", "Empty draw pile: shuffle the discards into a new one?", [(True, "Yes"), (False, "No")]),
    ("forced_deal_count", "Forced Deal cards in the deck", [(None, "3 (the box)"), (2, "2"), (4, "4")]),
    ("hotel_count", "Hotel cards in the deck", [(None, "2 (the box)"), (3, "3")]),
]


@dataclass
class DealTab:
    """One tab's Deal drafts. `face`: the card being played (a card name); the rest are the flow's
    answers so far. `reset()` after every recorded action."""

    house: dict[str, Any] = field(default_factory=dict)
    show_house: bool = False
    face: str | None = None
    target: str | None = None
    colour: str | None = None
    doubles: int = 0
    take: str | None = None
    pay_key: tuple[Any, ...] | None = None
    pay: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    wild: str | None = None

    def reset(self) -> None:
        self.face = None
        self.target = None
        self.colour = None
        self.doubles = 0
        self.take = None
        self.pay_key = None
        self.pay = []
        self.discard = []
        self.wild = None

    def house_rules(self) -> HouseRules:
        return HouseRules(**self.house)


def _key(value: Any) -> str:
    return "none" if value is None else str(value)


@ft.component
def DealSetupForm(app: AppState) -> ft.Control:
    tab: DealTab = app.local(VARIANT)
    rules = tab.house_rules()
    changed = sum(1 for name, _, _ in HOUSE_RULES if getattr(rules, name) != getattr(HouseRules(), name))

    def toggle() -> None:
        tab.show_house = not tab.show_house
        app.touch()

    def pick(name: str, options: list[tuple[Any, str]], key: str) -> None:
        tab.house[name] = next(v for v, _ in options if _key(v) == key)
        app.touch()

    items: list[ft.Control] = [
        ft.Text("2 to 5 players. Everyone is dealt 5 cards; the first player starts.", size=13),
        ft.Row([
            ft.Text("House rules: " + (f"{changed} changed" if changed else "as in the box"), size=13),
            ft.OutlinedButton("Hide house rules" if tab.show_house else "House rules", on_click=lambda e: toggle()),
        ], wrap=True),
    ]
    if tab.show_house:
        for name, question, options in HOUSE_RULES:
            items.append(ft.Text(question, size=13, weight=ft.FontWeight.BOLD))
            items.append(Choice([(_key(v), label) for v, label in options], _key(getattr(rules, name)),
                                partial(pick, name, options)))
    return ft.Column(items, spacing=6)


def start(app: AppState, players: list[PlayerInfo]) -> DealTable:
    tab: DealTab = app.local(VARIANT)
    tab.reset()
    try:
        house = tab.house_rules()
    except ValueError as exc:
        raise TableError(str(exc)) from None
    return new_deal(players, house)
