"""Rules of the word games' rules texts that had no test of their own, each named after its rule.

`000_*` is Monopoly Scrabble, `001_*` and `004_*` classic Scrabble (`../shared/rules-text/`). The other
rules of these texts are tested where their game is (`test_classic.py`, `test_monopoly.py`,
`test_rules_examples.py`, `test_liveness_*.py`); `tests/test_word_rules_text.py::RULES` maps every rule to its test.
"""

from __future__ import annotations

import pytest
from test_monopoly import game as monopoly_game
from test_monopoly import small_track

from companion.events import GameLog
from companion.games.classic.legal import legal_moves
from companion.games.classic.rules import (
    Challenge,
    ClassicState,
    Exchange,
    Pass,
    Play,
    Settings,
    Start,
    finish_line_target,
    new_state,
)
from companion.games.monopoly_scrabble.profile import load_profile, toggle_property_square
from companion.games.monopoly_scrabble.rules import Card, MonopolyState
from companion.games.monopoly_scrabble.rules import Play as MPlay
from companion.rules.errors import IllegalPlacement


def classic(**settings: object) -> GameLog[ClassicState]:
    log: GameLog[ClassicState] = GameLog(new_state)
    players = settings.pop("players", ["Ann", "Bob"])
    log.push(Start(settings=Settings(players=players, **settings)))  # type: ignore[arg-type]
    return log


# ---------------------------------------------------------------- classic Scrabble (001, 004)


def test_001_a_lost_challenge_is_a_scoreless_turn() -> None:
    """"Cases for a Scoreless Turn: ... Players lose a challenge after disputing a word." Box rules end
    the game after two scoreless turns each: Bob's lost turn and three passes are four. (The old rules
    did not count the lost turn and let the game go on.)"""
    log = classic(preset="box")
    log.push(Play(player="Ann", position="8G", word="CAT"))
    log.push(Challenge(challenger="Bob", acceptable=True, words=["CAT"]))
    assert log.state.turns[-1].kind == "lost turn" and log.state.scoreless_run == 1
    log.push(Pass(player="Ann"))
    log.push(Pass(player="Bob"))
    log.push(Pass(player="Ann"))
    assert log.state.end_reason == "scoreless_turns"


def test_001_a_lost_turn_since_a_withdrawn_play_still_counts() -> None:
    """Three players: Cleo's lost turn comes between Bob's phony and Ann's challenge of it; the withdrawn
    play and the lost turn are both scoreless turns."""
    log = classic(preset="box", players=["Ann", "Bob", "Cleo"])
    log.push(Play(player="Ann", position="8G", word="CAT"))
    log.push(Challenge(challenger="Cleo", acceptable=True, words=["CAT"]))  # Cleo loses her next turn
    log.push(Play(player="Bob", position="H7", word="Z.Z"))  # then Cleo's turn is lost: Ann is next
    assert log.state.current_player == "Ann" and log.state.scoreless_run == 1
    log.push(Challenge(challenger="Ann", acceptable=False, words=["ZAZ"]))
    assert log.state.scoreless_run == 2  # the phony taken back, and Cleo's lost turn after it


def test_001_two_consecutive_exchanges_each_end_the_game() -> None:
    """"Both players make two consecutive exchanges each, with no plays in between (total of four tile
    exchanges)": the box preset."""
    log = classic(preset="box")
    for player in ["Ann", "Bob", "Ann", "Bob"]:
        assert legal_moves(log.state).exchange_counts() == list(range(1, 8))
        log.push(Exchange(player=player, count=7))
    assert log.state.end_reason == "scoreless_turns"
    assert legal_moves(log.state).exchange_counts() == []


def test_004_exchanging_or_passing_earns_no_points() -> None:
    """"Exchanging tiles and passing does not earn players points." """
    log = classic()
    log.push(Exchange(player="Ann", count=3))
    log.push(Pass(player="Bob"))
    assert log.state.scores == {"Ann": 0, "Bob": 0}
    assert [t.score for t in log.state.turns] == [0, 0]


def test_004_the_first_word_uses_two_or_more_tiles_on_the_star() -> None:
    """"The first player uses 2 or more of their letter tiles to play the first word ... on the star."""
    log = classic()
    with pytest.raises(IllegalPlacement, match="at least 2 letters"):
        log.push(Play(player="Ann", position="8H", word="A"))
    with pytest.raises(IllegalPlacement, match="centre square H8"):
        log.push(Play(player="Ann", position="1A", word="CAT"))
    log.push(Play(player="Ann", position="8G", word="AT"))


def test_004_a_played_tile_cannot_be_moved_or_replaced() -> None:
    """"Tiles can not be moved or replaced after it has been played." """
    log = classic()
    log.push(Play(player="Ann", position="8G", word="CAT"))
    with pytest.raises(IllegalPlacement, match="G8 is already covered by C"):
        log.push(Play(player="Bob", position="8G", word="DOG"))
    assert log.state.board.rows()[7][6:9] == "CAT" and log.state.current_player == "Bob"


def test_004_no_bingo_for_fewer_than_seven_tiles() -> None:
    """"This is only earned with strictly seven tiles": six tiles score the word alone."""
    log = classic()
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    assert log.state.scores["Ann"] == 26  # (F on DLS 8 + 5) x 2: no 50


def test_004_finish_line_targets_are_the_texts_table() -> None:
    """The Finish Line table: beginner / intermediate / expert for two, three and four players."""
    table = {(level, n): finish_line_target(level, n) for level in ("beginner", "intermediate", "expert")
             for n in (2, 3, 4)}
    assert table == {("beginner", 2): 70, ("beginner", 3): 60, ("beginner", 4): 50,
                     ("intermediate", 2): 120, ("intermediate", 3): 100, ("intermediate", 4): 90,
                     ("expert", 2): 200, ("expert", 3): 180, ("expert", 4): 160}


# ---------------------------------------------------------------- Monopoly Scrabble (000)


def test_000_the_same_word_may_be_played_again() -> None:
    """"Players can use the same word multiple times in a game." """
    log = monopoly_game(small_track(), ["Car", "Dog"])
    log.push(MPlay(player="Car", position="8G", word="CAT"))
    _finish_turn(log)
    log.push(MPlay(player="Dog", position="G8", word=".AT"))
    assert [t.words for t in log.state.turns if t.kind == "play"] == [["CAT"], ["CAT"]]


def test_000_a_played_tile_cannot_be_moved_or_replaced() -> None:
    """"Once a letter tile has been played, it cannot be moved or replaced" (a blank is replaced only by
    its own letter, `replace_blank`)."""
    log = monopoly_game(small_track(), ["Car", "Dog"])
    log.push(MPlay(player="Car", position="8G", word="CAT"))
    _finish_turn(log)
    with pytest.raises(IllegalPlacement, match="already covered"):
        log.push(MPlay(player="Dog", position="8G", word="DOG"))


def test_000_covering_a_property_square_takes_the_card_from_its_owner() -> None:
    """"If another player currently owns the card, you will take it from them." H8 and H9 are made
    Orange squares with the profile editor: Car's GAME covers H8, then Dog's GO covers H9."""
    profile = toggle_property_square(toggle_property_square(load_profile(), "H8", "orange"), "H9", "orange")
    log = monopoly_game(profile, ["Car", "Dog"])
    log.push(MPlay(player="Car", position="8H", word="GAME"))
    _finish_turn(log)
    assert log.state.owners["orange"] == "Car"
    log.push(MPlay(player="Dog", position="H8", word=".O"))
    assert log.state.owners["orange"] == "Dog"
    assert log.state.card_transfers[-1].giver == "Car" and log.state.card_transfers[-1].taker == "Dog"


def _finish_turn(log: GameLog[MonopolyState]) -> None:
    """Record "nothing to do" for any card the turn draws (the steps are not what these tests are about)."""
    while log.state.pending:
        step = log.state.pending[0]
        assert step.kind == "card", step
        log.push(Card(player=step.player, effect="none"))
