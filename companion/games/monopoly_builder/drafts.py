"""One browser tab's Monopoly Builder drafts (`GameUI.tab_state`): the setup answers, the profile being
edited and its fields, and what the referee is putting together before a tap records it (chips to
discard or pay, a bid, a trade, a foundation picked). Plain Python: nothing here changes the game."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly_builder.table import DEFAULT_SETTINGS


class TradeSide:
    """What one side of a trade gives: cash typed, chips counted, deeds and kept cards picked."""

    def __init__(self) -> None:
        self.cash = ""
        self.chips: dict[str, int] = {}
        self.deeds: list[str] = []
        self.cards: list[str] = []

    def as_dict(self) -> dict[str, Any]:
        text = self.cash.replace("M", "").replace(",", "").strip()
        cash = int(text) if text.isdigit() else 0
        return {"cash": cash, "resources": dict(self.chips), "deeds": list(self.deeds), "cards": list(self.cards)}

    def cash_ok(self) -> bool:
        text = self.cash.replace("M", "").replace(",", "").strip()
        return not text or text.isdigit()


class BuilderTab:
    """Drafts of one tab (see the module docstring)."""

    def __init__(self) -> None:
        # setup
        self.settings: dict[str, str] = dict(DEFAULT_SETTINGS)
        self.seats: list[str] = []  # the box colour of each seat as last shown
        # the profile editor
        self.profile: Any = None  # a profile.Profile being edited; None = not loaded yet
        self.edit_deed = ""
        self.deed_fields: dict[str, str] = {}
        self.edit_colour = "red"
        self.edit_floor = 1
        self.floor_fields: dict[str, str] = {}
        self.edit_space = ""
        self.space_kind = "deed"
        self.space_name = ""
        self.space_deed = ""
        self.space_resource = ""
        self.space_chart = ""
        self.edit_card = ""
        self.card_fields: dict[str, str] = {}
        self.edit_value = "amounts.go_salary"
        self.value_text = ""
        self.editor_part = "deeds"
        # the turn
        self.discard: dict[str, int] = {}
        self.site = ""  # the foundation picked to build on
        self.pay: dict[str, int] = {}
        self.bid = ""
        self.give = ""  # bank trade: the colour given four of
        self.take = ""
        self.parking: dict[str, int] = {}
        self.steal_from = ""
        self.forced_target = ""
        self.token_open = False  # a token correction: shown, and whose token
        self.token_player = ""
        # trades between players (the Bank screen)
        self.trader = ""
        self.partner = ""
        self.trade_give = TradeSide()
        self.trade_get = TradeSide()
        self.actions: Any = None

    def clear_turn(self) -> None:
        """Forget the drafts of an action once it is recorded (or the game moved on)."""
        self.discard = {}
        self.site = ""
        self.pay = {}
        self.bid = ""
        self.parking = {}

    def clear_trade(self) -> None:
        self.trade_give = TradeSide()
        self.trade_get = TradeSide()
