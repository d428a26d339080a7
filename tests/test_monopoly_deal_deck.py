"""The Monopoly Deal deck shipped in `assets/decks/`: it validates against its schema (the pydantic model),
every card has a stable id, it matches the project's confirmed deck data (`../shared/data/rules/`,
skipped when absent), and a broken deck file is refused with the reason."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from conftest import shared_path

from companion.games.monopoly_deal.deck import DECK_PATH, SCHEMA_PATH, Deck, load_deck, validate_deck
from companion.rules.errors import RulesDataError


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DECK_PATH.read_text(encoding="utf-8"))
    return data


def test_schema_file_matches_the_model() -> None:
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == Deck.model_json_schema()


def test_deck_asset_validates_and_round_trips() -> None:
    deck = load_deck()
    assert deck.model_dump(mode="json") == raw()


def test_the_deck_has_106_cards_with_stable_ids() -> None:
    deck = load_deck()
    assert len(deck.cards) == 106
    kinds = Counter(c.kind for c in deck.cards)
    assert kinds == {"money": 20, "property": 28, "wild": 11, "rent": 13, "action": 29, "building": 5}
    ids = {c.id for c in deck.cards}
    for card_id in ("money-10-1", "money-1-6", "prop-dark-blue-boardwalk", "prop-railroad-short-line",
                    "wild-multi-1", "wild-multi-2", "wild-light-blue-brown-1", "rent-dark-blue-green-1",
                    "rent-any-3", "action-just-say-no-3", "action-pass-go-10", "house-3", "hotel-2"):
        assert card_id in ids
    assert sum(c.value for c in deck.cards if c.kind == "money") == 57


def test_the_deck_matches_the_shared_confirmed_deck() -> None:
    shared = json.loads(shared_path("rules", "monopoly_deal_deck.json").read_text(encoding="utf-8"))
    deck = load_deck()
    assert len(deck.cards) == shared["total_cards"]["playable"]
    money = Counter(c.value for c in deck.cards if c.kind == "money")
    assert money == {m["value"]: m["count"] for m in shared["money"]}
    for s in shared["property_sets"]:
        colour = deck.colour(s["id"])
        assert (colour.set_size, colour.rent, colour.card_value, colour.buildings) == (
            s["cards_in_full_set"], s["rent_by_cards_owned"], s["card_value"], s["buildings_allowed"])
        props = [c for c in deck.cards if c.kind == "property" and c.colours == [s["id"]]]
        assert sorted(c.name for c in props) == sorted(s["us_names"])
        assert all(c.value == s["card_value"] for c in props)
    wilds = Counter((tuple(c.colours), c.value) for c in deck.cards if c.kind == "wild")
    assert wilds == {(tuple(w["colors"]), w["value"]): w["count"] for w in shared["property_wildcards"]}
    rents = Counter((tuple(c.colours), c.value) for c in deck.cards if c.kind == "rent")
    assert rents == {(tuple(r["colors"]), r["value"]): r["count"] for r in shared["rent_cards"]}
    actions = Counter((c.action, c.value) for c in deck.cards if c.action)
    assert actions == {(a["id"], a["value"]): a["count"] for a in shared["action_cards"]}
    r = deck.rules
    assert (r.house_rent, r.hotel_rent) == (shared["building_rent_bonus"]["house"],
                                            shared["building_rent_bonus"]["hotel"])
    turn = shared["turn"]
    assert (r.draw, r.draw_if_hand_empty, r.plays_per_turn, r.hand_limit) == (
        turn["draw"], turn["draw_if_hand_empty"], turn["max_plays"], turn["hand_limit_end_of_turn"])
    assert (deck.min_players, deck.max_players) == (shared["players"]["min"], shared["players"]["max"])


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["cards"].append(dict(d["cards"][0])), "card id money-1-1 is used twice"),
    (lambda d: d["cards"][20].update(colours=["purple"]), "a property has exactly one known colour"),
    (lambda d: d["colours"][0].update(rent=[1]), "has 1 rents for a set of 2"),
    (lambda d: d["cards"].__setitem__(0, {**d["cards"][0], "action": "pass_go"}),
     "only action and building cards have an action"),
])
def test_a_broken_deck_is_refused_with_the_reason(change: Any, words: str) -> None:
    data = raw()
    change(data)
    with pytest.raises(RulesDataError, match=words):
        validate_deck(data)


def test_a_missing_deck_file_is_one_sentence(tmp_path: Any) -> None:
    with pytest.raises(RulesDataError, match="no Monopoly Deal deck at"):
        load_deck(tmp_path / "none.json")
