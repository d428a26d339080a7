"""The Monopoly Builder board profile: every value sourced, placeholders that play, refusals of profiles that
cannot be played (one sentence each), and the pure editor functions the in-app editor uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.monopoly_builder.profile import (
    Profile,
    Space,
    load_profile,
    save_profile,
    set_floor_cost,
    set_space,
    set_value,
    toggle_foundation,
    validate_profile,
)
from companion.games.monopoly_builder.rules import Buy, Roll, Seat, Settings, Start, new_game, new_state
from companion.rules.board import ASSETS
from companion.rules.errors import IllegalAction, RulesDataError

SEATS = [("Ann", "red"), ("Bob", "purple")]


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ASSETS / "profiles" / "monopoly_builder.json").read_text(encoding="utf-8"))
    return data


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(RulesDataError) as err:
        validate_profile(data)
    sentence = str(err.value)
    assert "\n" not in sentence and sentence.startswith("the board profile cannot be played: ")
    return sentence


def test_schema_file_matches_the_model() -> None:
    schema = json.loads((ASSETS / "profiles" / "monopoly_builder.schema.json").read_text(encoding="utf-8"))
    assert schema == Profile.model_json_schema()


def test_the_default_profile_plays_out_of_the_box() -> None:
    p = load_profile()
    assert len(p.deeds) == 16 and len(p.groups) == 8
    assert all(len(p.group_deeds(g.id)) == 2 for g in p.groups)
    assert len(p.track.spaces) == 32 and p.track.spaces[0].kind == "go"
    assert sum(c.count for c in p.chance.cards) == 20
    assert len(p.foundation_cells()) == 36
    assert p.counts.chips_per_colour.value * len(p.colours.value) == 80
    assert p.counts.blocks_per_player.value * 4 == 48


def test_values_from_the_rules_text_are_marked_rules_text() -> None:
    p = load_profile()
    oriental = p.deed("oriental_avenue")
    assert (oriental.price.value, oriental.rent.value, oriental.monopoly_rent.value, oriental.mortgage.value,
            oriental.dice_number.value, oriental.resource.value) == (100, 50, 100, 100, 11, "green")
    for name in ("name", "group", "price", "rent", "monopoly_rent", "mortgage", "dice_number", "resource"):
        assert getattr(oriental, name).confidence == "rules_text"
    assert p.amounts.starting_cash.confidence == "rules_text" and p.building_points.value == [1, 3, 6, 10, 16]
    assert p.chance.cards[0].confidence == "confirmed"  # Get Out of Jail Free


def test_placeholders_are_listed_for_the_table_to_check() -> None:
    holes = load_profile().placeholders()
    assert "deeds.vermont_avenue.price" in holes and "foundations" in holes and "track" in holes
    assert not any(h.startswith("deeds.oriental_avenue") for h in holes)
    assert "amounts.starting_cash" not in holes


def test_every_value_is_sourced() -> None:
    allowed = {"rules_text", "confirmed", "inferred", "placeholder", "table"}
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "confidence" in node:
                found.append(node["confidence"])
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(raw())
    assert found and set(found) <= allowed
    for deed in raw()["deeds"]:
        assert all("confidence" in deed[k] for k in deed if k != "id")


def test_a_deed_without_a_price_is_refused() -> None:
    data = raw()
    data["deeds"][1]["price"]["value"] = None
    assert "the deed Baltic Avenue has no price: enter it from its Title Deed" in refusal(data)


def test_a_space_of_unknown_kind_is_refused() -> None:
    data = raw()
    data["track"]["spaces"][4]["kind"] = "community_chest"
    assert "track space 4 (Chance) is of unknown kind 'community_chest'" in refusal(data)


def test_a_foundation_grid_with_no_cells_is_refused() -> None:
    data = raw()
    data["foundations"]["value"] = ["......", "......"]
    assert "no foundation cell" in refusal(data)


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["track"]["spaces"].pop(5), "the deed oriental_avenue must be on exactly one track space"),
    (lambda d: d["track"]["spaces"][6]["chart"].pop("9"), "no resource colour for a roll of 9"),
    (lambda d: d["reference_cards"]["red"]["value"].pop(), "must give 5 floor costs"),
    (lambda d: d["deeds"][0]["dice_number"].update(value=13), "dice number 13"),
    (lambda d: d["deeds"][0]["resource"].update(value="blue"), "unknown resource 'blue'"),
    (lambda d: d["deeds"][0]["group"].update(value="navy"), "unknown colour group 'navy'"),
    (lambda d: d["amounts"]["starting_cash"].update(value=1000), "starting bills add up to M900"),
    (lambda d: d["chance"]["cards"][4].pop("amount"), "needs an amount"),
    (lambda d: d["track"]["spaces"][0].update(kind="chance"), "must be GO"),
    (lambda d: d["track"]["spaces"][8].update(kind="steal"), "no Jail space"),
    (lambda d: d["foundations"].update(value=["###", "##"]), "rows of equal length"),
])
def test_profiles_that_cannot_be_played_are_refused_with_the_reason(change: Any, words: str) -> None:
    data = raw()
    change(data)
    assert words in refusal(data)


def test_a_game_with_a_profile_that_cannot_be_played_is_refused() -> None:
    data = raw()
    data["deeds"][3]["rent"]["value"] = None
    state = new_state()
    with pytest.raises(IllegalAction, match="has no rent"):
        state.apply(Start(settings=Settings(players=[Seat(name="Ann", colour="red"), Seat(name="Bob", colour="purple")],
                                            profile=data)))
    assert state.settings is None


def test_set_value_marks_the_value_as_the_tables_and_never_mutates() -> None:
    p = load_profile()
    q = set_value(p, "deeds.vermont_avenue.price", 130)
    assert q.deed("vermont_avenue").price.value == 130 and q.deed("vermont_avenue").price.confidence == "table"
    assert p.deed("vermont_avenue").price.value == 120
    q = set_value(q, "groups.brown.points", 3)
    assert q.group("brown").points.value == 3
    q = set_value(q, "track.spaces.3.name", "Baltic Ave.")
    assert q.track.spaces[3].name == "Baltic Ave." and q.track.spaces[3].confidence == "table"
    q = set_value(q, "chance.cards.dividend.amount", 60)
    assert q.chance_card("dividend").amount == 60 and q.chance_card("dividend").confidence == "table"
    assert "deeds.vermont_avenue.price" not in q.placeholders()


def test_set_value_refuses_with_one_sentence() -> None:
    p = load_profile()
    with pytest.raises(RulesDataError, match="no value 'deeds.nowhere.price'"):
        set_value(p, "deeds.nowhere.price", 10)
    with pytest.raises(RulesDataError, match="has no price"):
        set_value(p, "deeds.vermont_avenue.price", None)
    with pytest.raises(RulesDataError, match="'colour' is not one of"):
        set_value(p, "amounts.colour", 1)


def test_set_space_replaces_appends_and_removes() -> None:
    p = load_profile()
    q = set_space(p, 30, Space(kind="steal", name="Steal 1 Resource", confidence="table"))
    assert q.track.spaces[30].kind == "steal"
    with pytest.raises(RulesDataError, match="must be on exactly one track space"):
        set_space(p, 5, None)  # Oriental Avenue would leave the board
    with pytest.raises(RulesDataError, match="more than one free parking space"):
        set_space(p, 32, Space(kind="free_parking", name="Second Free Parking"))
    q = set_space(p, 32, Space(kind="collect", name="Collect 2 Red", resource="red"))
    assert len(q.track.spaces) == 33 and len(p.track.spaces) == 32
    with pytest.raises(RulesDataError, match="out of range"):
        set_space(p, 40, None)


def test_set_floor_cost_and_toggle_foundation() -> None:
    p = load_profile()
    q = set_floor_cost(p, "green", 2, {"green": 1}, 2)
    assert q.floor_cost("green", 2).colours == {"green": 1} and q.floor_cost("green", 2).any == 2
    assert q.reference_cards["green"].confidence == "table"
    with pytest.raises(RulesDataError, match="floor 6 does not exist"):
        set_floor_cost(p, "green", 6, {}, 2)
    with pytest.raises(RulesDataError, match="costs nothing"):
        set_floor_cost(p, "green", 1, {}, 0)
    q = toggle_foundation(p, "A1")
    assert "A1" not in q.foundation_cells() and len(q.foundation_cells()) == 35
    q = toggle_foundation(q, "h2")
    assert "H2" in q.foundation_cells() and q.grid_size == (6, 8)
    with pytest.raises(RulesDataError, match="not a foundation name"):
        toggle_foundation(p, "11")


def test_save_and_load_a_profile_roundtrip(tmp_path: Path) -> None:
    q = set_value(load_profile(), "amounts.go_salary", 250)
    path = save_profile(q, tmp_path / "house.json")
    assert load_profile(path) == q


def test_a_game_uses_the_edited_profile() -> None:
    q = set_value(load_profile(), "deeds.oriental_avenue.price", 150)
    log = new_game(SEATS, profile=q)
    log.push(Roll(player="Ann", dice=(2, 3)))
    log.push(Buy(player="Ann"))
    assert log.state.cash["Ann"] == 750
