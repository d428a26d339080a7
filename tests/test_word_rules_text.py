"""Rules of the word games' rules texts that had no test of their own, each named after its rule.

`000_*` is Monopoly Scrabble, `001_*` and `004_*` classic Scrabble (`../shared/rules-text/`). The other
rules of these texts are tested where their game is (`test_classic.py`, `test_monopoly_scrabble.py`,
`test_rules_examples.py`, `test_liveness_*.py`); `tests/test_word_rules_text.py::RULES` maps every rule to its test.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from test_monopoly_scrabble import game as monopoly_game
from test_monopoly_scrabble import small_track, tiny_tiles

from companion.events import GameLog
from companion.games.classic.legal import legal_moves
from companion.games.classic.rules import (
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
from companion.games.monopoly_scrabble.profile import load_profile, toggle_property_square
from companion.games.monopoly_scrabble.rules import (
    Card,
    JailFee,
    MonopolyScrabbleEvent,
    MonopolyScrabbleState,
    Sell,
    Step,
)
from companion.games.monopoly_scrabble.rules import Pass as MPass
from companion.games.monopoly_scrabble.rules import Play as MPlay
from companion.rules.board import PlacedTile, Tile, parse_square
from companion.rules.errors import IllegalAction, IllegalPlacement
from companion.rules.placement import validate_placement
from companion.rules.tiles import load_tileset


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


def test_001_words_go_across_or_down_never_diagonally_and_without_gaps() -> None:
    """"Words must be read left to right (rows) or top to bottom (columns)", "Forming diagonal words is not
    allowed", "without any gaps"; 000: "You cannot connect to other words diagonally"."""
    log = classic()
    log.push(Play(player="Ann", position="8G", word="CAT"))
    board, layout, tileset = log.state.board, log.state.layout, log.state.tileset
    assert layout is not None

    def tiles(*squares: str) -> list[PlacedTile]:
        return [PlacedTile(parse_square(sq, 15), Tile("A")) for sq in squares]

    with pytest.raises(IllegalPlacement, match="one row or one column"):
        validate_placement(board, tiles("J9", "K10"), layout, tileset)  # a diagonal word
    with pytest.raises(IllegalPlacement, match="gap at K9"):
        validate_placement(board, tiles("J9", "L9"), layout, tileset)
    with pytest.raises(IllegalPlacement, match="must touch"):
        validate_placement(board, tiles("J9", "J10"), layout, tileset)  # touches CAT only at a corner
    validate_placement(board, tiles("J8", "J9"), layout, tileset)  # CATA, and a word down


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


def _finish_turn(log: GameLog[MonopolyScrabbleState]) -> None:
    """Record "nothing to do" for any card the turn draws (the steps are not what these tests are about)."""
    while log.state.pending:
        step = log.state.pending[0]
        assert step.kind == "card", step
        log.push(Card(player=step.player, effect="none"))


def test_000_setup_seven_tiles_each_a_bank_rack_of_seven_m1000_each_and_m500_on_free_parking() -> None:
    """"Each player takes a tile rack and seven random tiles", "Give the Bank a tile rack. Randomly draw seven
    tiles", "one M500 bill and five M100 bills", "one M500 bill underneath the Free Parking space"."""
    state = monopoly_game(None, ["Car", "Dog", "Hat"]).state
    assert state.rack_counts == {"Car": 7, "Dog": 7, "Hat": 7} and state.bank_rack_count == 7
    assert state.bag_count == 100 - 4 * 7
    assert {p: state.cash[p] for p in state.players} == {"Car": 1000, "Dog": 1000, "Hat": 1000}
    assert state.cash["pot"] == 500


def test_000_the_bank_rack_refills_before_the_players_rack(tmp_path: Path) -> None:
    """"the Banker first draws tiles from the tile bag to fill the Bank's tile rack up to seven tiles. The
    current player then draws": with 3 tiles in the bag, two Bank tiles bought and three of Car's own
    played, the Bank rack takes two and Car the last one."""
    log = monopoly_game(tiny_tiles(tmp_path), ["Car", "Dog"])
    assert log.state.bag_count == 3
    log.push(MPlay(player="Car", position="8F", word="SEATS", bought="AS"))
    state = log.state
    assert state.bank_rack_count == 7 and state.bag_count == 0 and state.rack_counts["Car"] == 7 - 3 + 1


def test_000_a_chance_card_can_give_a_property_card() -> None:
    """"you can acquire a Property Card from drawing a Chance/Community Chest card"."""
    log = monopoly_game(small_track(), ["Car", "Dog"])
    log.push(MPlay(player="Car", position="8G", word="TEA"))  # 3 x 2 = 6: Community Chest on the small track
    assert log.state.pending[0].kind == "card"
    log.push(Card(player="Car", effect="take_property", group="red"))
    assert log.state.owners["red"] == "Car"


def test_000_a_property_is_never_bought_by_landing_on_it() -> None:
    """"Unlike normal Monopoly, you cannot purchase a property by landing on the corresponding space":
    the game has no event that buys a Property Card."""
    types = {member.model_fields["type"].default for member in get_args(get_args(MonopolyScrabbleEvent)[0])}
    assert "play" in types and not {t for t in types if "buy" in t}


def test_001_each_player_starts_with_seven_tiles_and_refills_to_seven() -> None:
    """"Each player starts with 7 letter tiles", "After each turn, players draw new tiles to maintain 7"."""
    log = classic()
    assert log.state.rack_counts == {"Ann": 7, "Bob": 7} and log.state.bag_count == 86
    log.push(Play(player="Ann", position="8G", word="CAT"))
    assert log.state.rack_counts["Ann"] == 7 and log.state.bag_count == 83


def test_004_tile_values_and_counts_are_the_texts() -> None:
    """The letter values of texts 001 and 004 and the counts of 001's table (100 tiles, 2 blanks)."""
    en = load_tileset("en")
    values = {1: "AEILNORSTU", 2: "DG", 3: "BCMP", 4: "FHVWY", 5: "K", 8: "JX", 10: "QZ"}
    assert {ch: en.values[ch] for v, letters in values.items() for ch in letters} == \
        {ch: v for v, letters in values.items() for ch in letters}
    counts = {ch: n for ch, n in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ?",
                                     [9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1, 2],
                                     strict=True)}
    assert en.counts == counts and en.total_tiles == 100


# ---------------------------------------------------------------- every rule and its test

# (text, the rule, "file::test"): every rule of the three rules texts the referee can apply. Rules about
# what the table does by hand (who shuffles, drawing for first player, the Banker's role) are not here.
RULES: list[tuple[str, str, str]] = [
    ("000", "seven tiles each, a Bank rack of seven, M1000 each, M500 on Free Parking",
     "test_word_rules_text.py::test_000_setup_seven_tiles_each_a_bank_rack_of_seven_m1000_each_and_m500_on_free_parking"),
    ("000", "the amounts of the text", "test_monopoly_scrabble_profile.py::test_shipped_profile_has_the_rules_text_amounts"),
    ("000", "a word uses one or more of your letters, bought tiles included",
     "test_monopoly_scrabble.py::test_a_word_of_bought_tiles_only_is_legal"),
    ("000", "words of the dictionary only (on a challenge)", "test_judge.py::test_judge_words_whole_play"),
    ("000", "the same word may be played again", "test_word_rules_text.py::test_000_the_same_word_may_be_played_again"),
    ("000", "the first word covers the centre star", "test_monopoly_scrabble.py::test_illegal_events_are_refused_and_change_nothing"),
    ("000", "words connect across or down, never diagonally",
     "test_word_rules_text.py::test_001_words_go_across_or_down_never_diagonally_and_without_gaps"),
    ("000", "a played tile is never moved or replaced",
     "test_word_rules_text.py::test_000_a_played_tile_cannot_be_moved_or_replaced"),
    ("000", "a blank is any letter and scores nothing", "test_monopoly_scrabble.py::test_winner_with_a_blank_takes_the_utilities_card"),
    ("000", "a played blank is replaced by its letter (rack or Bank M100), M500 to Free Parking",
     "test_monopoly_scrabble.py::test_replace_a_blank_from_the_rack_and_from_the_bank"),
    ("000", "a challenge comes before the next player begins their turn",
     "test_liveness_monopoly_scrabble.py::test_the_challenge_window_closes_when_the_next_player_acts_not_before"),
    ("000", "a word not in the dictionary is taken back and the turn lost",
     "test_monopoly_scrabble.py::test_invalid_word_challenge_withdraws_everything"),
    ("000", "a word in the dictionary: the challenger loses their next turn",
     "test_monopoly_scrabble.py::test_valid_word_challenge_costs_the_challenger_the_next_turn"),
    ("000", "Bank tiles cost M100 each, paid to Free Parking",
     "test_monopoly_scrabble.py::test_bank_tile_goes_to_the_pot_and_free_parking_takes_the_pot"),
    ("000", "Bank tiles are bought only as far as the cash pays",
     "test_liveness_monopoly_scrabble.py::test_bank_tiles_offered_are_what_the_rack_holds_and_the_cash_pays"),
    ("000", "bought tiles are played the turn they are bought",
     "test_monopoly_scrabble.py::test_illegal_events_are_refused_and_change_nothing"),
    ("000", "the Bank rack refills first, then the player's",
     "test_word_rules_text.py::test_000_the_bank_rack_refills_before_the_players_rack"),
    ("000", "a seven-tile bingo takes a Property Card no other player owns",
     "test_monopoly_scrabble.py::test_bingo_takes_a_card_without_the_50_point_bonus"),
    ("000", "a bingo with no card left collects M1000", "test_monopoly_scrabble.py::test_bingo_with_no_card_left_pays_1000"),
    ("000", "a word scores its tiles, the board's included, premiums under new tiles",
     "test_monopoly_scrabble.py::test_board_through_the_a_with_o_and_r_on_double_letters_scores_10"),
    ("000", "the first word scores double", "test_monopoly_scrabble.py::test_game_on_the_star_scores_14_and_moves_14"),
    ("000", "premiums count only the turn they are covered",
     "test_rules_examples.py::test_001_premiums_only_when_first_covered"),
    ("000", "a blank on a word premium: the word still multiplies",
     "test_rules_examples.py::test_001_blank_on_word_premium_still_multiplies"),
    ("000", "the token moves as many spaces as the word scores",
     "test_monopoly_scrabble.py::test_game_on_the_star_scores_14_and_moves_14"),
    ("000", "covering a property square takes its card",
     "test_monopoly_scrabble.py::test_winner_with_a_blank_takes_the_utilities_card"),
    ("000", "... from the player who owns it",
     "test_word_rules_text.py::test_000_covering_a_property_square_takes_the_card_from_its_owner"),
    ("000", "FAQ: only the first tile on a property square takes the card",
     "test_monopoly_scrabble_full_game.py::test_bankruptcy_and_first_tile_only"),
    ("000", "a Chance / Community Chest card may give a Property Card",
     "test_word_rules_text.py::test_000_a_chance_card_can_give_a_property_card"),
    ("000", "no property is bought by landing on it",
     "test_word_rules_text.py::test_000_a_property_is_never_bought_by_landing_on_it"),
    ("000", "a Chance or Community Chest space draws a card", "test_monopoly_scrabble.py::test_the_turn_says_what_it_waits_for"),
    ("000", "Free Parking: the pot to the lander, then M500 again",
     "test_monopoly_scrabble.py::test_bank_tile_goes_to_the_pot_and_free_parking_takes_the_pot"),
    ("000", "Free Parking collects tile purchases, blank replacements and jail fees",
     "test_monopoly_scrabble_full_game.py::test_free_parking_pot"),
    ("000", "passing GO collects M2000", "test_monopoly_scrabble.py::test_passing_go_pays_2000"),
    ("000", "Jail (space or card): M100 to Free Parking on the next turn, then play",
     "test_monopoly_scrabble.py::test_chance_go_to_jail_then_the_jail_fee_on_the_next_turn"),
    ("000", "rent to the owner of the property landed on", "test_monopoly_scrabble.py::test_orange_rent_is_600_to_the_owner"),
    ("000", "short of money: sell Property Cards to the Bank at half", "test_monopoly_scrabble.py::test_debt_forces_a_sale_at_half_value"),
    ("000", "still short with no card: eliminated", "test_monopoly_scrabble.py::test_a_debt_without_cards_eliminates"),
    ("000", "the game may end once the bag is empty",
     "test_liveness_monopoly_scrabble.py::test_with_an_empty_bag_the_game_may_end_as_nobody_can_play"),
    ("000", "a player who plays out collects M100 per tile left from each other player",
     "test_monopoly_scrabble.py::test_playing_out_collects_100_per_tile_from_the_others"),
    ("000", "nobody can play: every tile left costs M100 to the Bank",
     "test_monopoly_scrabble.py::test_nobody_can_play_everyone_pays_the_bank"),
    ("000", "wealth is cash plus card values; the highest wins", "test_monopoly_scrabble.py::test_end_of_game_wealth_example"),
    ("001", "seven tiles each, refilled after each turn",
     "test_word_rules_text.py::test_001_each_player_starts_with_seven_tiles_and_refills_to_seven"),
    ("001", "words across or down, no diagonal, no gap, connected",
     "test_word_rules_text.py::test_001_words_go_across_or_down_never_diagonally_and_without_gaps"),
    ("001", "the first word on the centre star", "test_classic.py::test_wrong_player_and_illegal_play_change_nothing"),
    ("001", "valid words of the agreed word list", "test_judge.py::test_judge_words_whole_play"),
    ("001", "letter premiums before word premiums; word premiums multiply",
     "test_rules_examples.py::test_001_letter_premium_before_word_premium_and_multipliers_multiply"),
    ("001", "a blank scores nothing; a word premium under it still counts",
     "test_rules_examples.py::test_001_blank_on_word_premium_still_multiplies"),
    ("001", "an exchange only if the bag holds that many tiles",
     "test_liveness_classic.py::test_an_exchange_is_never_larger_than_the_bag_nine_tile_racks"),
    ("001", "(box) an exchange needs seven tiles in the bag", "test_classic.py::test_exchange_needs_seven_in_bag"),
    ("001", "the game ends when a player plays their last tile with the bag empty",
     "test_classic.py::test_going_out_box_and_tournament_adjustments"),
    ("001", "two consecutive exchanges each end the game",
     "test_word_rules_text.py::test_001_two_consecutive_exchanges_each_end_the_game"),
    ("001", "FASTEN 26, FASTENED 42", "test_rules_examples.py::test_001_fasten_then_fastened"),
    ("001", "INFOLDS 108", "test_rules_examples.py::test_001_infolds_arithmetic"),
    ("001", "QUICKLY on two double words 100", "test_rules_examples.py::test_001_quickly_two_double_words_is_four_times"),
    ("001", "premiums only when first covered", "test_rules_examples.py::test_001_premiums_only_when_first_covered"),
    ("001", "a bingo earns 50", "test_rules_examples.py::test_004_bingo_bonus_is_added_after_the_word_multiplier"),
    ("001", "tiles left are subtracted; the player who went out adds them",
     "test_classic.py::test_going_out_box_and_tournament_adjustments"),
    ("001", "a tie goes to the higher score before the tiles left",
     "test_classic.py::test_tie_broken_by_score_before_adjustment"),
    ("001", "scoreless turns: a lost challenge is one", "test_word_rules_text.py::test_001_a_lost_challenge_is_a_scoreless_turn"),
    ("001", "scoreless turns: a phony taken back and a lost turn since",
     "test_word_rules_text.py::test_001_a_lost_turn_since_a_withdrawn_play_still_counts"),
    ("001", "an invalid word is removed and scores nothing", "test_classic.py::test_double_challenge_invalid_takes_tiles_back"),
    ("001", "point challenge rule: the player of a valid word gets extra points",
     "test_classic.py::test_penalty_challenge_pays_points_per_word"),
    ("001", "turn challenge rule: the challenger of a valid word loses their turn",
     "test_classic.py::test_double_challenge_valid_costs_challenger_next_turn"),
    ("004", "the first word: two or more tiles, on the star",
     "test_word_rules_text.py::test_004_the_first_word_uses_two_or_more_tiles_on_the_star"),
    ("004", "a turn: play, exchange or pass; exchanging and passing score nothing",
     "test_word_rules_text.py::test_004_exchanging_or_passing_earns_no_points"),
    ("004", "two passes in a row each end the game", "test_classic.py::test_scoreless_turns_end_the_game"),
    ("004", "points for every word made or modified", "test_rules_examples.py::test_004_s_on_triple_word_triples_both_words"),
    ("004", "a played tile is never moved or replaced",
     "test_word_rules_text.py::test_004_a_played_tile_cannot_be_moved_or_replaced"),
    ("004", "a challenge comes before the next turn", "test_classic.py::test_challenge_must_come_before_next_turn"),
    ("004", "the letter values", "test_word_rules_text.py::test_004_tile_values_and_counts_are_the_texts"),
    ("004", "a bingo only with seven tiles", "test_word_rules_text.py::test_004_no_bingo_for_fewer_than_seven_tiles"),
    ("004", "the 50 points are added after the word's multiplier",
     "test_rules_examples.py::test_004_bingo_bonus_is_added_after_the_word_multiplier"),
    ("004", "9 Tile Scrabble: a bingo with 7, 8 or 9 tiles", "test_classic.py::test_nine_tile_bingo_with_eight_tiles"),
    ("004", "Finish Line: the first to the target wins", "test_classic.py::test_finish_line_target_ends_at_once"),
    ("004", "Finish Line targets", "test_word_rules_text.py::test_004_finish_line_targets_are_the_texts_table"),
]


def test_every_rule_of_the_word_games_texts_has_a_test() -> None:
    """Each rule above names a test that exists (a renamed or deleted test breaks this)."""
    here = Path(__file__).parent
    missing = []
    for text, rule, where in RULES:
        file, name = where.split("::")
        if f"def {name}(" not in (here / file).read_text(encoding="utf-8"):
            missing.append(f"{text}: {rule} -> {where}")
    assert not missing, missing
    assert {text for text, _, _ in RULES} == {"000", "001", "004"}


# ---------------------------------------------------------------- refusals worded for the table


def test_ending_with_an_empty_bag_before_the_end_does_not_say_the_bag_is_not_empty() -> None:
    """The old refusal said "the bag is not empty" of an empty bag."""
    log = classic()
    log.push(Play(player="Ann", position="8G", word="CAT"))
    log.state.bag_count = 0
    with pytest.raises(IllegalAction, match="^the game is not over: nobody has gone out and the scoreless turns "
                                            "have not ended it; end it by agreement or play on$"):
        log.push(EndGame())


def test_a_step_refused_names_what_the_game_waits_for_in_words() -> None:
    """The old refusals named internal ids: "owes M200 to bank", "the debt", "None plays or passes",
    the bingo's cards as `light_blue`."""
    log = monopoly_game(small_track(), ["Car", "Dog"])
    state = log.state
    state.queue.append(Step("debt", "Car", 200, "bank", reason="a card"))
    state.owners["orange"] = "Car"
    with pytest.raises(IllegalAction, match=r"^first: Car owes M200 to the Bank \(a card\) and must sell Property "
                                            r"Cards$"):
        log.push(MPass(player="Car"))
    with pytest.raises(IllegalAction, match=r"^the game is not waiting for a jail fee now: Car owes M200 to the Bank"):
        log.push(JailFee(player="Car"))
    with pytest.raises(IllegalAction, match="^the sale to pay a debt is Car's, not Dog's$"):
        log.push(Sell(player="Dog", group="orange"))
    state.queue[0] = Step("bingo_choice", "Car", options=("light_blue", "dark_blue"))
    assert state.next_step() == "Car chooses a Property Card for the bingo: Light Blue, Dark Blue"
    state.queue.clear()
    state.ending = True
    with pytest.raises(IllegalAction, match="^the game is not waiting for a card now: the game is over"):
        log.push(Card(player="Car", effect="none"))
