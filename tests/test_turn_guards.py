"""One turn guard for every game (`companion.rules.turns`): a name not at the table, a player out of the game,
an event once the game is over and an event out of turn are refused in the same words in classic Scrabble,
Monopoly Scrabble, Monopoly Deal and Monopoly Builder, and the refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.events import Event, GameLog
from companion.games.classic import rules as classic
from companion.games.monopoly_builder import rules as builder
from companion.games.monopoly_deal import rules as deal
from companion.games.monopoly_scrabble import rules as scrabble
from companion.rules.errors import IllegalAction
from companion.rules.turns import expect_turn, listed


def refusal(log: GameLog[Any], event: Event) -> str:
    """The sentence `log` refuses `event` with; the log is left as it was."""
    before = list(log.events)
    with pytest.raises(IllegalAction) as refused:
        log.push(event)
    assert log.events == before
    return str(refused.value)


def classic_game() -> GameLog[Any]:
    log: GameLog[Any] = GameLog(classic.new_state)
    log.push(classic.Start(settings=classic.Settings(players=["Ann", "Bob"])))
    return log


def games() -> dict[str, tuple[GameLog[Any], Any]]:
    """Each game started for Ann and Bob, with an event of its turn made by a given player."""
    return {
        "classic": (classic_game(), lambda p: classic.Pass(player=p)),
        "monopoly_scrabble": (scrabble.new_game(["Ann", "Bob"]), lambda p: scrabble.Pass(player=p)),
        "monopoly_deal": (deal.new_game(["Ann", "Bob"]), lambda p: deal.EndTurn(player=p)),
        "monopoly_builder": (builder.new_game([("Ann", "red"), ("Bob", "purple")]),
                             lambda p: builder.Roll(player=p, dice=(1, 2))),
    }


@pytest.mark.parametrize("game", ["classic", "monopoly_scrabble", "monopoly_deal", "monopoly_builder"])
def test_a_name_not_at_the_table_is_refused_in_the_same_words(game: str) -> None:
    log, event = games()[game]
    assert refusal(log, event("Zed")) == "Zed is not playing in this game: the players are Ann and Bob"


@pytest.mark.parametrize("game", ["classic", "monopoly_scrabble", "monopoly_deal", "monopoly_builder"])
def test_an_event_out_of_turn_is_refused_in_the_same_words(game: str) -> None:
    log, event = games()[game]
    assert refusal(log, event("Bob")).startswith("it is Ann's turn, not Bob's: Bob cannot ")


def test_each_game_says_what_was_refused_out_of_turn() -> None:
    said = {game: refusal(log, event("Bob")) for game, (log, event) in games().items()}
    assert said == {
        "classic": "it is Ann's turn, not Bob's: Bob cannot pass now",
        "monopoly_scrabble": "it is Ann's turn, not Bob's: Bob cannot pass now",
        "monopoly_deal": "it is Ann's turn, not Bob's: Bob cannot end the turn now",
        "monopoly_builder": "it is Ann's turn, not Bob's: Bob cannot roll now",
    }
    log = deal.new_game(["Ann", "Bob"]).events
    deal_log: GameLog[Any] = GameLog(deal.new_state, log)
    assert refusal(deal_log, deal.Draw(player="Bob")) == "it is Ann's turn, not Bob's: Bob cannot draw now"


def test_the_guard_checks_in_order_and_names_what_comes_first() -> None:
    players = ["Ann", "Bob", "Cy"]
    with pytest.raises(IllegalAction, match="^Cy has been eliminated and takes no more part in play$"):
        expect_turn("Cy", "pass", players=players, current="Ann", out={"Cy"}, how="has been eliminated",
                    over="settle it")
    with pytest.raises(IllegalAction, match="^the game is over: settle it$"):
        expect_turn("Bob", "pass", players=players, current="Ann", over="settle it", first="Bob pays")
    with pytest.raises(IllegalAction, match="^first: Bob pays Ann 2M$"):
        expect_turn("Ann", "pass", players=players, current="Ann", first="Bob pays Ann 2M")
    expect_turn("Ann", "pass", players=players, current="Ann")  # Ann's turn: nothing to refuse
    assert [listed(n) for n in ([], ["Ann"], ["Ann", "Bob"], players)] == ["", "Ann", "Ann and Bob", "Ann, Bob and Cy"]
