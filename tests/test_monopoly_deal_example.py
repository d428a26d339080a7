"""The shipped complete Monopoly Deal game (`assets/examples/monopoly_deal_game.json`, 3 players, every draw
named) replayed through the rules and checked against values worked out by hand from its events (the
arithmetic is in the comments), and through `companion replay --json`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.cli import main
from companion.events import GameLog, load_events
from companion.games.monopoly_deal.deck import load_deck
from companion.games.monopoly_deal.rules import EVENT_ADAPTER, VARIANT, DealState, new_state
from companion.rules.board import ASSETS

EXAMPLE = ASSETS / "examples" / "monopoly_deal_game.json"
VALUE = {c.id: c.value for c in load_deck().cards}  # printed values, read from the deck file


def events() -> list[Any]:
    variant, evs = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, VARIANT)
    assert variant == VARIANT
    return evs


def replay(n: int | None = None) -> DealState:
    log: GameLog[DealState] = GameLog(new_state)
    for e in events()[:n]:
        log.push(e)
        log.state.check()
    return log.state


def test_the_example_uses_every_kind_of_card_and_event() -> None:
    evs = events()
    types = {e.type for e in evs}
    assert types == {"start", "draw", "bank", "lay", "move_wild", "pass_go", "rent", "debt_collector", "birthday",
                     "sly_deal", "forced_deal", "deal_breaker", "build", "just_say_no", "accept", "pay", "discard",
                     "end_turn"}
    named = {c for e in evs for c in [getattr(e, "card", None), *getattr(e, "doubles", [])] if c}
    kinds = {c.split("-")[0] + ("-multi" if "multi" in c else "-any" if "rent-any" in c else "") for c in named}
    assert {"money", "prop", "wild", "wild-multi", "rent", "rent-any", "action", "house", "hotel"} <= kinds


def test_a_player_with_nothing_on_the_table_pays_nothing() -> None:
    s = replay(5)
    # Event 5: Ann's Debt Collector on Ben, who has laid and banked nothing yet: 0 paid, 5M forgiven.
    assert (s.payments[-1].payer, s.payments[-1].value, s.payments[-1].forgiven) == ("Ben", 0, 5)


def test_birthday_paid_in_property_and_a_short_debt_forgiven() -> None:
    s = replay(16)
    # Events 14-16: Cat's birthday; Ann pays Short Line (2M), Ben Reading Railroad (2M): both to Cat's table.
    assert [p.cards for p in s.payments[-2:]] == [("prop-railroad-short-line",), ("prop-railroad-reading-railroad",)]
    assert {"prop-railroad-short-line", "prop-railroad-reading-railroad"} <= {
        c for st in s.sets["Cat"] for c in st.cards}
    s = replay(18)
    # Events 17-18: Cat's Debt Collector (5M) on Ann, whose table holds only Mediterranean Avenue (1M):
    # she gives it and 4M is forgiven.
    assert (s.payments[-1].value, s.payments[-1].forgiven) == (1, 4)


def test_any_colour_rent_and_no_change() -> None:
    s = replay(30)
    # Event 29: Ben's any-colour rent on yellow, one card (a Red/Yellow wild): yellow ladder 2/4/6 -> 2M from
    # Ann only. Event 30: Ann pays Ventnor Avenue (3M): 1M over, no change.
    p = s.payments[-1]
    assert (p.payer, p.payee, p.owed, p.value, p.cards) == ("Ann", "Ben", 2, 3, ("prop-yellow-ventnor-avenue",))
    assert "no change on 1M" in s.story[-1]


def test_counter_just_say_no_lets_the_forced_deal_stand() -> None:
    s = replay(79)
    # Events 77-79: Ben's Forced Deal (his Mediterranean Avenue for Cat's Red/Yellow wild); Cat says no, Ben
    # says no to that: an even chain, and Cat can hold no third Just Say No (every hand is known), so the
    # swap happens at once.
    assert s.pending is None and s.plays == 1  # the two answers used no play
    assert s.set_of("Ben", "wild-red-yellow-1") is not None and s.set_of("Cat", "prop-brown-mediterranean-avenue")


def test_double_the_rent_on_utilities() -> None:
    s = replay(111)
    # Event 109: Ben charges utility rent with a Double the Rent: one utility (Electric Company) = 1M, x2 = 2M
    # each from Cat and Ann, two plays.
    assert [(p.payer, p.owed, p.value) for p in s.payments[-2:]] == [("Cat", 2, 2), ("Ann", 2, 2)]


def test_house_then_hotel_on_brown() -> None:
    s = replay(136)
    brown = next(st for st in s.sets["Ann"] if st.colour == "brown")
    # Events 120 and 136: a house, then a hotel, on Ann's complete brown set (two cards: 2M + 3M + 4M = 9M).
    assert (brown.house, brown.hotel, s.set_rent(brown)) == ("house-1", "hotel-2", 9)


def test_the_game_ends_with_a_deal_breaker_for_the_third_set() -> None:
    s = replay()
    # Event 182: Ann's red rent (one card, 2M) doubled = 4M: Ben's Just Say No cancels his part (Ann can
    # hold none to answer), Cat pays North Carolina Avenue (4M), completing Ann's green set. Event 185:
    # Deal Breaker on Ben's light blue set: brown, green and light blue are three different colours.
    assert s.finished and s.winner() == ["Ann"]
    assert s.complete_colours("Ann") == ["brown", "green", "light_blue"]
    assert [p.value for p in s.payments if p.reason == "rent for Red"] == [4]


def test_the_final_state_matches_the_hand_count() -> None:
    s = replay()
    # Banks, read card by card from the deck file: Ann 10+4+5+3+2 = 24; Ben 5 (Deal Breaker) + 5 + 4
    # (Hotel) + 1 + 3 (House) = 18; Cat 3+2 (Pink/Orange wild)+2+2+2+1 (rent card)+3+1 = 16.
    banks = {p: sum(VALUE[c] for c in s.banks[p]) for p in s.players}
    assert banks == {"Ann": 24, "Ben": 18, "Cat": 16}
    assert s.hands == {"Ann": 3, "Ben": 2, "Cat": 7}
    table = sum(len(st.cards) + len(st.buildings()) for p in s.players for st in s.sets[p])
    banked = sum(len(s.banks[p]) for p in s.players)
    # Every card is somewhere: hands 12 + draw pile 2 + discard pile 38 + banks 18 + tables 36 = 106.
    assert (table, banked, s.draw_count, len(s.discard)) == (36, 18, 2, 38)
    assert sum(s.hands.values()) + s.draw_count + len(s.discard) + banked + table == 106


def test_replay_json_prints_the_deal_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == VARIANT and out["winner"] == "Ann"
    ann = out["players"]["Ann"]
    assert ann["bank_total"] == 24 and ann["hand"] == 3
    brown = next(x for x in ann["sets"] if x["colour"] == "brown")
    assert brown == {"colour": "brown", "cards": ["wild-multi-1", "prop-brown-mediterranean-avenue"],
                     "complete": True, "house": "house-1", "hotel": "hotel-2", "rent": 9}
    assert (out["draw_pile"], len(out["discard_pile"])) == (2, 38)


def test_replay_prints_the_deal_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Ann: bank 24M (5 cards), hand 3" in out and "Winner: Ann" in out
