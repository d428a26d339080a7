"""The folded states of the Monopoly games are copied (on every event, by `GameLog.push`) through their
constructors (`companion.rules.state_copy.copy_state`), so no field can be forgotten by a copy: checked on the
shipped example games, field by field, and with a state that gains a field."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

import pytest

from companion.events import GameLog, load_events
from companion.games.monopoly_builder import rules as builder
from companion.games.monopoly_deal import rules as deal
from companion.games.monopoly_scrabble import rules as scrabble
from companion.rules.board import ASSETS, Board
from companion.rules.state_copy import copy_state

GAMES: dict[str, tuple[Any, str]] = {
    "monopoly_scrabble": (scrabble, "monopoly_full_game.json"),
    "monopoly_deal": (deal, "monopoly_deal_game.json"),
    "monopoly_builder": (builder, "monopoly_builder_game.json"),
}
SHARED = {"settings", "profile", "deck", "layout", "tileset", "judge", "square_groups"}  # immutable rules data


def example(game: str) -> list[Any]:
    rules, name = GAMES[game]
    variant, events = load_events((ASSETS / "examples" / name).read_text(encoding="utf-8"), rules.EVENT_ADAPTER)
    assert variant == rules.VARIANT
    return events


def assert_same_and_apart(state: Any, other: Any) -> None:
    """Every field of `other` holds what `state`'s does; what an event may change is not shared."""
    assert type(other) is type(state)
    for f in fields(state):
        mine, theirs = getattr(state, f.name), getattr(other, f.name)
        if isinstance(mine, Board):
            assert theirs is not mine and list(theirs.tiles()) == list(mine.tiles()), f.name
            continue
        assert theirs == mine, f.name
        if isinstance(mine, (list, dict, set)) and f.name not in SHARED:
            assert theirs is not mine, f"{f.name} is shared between a state and its copy"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_copy_holds_every_field_and_plays_on_alike(game: str) -> None:
    rules = GAMES[game][0]
    events = example(game)
    log: GameLog[Any] = GameLog(rules.new_state)
    for i, event in enumerate(events):
        if i % 7 == 3 and i + 1 < len(events):
            twin = copy.deepcopy(log.state)
            assert_same_and_apart(log.state, twin)
            before = log.state.summary()
            twin.apply(event)  # the copy plays the next event; the original is untouched by it
            assert log.state.summary() == before
        log.push(event)
    assert log.state.summary() == GameLog(rules.new_state, events).state.summary()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_field_added_to_a_state_is_copied_too(game: str) -> None:
    rules = GAMES[game][0]
    base = type(rules.new_state())

    @dataclass
    class Grown(base):  # type: ignore[valid-type, misc]
        added: list[str] = field(default_factory=list)

    log: GameLog[Any] = GameLog(Grown, example(game)[:5])
    log.state.added.append("kept")
    twin = copy.deepcopy(log.state)
    assert type(twin) is Grown
    assert twin.added == ["kept"] and twin.added is not log.state.added
    assert_same_and_apart(log.state, twin)


def test_an_attribute_outside_the_fields_is_refused_not_dropped() -> None:
    state = scrabble.new_state()
    state.stray = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="attributes outside its fields \\(stray\\)"):
        copy_state(state, lambda name, value: value)
