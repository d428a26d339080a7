"""Monopoly Builder's one source of legality (`legal.legal_moves`) and the obligations it derives: the dead
end of issue #26 (a start-of-turn discard remembered after a trade changed it), the rent window until the
next player rolls, doubles without an `end_turn`, the Bank 4-for-1 in the Trade step, token corrections,
and the wording defects of the issue. Played as event logs on the default board profile."""

from __future__ import annotations

from typing import Any

import pytest

from companion.events import Event, GameLog
from companion.games.monopoly_builder.rules import (
    BuilderState,
    Bundle,
    Discard,
    EndTurn,
    ResourceRoll,
    Roll,
    Trade,
    new_game,
)
from companion.rules.errors import IllegalAction

SEATS = [("Ann", "red"), ("Bob", "purple"), ("Cy", "green"), ("Di", "yellow")]


def game(players: int = 2, **table: Any) -> GameLog[BuilderState]:
    return new_game(SEATS[:players], **table)


def push(log: GameLog[BuilderState], *events: Event) -> BuilderState:
    for e in events:
        log.push(e)
    return log.state


def ann_starts_a_turn_with_eight() -> GameLog[BuilderState]:
    """Ann ends a doubles turn holding 8 chips: her next turn starts with a discard of 2."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    assert log.state.hand("Ann") == 8 and log.state.phase == "discard"
    return log


def test_selling_chips_before_the_discard_leaves_the_roll_open() -> None:
    """The dead end of issue #26: Ann sells four chips to Bob first (trades are allowed at any time); the
    discard owed is derived again (none), so she rolls. The old engine refused the roll ("discard -1")."""
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 4}), get=Bundle(cash=40)))
    assert s.hand("Ann") == 4
    assert s.phase == "roll" and "discard" not in s.waiting_for(), s.waiting_for()
    with pytest.raises(IllegalAction):
        log.push(Discard(player="Ann", resources={}))
    s = push(log, Roll(player="Ann", dice=(1, 2)))
    assert s.positions["Ann"] == 9


def test_selling_down_to_exactly_six_asks_for_no_discard() -> None:
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 2}), get=Bundle(cash=20)))
    assert s.hand("Ann") == 6 and s.phase == "roll" and "discard 0" not in s.waiting_for()
    with pytest.raises(IllegalAction):
        log.push(Discard(player="Ann", resources={}))
    assert not any("discards  onto" in n for n in log.state.notes)
    push(log, Roll(player="Ann", dice=(1, 2)))


def test_buying_chips_before_the_roll_raises_the_discard_owed() -> None:
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=10), get=Bundle(resources={"purple": 1})))
    assert s.phase == "discard" and "discard 3" in s.waiting_for()
    with pytest.raises(IllegalAction, match="exactly 3"):
        log.push(Discard(player="Ann", resources={"red": 2}))
    push(log, Discard(player="Ann", resources={"red": 3}), Roll(player="Ann", dice=(1, 2)))
