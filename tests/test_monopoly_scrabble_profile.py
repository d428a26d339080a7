"""The board profile: the shipped defaults load, inconsistent profiles are refused with the reason,
and the editor API (set track space, card value, toggle property square, save) round-trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.monopoly_scrabble.profile import (
    Profile,
    Space,
    load_profile,
    save_profile,
    set_amount,
    set_card,
    set_track_space,
    toggle_property_square,
    validate_profile,
)
from companion.rules.board import ASSETS
from companion.rules.errors import RulesDataError


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ASSETS / "profiles" / "monopoly_scrabble.json").read_text(encoding="utf-8"))
    return data


def test_shipped_profile_has_the_rules_text_amounts() -> None:
    p = load_profile()
    a = p.amounts
    assert a.starting_cash.value == 1000 and a.starting_bills.value == {"500": 1, "100": 5}
    assert (a.free_parking_seed.value, a.go_salary.value, a.jail_fee.value) == (500, 2000, 100)
    assert (a.bank_tile_price.value, a.blank_replacement_fee.value, a.bingo_cash.value) == (100, 500, 1000)
    assert (a.unplayed_tile_fee.value, a.sale_fraction_percent.value) == (100, 50)
    assert p.group("orange").rent.value == 600 and p.group("orange").rent.confidence == "rules_text"
    assert len(p.groups) == 10
    # Everything the rules text does not give is marked placeholder, so the app can ask the table.
    holes = p.placeholders()
    assert "groups.orange.card_value" in holes and "groups.orange.rent" not in holes
    assert "track.spaces.1" in holes and "amounts.go_salary" not in holes


def test_schema_file_matches_the_model() -> None:
    schema = json.loads((ASSETS / "profiles" / "monopoly_scrabble.schema.json").read_text(encoding="utf-8"))
    assert schema == Profile.model_json_schema()


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["groups"][3]["rent"].update(value=None), "Orange Property Card has no rent"),
    (lambda d: d["groups"][0]["card_value"].update(value=None), "Brown Property Card has no printed value"),
    (lambda d: d["groups"][0]["squares"].update(value=["P1"]), "off the 15x15 board"),
    (lambda d: d["groups"][0]["squares"].update(value=["K5"]), "K5 is a property square of both"),
    (lambda d: d["groups"].append(dict(d["groups"][0])), "brown is listed twice"),
    (lambda d: d["track"]["spaces"].insert(0, {"type": "chance", "name": "Chance"}), "must be GO"),
    (lambda d: d["track"]["spaces"].append({"type": "property", "name": "X", "group": "purple"}), "unknown group"),
    (lambda d: d["track"]["spaces"].append({"type": "jail", "name": "Jail 2"}), "only one"),
    (lambda d: d["track"]["spaces"].append({"type": "chance", "name": "C", "amount": 5}), "not a tax space"),
    (lambda d: d["amounts"]["starting_bills"].update(value={"500": 3}), "starting bills add up to M1500"),
    (lambda d: d.update(layout={"value": "nope", "confidence": "table"}), "no premium layout"),
])
def test_inconsistent_profiles_are_refused_with_the_reason(edit: Any, message: str) -> None:
    data = raw()
    edit(data)
    with pytest.raises(RulesDataError, match=message):
        validate_profile(data)


def test_editor_api_round_trips(tmp_path: Path) -> None:
    p = load_profile()
    p2 = set_card(p, "brown", card_value=600, rent=250)
    assert p2.card_value("brown") == 600 and p2.group("brown").rent.confidence == "table"
    assert p.card_value("brown") == 400  # edits never mutate
    p3 = set_track_space(p2, 4, Space(type="plain", name="Rest", confidence="table"))
    assert p3.track.spaces[4].type == "plain"
    p4 = set_track_space(p3, 40, Space(type="chance", name="Chance", confidence="table"))
    assert len(p4.track.spaces) == 41
    p5 = set_track_space(p4, 40, None)
    assert len(p5.track.spaces) == 40
    with pytest.raises(RulesDataError, match="out of range"):
        set_track_space(p, 41, Space(type="plain", name="x"))
    with pytest.raises(RulesDataError, match="must be GO"):
        set_track_space(p, 0, Space(type="plain", name="x"))
    # Toggling: a new square for brown, a square moved from utilities to brown, then off again.
    p6 = toggle_property_square(p5, "h1", "brown")
    assert "H1" in p6.group("brown").squares.value
    p7 = toggle_property_square(p6, "K5", "brown")
    assert "K5" in p7.group("brown").squares.value and "K5" not in p7.group("utilities").squares.value
    p8 = toggle_property_square(p7, "K5", "brown")
    assert "K5" not in p8.group("brown").squares.value
    with pytest.raises(RulesDataError, match="off the 15x15"):
        toggle_property_square(p, "Z99", "brown")
    with pytest.raises(RulesDataError, match="no Property Card 'purple'"):
        set_card(p, "purple", rent=1)
    path = save_profile(p8, tmp_path / "mine.json")
    assert load_profile(path) == p8
    with pytest.raises(RulesDataError, match="no board profile"):
        load_profile(tmp_path / "missing.json")


def test_set_amount_for_house_rules() -> None:
    p = set_amount(load_profile(), "go_salary", 1000)
    assert p.amounts.go_salary.value == 1000 and p.amounts.go_salary.confidence == "table"
    p = set_amount(p, "starting_cash", 1500)
    assert p.amounts.starting_bills.value == {"500": 3, "100": 0}
    with pytest.raises(RulesDataError, match="no amount 'salary'"):
        set_amount(p, "salary", 1)
    with pytest.raises(RulesDataError, match="negative"):
        set_amount(p, "jail_fee", -5)
    with pytest.raises(RulesDataError, match="cannot be paid"):
        set_amount(p, "starting_cash", 1050)
