"""Monopoly Scrabble engine: the rules text's worked examples, the bank's money rules, refusals.

Every game here is real: events folded by `GameLog` over the shipped profile (or a copy edited with
the profile editor API), no mocks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest

from companion.events import Event, GameLog
from companion.games.monopoly_scrabble.profile import Profile, load_profile, toggle_property_square
from companion.games.monopoly_scrabble.rules import (
    BANK,
    POT,
    BingoChoice,
    Card,
    CardEffectKind,
    Challenge,
    EndGame,
    JailFee,
    MonopolyScrabbleState,
    Pass,
    Play,
    ReplaceBlank,
    Sell,
    Settings,
    Start,
    Step,
    new_game,
    new_state,
)
from companion.rules.board import parse_square
from companion.rules.errors import IllegalAction, IllegalPlacement, RulesError

PLAYERS = ["Car", "Dog", "Hat"]


def small_track(**over: Any) -> dict[str, Any]:
    """The shipped profile with a 10-space track, so tokens pass GO within a few plays."""
    data = load_profile().model_dump(mode="json")
    spaces = [
        {"type": "go", "name": "GO"},
        {"type": "property", "name": "Orange", "group": "orange"},  # 1
        {"type": "chance", "name": "Chance"},  # 2
        {"type": "property", "name": "Brown", "group": "brown"},  # 3
        {"type": "jail", "name": "Jail"},  # 4
        {"type": "free_parking", "name": "Free Parking"},  # 5
        {"type": "community_chest", "name": "Community Chest"},  # 6
        {"type": "property", "name": "Red", "group": "red"},  # 7
        {"type": "go_to_jail", "name": "Go to Jail"},  # 8
        {"type": "plain", "name": "Rest"},  # 9
    ]
    data["track"] = {"confidence": "table", "spaces": spaces}
    data.update(over)
    return data


def game(profile: Profile | dict[str, Any] | None = None, players: list[str] | None = None,
         *events: Event) -> GameLog[MonopolyScrabbleState]:
    data = profile.model_dump(mode="json") if isinstance(profile, Profile) else profile
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=players or PLAYERS, profile_data=data)))
    for e in events:
        log.push(e)
    return log


def conserved(state: MonopolyScrabbleState) -> None:
    assert state.profile is not None
    assert state.total_money == state.profile.amounts.bank_float.value
    assert all(v >= 0 for k, v in state.cash.items() if k != BANK)


# ----- the rules text's worked examples -----

def test_game_on_the_star_scores_14_and_moves_14() -> None:
    log = game(None, None, Play(player="Car", position="8H", word="GAME"))
    s = log.state
    # G2 + A1 + M3 + E1 = 7, doubled as the first word (the star) = 14
    assert s.turns[-1].score == 14
    assert s.positions["Car"] == 14
    assert s.current_player == "Dog"


def test_board_through_the_a_with_o_and_r_on_double_letters_scores_10() -> None:
    log = game(None, None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="I6", word="BO.RD"))
    # B3 + O1x2 + A1 + R1x2 + D2 = 10 (I7 and I9 are double-letter squares)
    assert log.state.turns[-1].score == 10
    assert log.state.positions["Dog"] == 10


def test_winner_with_a_blank_takes_the_utilities_card() -> None:
    log = game(None, None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="I6", word="BO.RD"),
               Play(player="Hat", position="K4", word="WINn.R"))
    s = log.state
    # W4 + I1 + N1 + n(blank)0 + E1 + R1 = 8, x2 for the double-word square K5 under the I = 16
    assert s.turns[-1].score == 16
    assert s.turns[-1].words == ["WINNER"]
    # K5 is a Utilities property square in the shipped (placeholder) profile: the I takes the card.
    assert s.owners["utilities"] == "Hat"
    assert s.positions["Hat"] == 16


def test_orange_rent_is_600_to_the_owner() -> None:
    # H8 made an Orange property square with the profile editor: GAME's G takes the Orange card.
    profile = toggle_property_square(load_profile(), "H8", "orange")
    log = game(profile, None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="I6", word="BO.RD"),
               Play(player="Hat", position="K4", word="WINn.R"))
    s = log.state
    assert s.owners["orange"] == "Car"
    assert s.profile is not None and s.profile.track.spaces[16].group == "orange"
    # Hat lands on space 16 (Orange) owned by Car: pays M600.
    assert s.cash["Hat"] == 1000 - 600
    assert s.cash["Car"] == 1000 + 600
    assert s.ledger[-1].payer == "Hat" and s.ledger[-1].payee == "Car" and s.ledger[-1].amount == 600
    conserved(s)


def test_end_of_game_wealth_example() -> None:
    """Top: M3,400 in properties + M2,800 cash; second: M3,000 + M2,400; third: M2,000 + M1,200;
    bottom: M1,400 + M600. The top player wins."""
    s = game(None, ["Top", "Second", "Third", "Bottom"]).state
    # Placeholder card values: brown 400, light_blue 500, pink 700, orange 900, red 1100, yellow 1200,
    # green 1400, dark_blue 1600, railroads 1000, utilities 1000; all ten add up to 9800 =
    # 3400 + 3000 + 2000 + 1400, so the example's hands hold every card:
    hands = {"Top": ["brown", "pink", "red", "yellow"],        # 400 + 700 + 1100 + 1200 = 3400
             "Second": ["dark_blue", "orange", "light_blue"],  # 1600 + 900 + 500 = 3000
             "Third": ["railroads", "utilities"],               # 1000 + 1000 = 2000
             "Bottom": ["green"]}                               # 1400
    cash = {"Top": 2800, "Second": 2400, "Third": 1200, "Bottom": 600}
    # Hands and cash are set on the state directly: this checks the wealth rule, not how they were won
    # (the shipped full game checks that).
    for player, groups in hands.items():
        for g in groups:
            s.owners[g] = player
        s.cash[player] = cash[player]
    assert {p: s.property_value(p) for p in hands} == {"Top": 3400, "Second": 3000, "Third": 2000, "Bottom": 1400}
    assert s.wealth() == {"Top": 6200, "Second": 5400, "Third": 3200, "Bottom": 2000}
    assert s.winner() == ["Top"]


# ----- movement and the bank -----

def test_passing_go_pays_2000() -> None:
    # 10-space track: GAME (14) goes round once, 14 = 10 + 4, and stops on Jail (just visiting).
    s = game(small_track(), None, Play(player="Car", position="8H", word="GAME")).state
    assert s.positions["Car"] == 4
    assert s.cash["Car"] == 1000 + 2000
    last = s.ledger[-1]
    assert (last.payer, last.payee, last.amount, last.reason) == (BANK, "Car", 2000, "passed GO")
    conserved(s)


def test_bank_tile_goes_to_the_pot_and_free_parking_takes_the_pot() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"))
    bag = log.state.bag_count
    # Dog buys D from the Bank rack (M100 to the pot: 600) and plays GOD down from H8:
    # G2 + O1 + D2 = 5 -> space 5, Free Parking: takes M600, the Banker reseeds M500.
    s = log.push(Play(player="Dog", position="H8", word=".OD", bought="D"))
    assert s.positions["Dog"] == 5
    assert s.cash["Dog"] == 1000 - 100 + 600
    assert s.cash[POT] == 500
    assert [(t.payer, t.payee, t.amount) for t in s.ledger[-3:]] == [("Dog", POT, 100), (POT, "Dog", 600),
                                                                     (BANK, POT, 500)]
    # The Bank rack refills first (1 tile), then Dog draws 1 for the one own tile played.
    assert s.bank_rack_count == 7 and s.rack_counts["Dog"] == 7 and s.bag_count == bag - 2
    conserved(s)


def test_chance_go_to_jail_then_the_jail_fee_on_the_next_turn() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="H8", word=".OD", bought="D"))
    # Hat plays ET (E1 + T1 = 2): space 2 is Chance; the table reads the card: Go to Jail.
    s = log.push(Play(player="Hat", position="K8", word=".T"))
    assert [p.kind for p in s.pending] == ["card"] and s.pending[0].deck == "chance"
    assert s.current_player == "Hat"
    with pytest.raises(IllegalAction, match="waiting for"):
        log.push(BingoChoice(player="Hat", group="orange"))
    s = log.push(Card(player="Hat", deck="chance", effect="go_to_jail"))
    assert s.positions["Hat"] == 4 and "Hat" in s.in_jail
    assert s.current_player == "Car"
    log.push(Pass(player="Car"))
    log.push(Pass(player="Dog"))
    s = log.state
    assert [p.kind for p in s.pending] == ["jail_fee"]
    with pytest.raises(IllegalAction, match="leave Jail"):
        log.push(Pass(player="Hat"))
    pot = s.cash[POT]
    s = log.push(JailFee(player="Hat"))
    assert s.cash["Hat"] == 900 and s.cash[POT] == pot + 100 and "Hat" not in s.in_jail
    assert s.current_player == "Hat" and s.pending == []
    conserved(s)


def test_debt_forces_a_sale_at_half_value() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="H8", word=".OD", bought="D"))
    # Hat plays WINNER with a blank N: 16 points -> round the 10 spaces (+M2000) to space 6 (Community
    # Chest); the I on K5 takes Utilities.
    s = log.push(Play(player="Hat", position="K4", word="WINn.R"))
    assert s.owners["utilities"] == "Hat" and s.positions["Hat"] == 6
    s = log.push(Card(player="Hat", effect="pay_bank", amount=3300, text="Doctor's fees"))
    assert [p.kind for p in s.pending] == ["debt"] and s.pending[0].amount == 3300
    with pytest.raises(IllegalAction, match="does not own"):
        log.push(Sell(player="Hat", group="orange"))
    # Utilities (value 1000) sells for 500: 3000 + 500 = 3500 >= 3300, the debt is paid, 200 left.
    s = log.push(Sell(player="Hat", group="utilities"))
    assert s.owners["utilities"] is None and s.cash["Hat"] == 200 and s.pending == []
    assert s.current_player == "Car"
    conserved(s)


def test_a_debt_without_cards_eliminates() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="H8", word=".OD", bought="D"),
               Play(player="Hat", position="K8", word=".T"))
    s = log.push(Card(player="Hat", effect="pay_each", amount=600))
    # Hat pays Car 600, then owes Dog 600 with 400 left and no cards: pays 400 and is out.
    assert s.eliminated == ["Hat"]
    assert s.cash["Hat"] == 0 and s.cash["Car"] == 3000 + 600 and s.cash["Dog"] == 1500 + 400
    assert s.current_player == "Car"
    conserved(s)


def test_a_second_debt_after_the_last_card_is_sold_is_settled_at_once() -> None:
    # Found by the random-games property test: two debts are queued while Hat still holds a card; the
    # sale pays the first, and the second can then be met by no sale - it must not wait for one.
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="H8", word=".OD", bought="D"))
    s = log.push(Play(player="Hat", position="K4", word="WINn.R"))
    assert s.owners["utilities"] == "Hat" and s.cash["Hat"] == 3000
    s = log.push(Card(player="Hat", effect="pay_each", amount=3100))
    assert [(p.kind, p.creditor) for p in s.pending] == [("debt", "Car"), ("debt", "Dog")]
    car, dog = s.cash["Car"], s.cash["Dog"]
    # Utilities sells for 500: 3500 pays Car's 3100; the 400 left go to Dog and Hat is out.
    s = log.push(Sell(player="Hat", group="utilities"))
    assert s.pending == [] and s.eliminated == ["Hat"]
    assert s.cash["Car"] == car + 3100 and s.cash["Dog"] == dog + 400 and s.cash["Hat"] == 0
    assert s.current_player == "Car"
    conserved(s)


def test_bingo_takes_a_card_without_the_50_point_bonus() -> None:
    log = game(None, None)
    # RETAINS from H8: R1 E1 T1 A1 I1x2 (L8 double letter) N1 S1 = 8, x2 the star = 16; no 50 bonus.
    s = log.push(Play(player="Car", position="8H", word="RETAINS"))
    assert s.turns[-1].score == 16
    assert [p.kind for p in s.pending] == ["bingo_choice", "move"]
    assert s.positions["Car"] == 0  # the token moves once the card is chosen
    s = log.push(BingoChoice(player="Car", group="orange"))
    assert s.owners["orange"] == "Car" and s.positions["Car"] == 16 and s.current_player == "Dog"


def test_bingo_with_no_card_left_pays_1000() -> None:
    data = small_track()
    data["groups"] = [g for g in data["groups"] if g["id"] == "orange"]
    data["groups"][0]["squares"] = {"value": ["H8"], "confidence": "table"}
    data["track"]["spaces"] = [s if s["type"] != "property" or s["group"] == "orange" else
                               {"type": "plain", "name": "Rest"} for s in data["track"]["spaces"]]
    s = game(data, None, Play(player="Car", position="8H", word="RETAINS")).state
    # The R on H8 takes the only card, so the bingo pays M1000; 16 on 10 spaces passes GO once.
    assert s.owners["orange"] == "Car" and [p.kind for p in s.pending] == ["card"]  # 6: Community Chest
    assert s.cash["Car"] == 1000 + 1000 + 2000 and s.positions["Car"] == 6


def test_invalid_word_challenge_withdraws_everything() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"))
    before = log.state
    s = log.push(Play(player="Dog", position="H8", word=".OD", bought="D"))
    assert s.cash["Dog"] == 1500
    s = log.push(Challenge(challenger="Car", acceptable=False))
    assert s.cash == before.cash and s.positions == before.positions and s.board == before.board
    assert s.bag_count == before.bag_count and s.bank_rack_count == 7
    assert s.turns[-1].kind == "withdrawn" and s.current_player == "Hat"
    with pytest.raises(IllegalAction, match="no play to challenge"):
        log.push(Challenge(challenger="Hat", acceptable=False))


def test_valid_word_challenge_costs_the_challenger_the_next_turn() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"))
    log.push(Play(player="Dog", position="H8", word=".OD", bought="D"))
    s = log.push(Challenge(challenger="Hat", acceptable=True))
    assert s.current_player == "Car"  # Hat, next to play, lost that turn
    assert s.turns[-1].kind == "lost turn"


def test_judge_callable_decides_a_challenge() -> None:
    log: GameLog[MonopolyScrabbleState] = GameLog(lambda: new_state(judge=lambda words: all(w == "GAME" for w in words)))
    log.push(Start(settings=Settings(players=PLAYERS)))
    log.push(Play(player="Car", position="8H", word="GAXE"))
    s = log.push(Challenge(challenger="Dog"))
    assert s.board.is_empty() and s.current_player == "Dog"


def test_replace_a_blank_from_the_rack_and_from_the_bank() -> None:
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=PLAYERS, bank_rack="MAEIOUS")))
    log.push(Play(player="Car", position="8H", word="GAmE"))  # the M is a blank on J8
    j8 = parse_square("J8")
    with pytest.raises(IllegalAction, match="no blank on I8"):
        log.push(ReplaceBlank(player="Dog", square="I8"))
    s = log.push(ReplaceBlank(player="Dog", square="J8", source="bank"))
    # M500 fee + M100 for the Bank's M, both to Free Parking; the blank joins Dog's rack.
    assert s.cash["Dog"] == 400 and s.cash[POT] == 1100
    tile = s.board.get(j8)
    assert tile is not None and tile.letter == "M" and not tile.blank
    assert s.bank_rack == "AEIOUS" and s.bank_rack_count == 6 and s.rack_counts["Dog"] == 8
    # Dog then plays (here 2 tiles): the Bank rack refills to 7 first, then Dog refills to 7.
    bag = s.bag_count
    s = log.push(Play(player="Dog", position="K8", word=".AT"))
    assert s.bank_rack_count == 7 and s.rack_counts["Dog"] == 7 and s.bag_count == bag - 1 - 1
    conserved(s)
    # Replacing from the own rack costs the fee only; a second replacement finds no blank.
    log.undo()
    log.undo()
    s = log.push(ReplaceBlank(player="Dog", square="J8"))
    assert s.cash["Dog"] == 500 and s.rack_counts["Dog"] == 7


# ----- refusals: one clear reason, nothing changed -----

@pytest.mark.parametrize("event, message", [
    (Play(player="Dog", position="8H", word="GAME"), "Car's turn"),
    (Play(player="Car", position="8A", word="GAME"), "centre square"),
    (Play(player="Car", position="8H", word="GAME", bought="GAMES"), "not in the word"),
    (Play(player="Car", position="8H", word="GAME", bought="Z"), "not in the word"),
    (Play(player="Car", position="8H", word="GAME", rack="GAXY"), "does not hold EM"),
    (Sell(player="Car", group="orange"), "not waiting"),
    (JailFee(player="Car"), "not waiting"),
    (EndGame(), "bag still holds"),
    (Challenge(challenger="Dog", acceptable=False), "no play to challenge"),
    (Card(player="Car", effect="collect", amount=100), "not waiting"),
])
def test_illegal_events_are_refused_and_change_nothing(event: Event, message: str) -> None:
    log = game(None, None)
    before = log.state
    with pytest.raises(RulesError, match=message):
        log.push(event)
    assert log.state is before and len(log.events) == 1


def test_buying_more_than_the_player_can_afford_is_refused() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"))
    s = log.state
    s.cash["Dog"] = 100  # (set directly: the refusal is what is tested)
    with pytest.raises(IllegalAction, match="cost M200"):
        log.push(Play(player="Dog", position="H8", word=".ODS", bought="OD"))


def test_undo_returns_to_the_start() -> None:
    log = game(small_track(), None, Play(player="Car", position="8H", word="GAME"),
               Play(player="Dog", position="H8", word=".OD", bought="D"),
               Play(player="Hat", position="K8", word=".T"),
               Card(player="Hat", effect="go_to_jail"))
    start = game(small_track(), None).state
    for _ in range(4):
        log.undo()
    assert log.state.cash == start.cash and log.state.board == start.board and log.state.positions == start.positions


def test_placement_errors_come_from_the_rules_core() -> None:
    log = game(None, None, Play(player="Car", position="8H", word="GAME"))
    with pytest.raises(IllegalPlacement, match="touch"):
        log.push(Play(player="Dog", position="2B", word="NO"))


# ----- the end -----

def tiny_tiles(tmp_path: Path) -> dict[str, Any]:
    """The 10-space track with a 24-tile set: after 2 racks and the Bank rack, 3 tiles are in the bag."""
    tiles = {"name": "tiny", "tiles": {"A": {"value": 1, "count": 8}, "E": {"value": 1, "count": 8},
                                       "S": {"value": 1, "count": 4}, "T": {"value": 1, "count": 4}}}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(tiles), encoding="utf-8")
    return small_track(tileset={"value": str(path), "confidence": "table"})


def test_playing_out_collects_100_per_tile_from_the_others(tmp_path: Path) -> None:
    log = game(tiny_tiles(tmp_path), ["Car", "Dog"],
               Play(player="Car", position="8G", word="SEAT"))  # 4 x 1 x 2 = 8: Go to Jail; draws the last 3
    assert log.state.bag_count == 0 and log.state.rack_counts["Car"] == 6
    with pytest.raises(IllegalAction, match="not over|nobody has played out"):
        log.push(EndGame(reason="played_out"))
    log.push(Play(player="Dog", position="I7", word="E.S"))  # 5: Free Parking, +M500
    log.push(JailFee(player="Car"))
    s = log.push(Play(player="Car", position="J5", word="TEA.SET"))  # Car's last 6 tiles
    assert s.went_out == "Car" and [p.kind for p in s.pending] == ["end_game"]
    with pytest.raises(IllegalAction, match="should have 5 tiles"):
        log.push(EndGame(reason="played_out", tiles_left={"Dog": 2}))
    s = log.push(EndGame(reason="played_out", tiles_left={"Dog": 5}))
    # Car: 1000 - 100 jail fee + 2000 (passed GO: 4 + 15 = 19 on 10 spaces) + 5 x 100 from Dog = 3400
    # Dog: 1000 + 500 Free Parking - 500 for 5 tiles = 1000
    assert s.finished and s.end_reason == "played_out"
    assert s.cash["Car"] == 3400 and s.cash["Dog"] == 1000 and s.winner() == ["Car"]
    conserved(s)
    with pytest.raises(IllegalAction, match="game is over"):
        log.push(Pass(player="Dog"))


def test_nobody_can_play_everyone_pays_the_bank(tmp_path: Path) -> None:
    log = game(tiny_tiles(tmp_path), ["Car", "Dog"],
               Play(player="Car", position="8G", word="SEAT"),
               Play(player="Dog", position="I7", word="E.S"),
               JailFee(player="Car"), Pass(player="Car"), Pass(player="Dog"))
    s = log.state
    assert "nobody can play" in s.next_step()
    bank = s.cash[BANK]
    s = log.push(EndGame(reason="no_plays"))
    # Car holds 6 tiles (M600), Dog 5 (M500), both to the Bank.
    assert s.cash["Car"] == 1000 - 100 - 600 and s.cash["Dog"] == 1500 - 500
    assert s.cash[BANK] == bank + 1100 and s.finished and s.winner() == ["Dog"]


def test_end_by_agreement_before_the_bag_is_empty() -> None:
    log = game(None, None, Play(player="Car", position="8H", word="GAME"))
    s = log.push(EndGame(reason="agreed"))
    assert s.finished and s.cash == {**s.cash, "Car": 300, "Dog": 300, "Hat": 300}


def test_the_turn_says_what_it_waits_for() -> None:
    log = game(small_track(), None)
    s = log.state
    assert s.next_step() == "Car plays a word or passes"
    assert s.allowed_events() == ["play", "pass", "end_game"]  # no blank on the board to replace
    s = log.push(Play(player="Car", position="8H", word="GAME"))
    assert s.allowed_events() == ["play", "pass", "end_game", "challenge"]
    log.push(Play(player="Dog", position="H8", word=".OD", bought="D"))
    s = log.push(Play(player="Hat", position="K8", word=".T"))
    assert s.next_step() == "Hat draws a Chance card; record its effect"
    assert s.allowed_events() == ["card", "challenge"]
    s = log.push(Card(player="Hat", effect="go_to_jail"))
    log.push(Pass(player="Car"))
    s = log.push(Pass(player="Dog"))
    assert s.next_step() == "Hat pays M100 to leave Jail" and s.allowed_events()[0] == "jail_fee"


def test_a_word_of_bought_tiles_only_is_legal() -> None:
    # "You must use one or more of your letters. This can include tiles you purchase from the Bank."
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=PLAYERS, bank_rack="GAMEXYZ")))
    s = log.push(Play(player="Car", position="8H", word="GAME", bought="GAME", bank_drawn="ABCD"))
    assert s.cash["Car"] == 1000 - 400 and s.cash[POT] == 500 + 400
    # The Banker refilled the Bank rack with the recorded letters; Car's own rack was not touched.
    assert s.rack_counts["Car"] == 7 and s.bank_rack == "XYZABCD"
    with pytest.raises(IllegalAction, match="Bank rack XYZABCD does not hold O"):
        log.push(Play(player="Dog", position="H8", word=".O", bought="O"))
    with pytest.raises(IllegalAction, match="draws 4 tiles for the Bank rack, not 2"):
        log.undo()
        log.push(Play(player="Car", position="8H", word="GAME", bought="GAME", bank_drawn="AB"))


def test_new_game_embeds_the_profile_in_the_log() -> None:
    profile = toggle_property_square(load_profile(), "H8", "orange")
    log = new_game(PLAYERS, banker="Dog", profile=profile)
    start = log.events[0]
    assert isinstance(start, Start) and start.settings.profile_data == profile.model_dump(mode="json")
    s = log.push(Play(player="Car", position="8H", word="GAME"))
    assert s.owners["orange"] == "Car"  # the edited profile is the one in force
    with pytest.raises(IllegalAction, match="no board profile"):
        new_game(PLAYERS, profile="no_such_profile")


def test_a_tax_space_when_the_printed_track_has_one() -> None:
    data = small_track()
    data["track"]["spaces"][9] = data["track"]["spaces"][4]  # Jail moves to 9
    data["track"]["spaces"][4] = {"type": "tax", "name": "Luxury Tax", "amount": 300, "pay_to": "pot"}
    s = game(data, None, Play(player="Car", position="8H", word="GAME")).state  # 14 -> space 4
    assert s.cash["Car"] == 1000 + 2000 - 300 and s.cash[POT] == 800
    data["track"]["spaces"][4] = {"type": "tax", "name": "Luxury Tax"}
    with pytest.raises(IllegalAction, match="tax space without an amount"):
        game(data, None)


def test_every_card_effect_has_its_entry_in_the_dispatch_table() -> None:
    """Card effects are dispatched by a table (`_card_effects`), like events: each effect the event model
    accepts has an entry (the shipped full game plays every one of them, `test_monopoly_scrabble_full_game.py`)."""
    assert set(get_args(CardEffectKind)) == set(new_state()._card_effects())


def test_each_step_is_said_in_one_sentence() -> None:
    """What the turn waits for, as the table is told it (`Step.describe`), for every kind of step."""
    said = {kind: Step(kind, "Ann", 50, **extra).describe({"brown": "Old Kent Road"})
            for kind, extra in (("jail_fee", {}), ("bingo_choice", {"options": ("brown", "blue")}),
                                ("card", {"deck": "chance"}), ("debt", {"creditor": POT, "reason": "a tax"}),
                                ("move", {}), ("end_game", {}), ("mystery", {}))}
    assert said == {
        "jail_fee": "Ann pays M50 to leave Jail",
        "bingo_choice": "Ann chooses a Property Card for the bingo: Old Kent Road, blue",
        "card": "Ann draws a Chance card; record its effect",
        "debt": "Ann owes M50 to Free Parking (a tax) and must sell Property Cards",
        "move": "Ann moves 50 spaces",
        "end_game": "the game is over: record the tiles left on each rack",
        "mystery": "mystery",
    }
