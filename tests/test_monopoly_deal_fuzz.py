"""Hostile input for Monopoly Deal: the shipped example log and the deck file, damaged at random deep inside
otherwise valid data. `companion replay` must fold the log or refuse it with its one-sentence
`CommandError`; the deck loader must load the file or refuse it with `RulesDataError`. No other
exception may escape."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import CommandError
from companion.commands.replay import replay_text
from companion.games.monopoly_deal.deck import DECK_PATH, validate_deck
from companion.rules.board import ASSETS
from companion.rules.errors import RulesDataError

LOG = json.loads((ASSETS / "examples" / "monopoly_deal_game.json").read_text(encoding="utf-8"))
DECK = json.loads(DECK_PATH.read_text(encoding="utf-8"))
CARD_IDS = [c["id"] for c in DECK["cards"]]
WORDS = ["Ann", "Ben", "Cat", "Zed", "", "red", "any", "dark_blue", "purple", -1, 0, 7, 10**6, None, True, [], {}]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def damage(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """One random change somewhere inside `value` (a JSON tree)."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        key = rng.choice(list(value))
        out = dict(value)
        if rng.random() < 0.1:
            out.pop(key)
        else:
            out[key] = damage(value[key], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.85:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        roll = rng.random()
        if roll < 0.15:
            out_list.pop(i)
        elif roll < 0.3:
            out_list.insert(i, copy.deepcopy(out_list[rng.randrange(len(out_list))]))
        elif roll < 0.4:
            rng.shuffle(out_list)
        else:
            out_list[i] = damage(out_list[i], rng, depth + 1)
        return out_list
    return rng.choice([rng.choice(CARD_IDS), rng.choice(WORDS)])


@FUZZ
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, len(LOG["events"])))
def test_a_damaged_deal_log_is_replayed_or_refused_in_one_sentence(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    log = dict(LOG)
    log["events"] = list(LOG["events"][:cut])
    start = log["events"][0]
    # Damage an event after the start most of the time (the deck inside the start is the deck test's).
    i = rng.randrange(1, cut) if cut > 1 and rng.random() < 0.9 else 0
    log["events"][i] = damage(log["events"][i] if i else {**start}, rng)
    try:
        replay_text(json.dumps(log))
    except CommandError as exc:
        assert str(exc) and "\n" not in str(exc)


@FUZZ
@given(seed=st.integers(0, 2**32 - 1))
def test_a_damaged_deck_is_loaded_or_refused_in_one_sentence(seed: int) -> None:
    rng = random.Random(seed)
    try:
        validate_deck(damage(DECK, rng))
    except RulesDataError as exc:
        assert str(exc).startswith("the Monopoly Deal deck is inconsistent")
