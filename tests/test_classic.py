"""Classic Scrabble flow as a fold over the event log: turns, challenges in every mode, exchanges,
the end of the game in each way the rules name, variants, clocks, undo and never half-applying."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.events import GameLog, dump_events, load_events
from companion.games.classic.rules import (
    EVENT_ADAPTER,
    Challenge,
    ClassicState,
    EndGame,
    Exchange,
    Pass,
    Play,
    Settings,
    Start,
    finish_line_target,
    new_state,
)
from companion.rules.errors import IllegalAction, IllegalPlacement


def game(**settings: object) -> GameLog[ClassicState]:
    log = GameLog(new_state)
    players = settings.pop("players", ["Ann", "Bob"])
    log.push(Start(settings=Settings(players=players, **settings)))  # type: ignore[arg-type]
    return log


@pytest.fixture
def small_tiles(tmp_path: Path) -> str:
    """A 16-tile set: two full racks leave 2 tiles in the bag, so games end within a few plays."""
    tiles = {"A": (1, 4), "T": (1, 3), "C": (3, 2), "S": (1, 2), "O": (1, 2), "X": (8, 1), "?": (0, 2)}
    path = tmp_path / "small.json"
    path.write_text(json.dumps({
        "name": "small", "rack_size": 7, "bingo_bonus": 50,
        "tiles": {k: {"value": v, "count": c} for k, (v, c) in tiles.items()},
    }))
    return str(path)


def test_turns_alternate_and_scores_accumulate() -> None:
    log = game()
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Play(player="Bob", position="E7", word="T.X"))
    s = log.state
    assert s.scores == {"Ann": 26, "Bob": 10}  # T, A, X: 1 + 1 + 8 on plain squares
    assert [t.notation for t in s.turns] == ["8D FASTEN", "E7 T.X"]
    assert s.current_player == "Ann"
    assert s.bag_count == 100 - 14 - 6 - 2


def test_wrong_player_and_illegal_play_change_nothing() -> None:
    log = game()
    before = (log.state.scores.copy(), log.state.board.rows(), len(log.events))
    with pytest.raises(IllegalAction, match="Ann's turn"):
        log.push(Play(player="Bob", position="8D", word="FASTEN"))
    with pytest.raises(IllegalPlacement, match="centre square H8"):
        log.push(Play(player="Ann", position="1A", word="FASTEN"))
    with pytest.raises(IllegalPlacement, match="does not hold"):
        log.push(Play(player="Ann", position="8D", word="FASTEN", rack="FASTERS"))
    assert (log.state.scores, log.state.board.rows(), len(log.events)) == before


def test_double_challenge_valid_costs_challenger_next_turn() -> None:
    log = game(preset="box")
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Challenge(challenger="Bob", acceptable=True, words=["FASTEN"]))
    assert log.state.current_player == "Ann"
    assert log.state.turns[-1].kind == "lost turn"


def test_double_challenge_invalid_takes_tiles_back() -> None:
    log = game(preset="box")
    log.push(Play(player="Ann", position="8D", word="FASTEX"))
    log.push(Challenge(challenger="Bob", acceptable=False, words=["FASTEX"]))
    s = log.state
    assert s.board.is_empty() and s.scores["Ann"] == 0
    assert s.turns[0].kind == "phony withdrawn"
    assert s.current_player == "Bob"
    assert s.bag_count == 86 and s.rack_counts["Ann"] == 7


def test_penalty_challenge_pays_points_per_word() -> None:
    log = game(preset="wespa")
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Play(player="Bob", position="9D", word="AT"))  # forms AT, FA, AT
    log.push(Challenge(challenger="Ann", acceptable=True, words=["AT", "FA", "AT"]))
    assert log.state.turns[-1].kind == "challenge bonus"
    assert log.state.turns[-1].score == 15
    assert log.state.current_player == "Ann"


def test_single_challenge_no_penalty_and_void_retries() -> None:
    log = game(preset="box", challenge_mode="single")
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Challenge(challenger="Bob", acceptable=True))
    assert log.state.current_player == "Bob"
    log = game(preset="box", challenge_mode="void")
    log.push(Play(player="Ann", position="8D", word="FASTEX"))
    log.push(Challenge(challenger="Bob", acceptable=False))
    assert log.state.current_player == "Ann" and log.state.turns == []


def test_challenge_must_come_before_next_turn() -> None:
    log = game()
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Pass(player="Bob"))
    with pytest.raises(IllegalAction, match="no play to challenge"):
        log.push(Challenge(challenger="Bob", acceptable=False))


def test_exchange_needs_seven_in_bag(small_tiles: str) -> None:
    log = game(tileset=small_tiles)
    assert log.state.bag_count == 2
    with pytest.raises(IllegalAction, match="at least 7 tiles in the bag; 2 are left"):
        log.push(Exchange(player="Ann", count=2))


def test_going_out_box_and_tournament_adjustments(small_tiles: str) -> None:
    rack_left = 3 + 1 + 1 + 1 + 0  # Bob keeps C, A, T, S and a blank
    for preset, expected in (("box", {"Ann": rack_left, "Bob": -rack_left}),
                             ("naspa", {"Ann": 2 * rack_left, "Bob": 0})):
        log = game(tileset=small_tiles, preset=preset)
        log.push(Play(player="Ann", position="8G", word="CAT"))  # draws the bag's last 2 tiles
        assert log.state.bag_count == 0 and log.state.rack_counts["Ann"] == 6
        log.push(Play(player="Bob", position="H7", word="A.O"))
        log.push(Play(player="Ann", position="9I", word="TA"))
        assert log.state.went_out is None
        log.push(Pass(player="Bob"))
        log.push(Play(player="Ann", position="10I", word="SOXa"))  # her last four tiles
        s = log.state
        assert s.went_out == "Ann" and s.end_reason == "played_out" and s.current_player is None
        with pytest.raises(IllegalAction, match="game is over"):
            log.push(Pass(player="Bob"))
        with pytest.raises(IllegalAction, match="went out"):
            log.push(EndGame(racks={"Ann": "A", "Bob": "ACTS?"}))
        log.push(EndGame(racks={"Bob": "ACTS?"}))
        s = log.state
        assert s.adjustments == expected, preset
        assert s.finished and s.winner() == ["Ann"]


def test_a_challenge_after_going_out_reopens_the_game(small_tiles: str) -> None:
    log = game(tileset=small_tiles)
    log.push(Play(player="Ann", position="8G", word="CAT"))
    log.push(Play(player="Bob", position="H7", word="A.O"))
    log.push(Play(player="Ann", position="9I", word="TA"))
    log.push(Pass(player="Bob"))
    log.push(Play(player="Ann", position="10I", word="SOXa"))
    log.push(Challenge(challenger="Bob", acceptable=False))
    assert log.state.went_out is None and log.state.current_player == "Bob"
    assert log.state.rack_counts["Ann"] == 4


def test_scoreless_turns_end_the_game() -> None:
    log = game(preset="box")  # two scoreless turns each
    for _ in range(2):
        log.push(Pass(player="Ann"))
        log.push(Pass(player="Bob"))
    assert log.state.end_reason == "scoreless_turns"
    log.push(EndGame(racks={"Ann": "QZ", "Bob": "AE"}))
    assert log.state.scores == {"Ann": -20, "Bob": -2}
    assert log.state.winner() == ["Bob"]


def test_finish_line_target_ends_at_once() -> None:
    assert finish_line_target("beginner", 2) == 70
    assert finish_line_target("expert", 4) == 160
    log = game(variant="finish_line", finish_target=20)
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    assert log.state.end_reason == "target_reached"
    log.push(EndGame(racks={"Bob": "QQ"}))
    assert log.state.scores == {"Ann": 26, "Bob": 0}


def test_nine_tile_bingo_with_eight_tiles() -> None:
    log = game(variant="nine_tile")
    assert log.state.rack_counts == {"Ann": 9, "Bob": 9}
    log.push(Play(player="Ann", position="8A", word="STRAINED"))
    words_score = log.state.scores["Ann"] - 50
    assert words_score > 0 and log.state.turns[0].score == words_score + 50


def test_clock_overtime_costs_ten_per_started_minute() -> None:
    log = game(preset="naspa")
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    for _ in range(3):
        log.push(Pass(player="Bob"))
        log.push(Pass(player="Ann"))
    log.push(EndGame(racks={"Ann": "E", "Bob": "E"}, time_used={"Ann": 25 * 60 + 61, "Bob": 25 * 60}))
    assert log.state.adjustments == {"Ann": -1 - 20, "Bob": -1}


def test_tie_broken_by_score_before_adjustment() -> None:
    state = ClassicState(scores={"Ann": 10, "Bob": 10}, scores_before_adjustment={"Ann": 12, "Bob": 8})
    assert state.winner() == ["Ann"]
    state = ClassicState(scores={"Ann": 10, "Bob": 10}, scores_before_adjustment={"Ann": 12, "Bob": 12})
    assert state.winner() == ["Ann", "Bob"]


def test_undo_restores_previous_state_and_is_logged() -> None:
    log = game()
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Play(player="Bob", position="E7", word="T.X"))
    log.undo()
    assert log.state.scores == {"Ann": 26, "Bob": 0}
    assert log.state.current_player == "Bob"
    assert [e.type for e in log.events][-1] == "undo"
    log.undo()
    log.undo()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        log.undo()


def test_log_round_trips_through_json() -> None:
    log = game(preset="wespa")
    log.push(Play(player="Ann", position="8D", word="FASTEN"))
    log.push(Exchange(player="Bob", count=3))
    log.undo()
    text = dump_events(log.events, "classic")
    variant, events = load_events(text, EVENT_ADAPTER, "classic")
    assert variant == "classic" and events == log.events
    again = GameLog(new_state, events)
    assert again.state.scores == log.state.scores and again.state.turns == log.state.turns


def test_settings_refuse_bad_tables() -> None:
    with pytest.raises(ValueError, match="same name"):
        Settings(players=["Ann", "ann"])
    log = GameLog(new_state)
    with pytest.raises(IllegalAction, match="2-2 players"):
        log.push(Start(settings=Settings(players=["A", "B", "C"], preset="naspa")))
    assert log.state.settings is None
