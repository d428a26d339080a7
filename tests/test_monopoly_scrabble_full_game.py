"""The shipped complete game (`assets/examples/monopoly_full_game.json`) replayed through the rules and
checked against values worked out by hand from its events (the arithmetic is in the comments)."""

from __future__ import annotations

from typing import Any

from companion.events import GameLog, load_events
from companion.games.monopoly_scrabble.rules import BANK, EVENT_ADAPTER, POT, MonopolyScrabbleState, new_state
from companion.rules.board import ASSETS

EXAMPLE = ASSETS / "examples" / "monopoly_full_game.json"


def events() -> list[Any]:
    variant, evs = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, "monopoly")
    assert variant == "monopoly"
    return evs


def replay(n: int | None = None) -> MonopolyScrabbleState:
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    for e in events()[:n]:
        log.push(e)
    return log.state


def test_opening_bingo_on_the_star() -> None:
    s = replay(2)
    # Event 2: RATINES down from H3 covers the star H8 (double word): R1 + A1x2 (H4 double letter)
    # + T1 + I1 + N1 + E1 + S1 = 8, x2 = 16; all seven tiles: a bingo, no 50 points.
    assert s.turns[-1].score == 16 and [p.kind for p in s.pending] == ["bingo_choice", "move"]
    s = replay(3)
    assert s.owners["dark_blue"] == "Ann" and s.positions["Ann"] == 16


def test_bank_tiles_blanks_and_a_forced_sale() -> None:
    s = replay(10)
    # Event 6: Cat replaces the blank on I5 with the Bank's I (M100 + M500 to the pot); event 9: Ann
    # replaces the blank on I6 with her own S (M500); event 10: Ann buys V and A (M200) for VULGARISE.
    # Pot: 500 + 600 + 500 + 200 = 1800.
    assert s.cash[POT] == 1800
    # Ann moved 16 + 28 = 44 = 40 + 4: GO paid M2000, and space 4 (Chance). Her word took Red (E3)
    # and Yellow (K3). Cash: 1000 - 500 - 200 + 2000 = 2300.
    assert s.positions["Ann"] == 4 and s.cash["Ann"] == 2300
    assert s.owners["red"] == "Ann" and s.owners["yellow"] == "Ann"
    s = replay(13)
    # Event 11: "Pay M3,000": 2300 is short. Red sells for 1100 / 2 = 550 (2850, still short), Yellow
    # for 1200 / 2 = 600 (3450): the debt is paid, 450 left.
    assert s.cash["Ann"] == 450 and s.owners["red"] is None and s.owners["yellow"] is None
    assert s.pending == [] and s.current_player == "Ben"


def test_a_phony_withdrawn_and_a_valid_challenge() -> None:
    before = replay(14)
    phony = replay(15)
    # Event 15: Cat's ZRIOSO took Dark Blue from Ann (C11) and Utilities from Ben (E11) and passed GO.
    assert phony.owners["dark_blue"] == "Cat" and phony.cash["Cat"] == before.cash["Cat"] + 2000
    s = replay(16)
    # Event 16: Ann challenges, not a word: everything is withdrawn; Cat's turn is lost.
    assert s.owners == before.owners and s.cash == before.cash and s.positions == before.positions
    assert s.board == before.board and s.current_player == "Ann"
    s = replay(21)
    # Event 21: Ann challenges WAR, a word: Ann loses her next turn, which is the one starting now.
    assert s.current_player == "Ben" and s.turns[-1].kind == "lost turn" and s.turns[-1].player == "Ann"


def test_bankruptcy_and_first_tile_only() -> None:
    s = replay(25)
    # Event 25: Cat (M2600 cash, no Property Card) must pay M3000: pays M2600 and is eliminated.
    assert s.eliminated == ["Cat"] and s.cash["Cat"] == 0 and s.current_player == "Ann"
    before, after = replay(42), replay(43)
    # Event 43: DOZED runs through M11, a Green square covered by Ben in event 41: Green stays Ben's.
    assert before.owners["green"] == after.owners["green"] == "Ben"


def test_free_parking_pot() -> None:
    before, s = replay(39), replay(40)
    # Event 40: Ann moves 10 from Jail (10) to Free Parking (20) and takes the whole pot:
    # 500 seed + 100 + 500 (Cat's blank) + 500 (Ann's blank) + 200 (VA) + 150 (school fees)
    # + 200 (AN) + 100 (N) + 100 (Ben's jail fee) + 200 (BK) + 100 (Ann's jail fee) = 2650.
    assert before.cash[POT] == 2650
    assert s.cash["Ann"] == before.cash["Ann"] + 2650 and s.cash[POT] == 500


def test_the_final_state() -> None:
    s = replay()
    assert s.finished and s.end_reason == "played_out" and s.bag_count == 0
    # Ann: 1000 start - 500 blank - 200 tiles + 5 x 2000 GO (events 10, 26 twice, 33, 47) + 550 + 600
    #      sales - 3000 card - 150 school fees + 1000 rent (Ben on Dark Blue) - 50 chairman - 100 birthday
    #      - 100 jail + 2650 Free Parking + 200 bank error + 200 (Ben's 2 tiles left) = 12100
    assert s.cash["Ann"] == 1000 - 500 - 200 + 5 * 2000 + 550 + 600 - 3000 - 150 + 1000 - 50 - 100 - 100 \
        + 2650 + 200 + 200 == 12100
    # Ben: 1000 + 6 x 2000 GO (events 14 lands on GO, 22, 23 Advance to GO, 41, 45, 49) - 200 tiles AN
    #      - 1000 rent + 50 chairman + 100 birthday - 100 tile N - 100 jail - 200 tiles BK - 100 doctor
    #      - 150 school fees - 200 for 2 tiles left = 11100
    assert s.cash["Ben"] == 1000 + 6 * 2000 - 200 - 1000 + 50 + 100 - 100 - 100 - 200 - 100 - 150 - 200 == 11100
    assert s.cash["Cat"] == 0 and s.cash[POT] == 650
    # Cards: Ann light_blue 500 + orange 900 + dark_blue 1600 + railroads 1000 + utilities 1000 = 5000;
    # Ben red 1100 + green 1400 = 2500; brown, pink and yellow are back in the Bank.
    assert s.cards_of("Ann") == ["light_blue", "orange", "dark_blue", "railroads", "utilities"]
    assert s.cards_of("Ben") == ["red", "green"]
    assert s.wealth() == {"Ann": 12100 + 5000, "Ben": 11100 + 2500}
    assert s.winner() == ["Ann"]
    assert s.positions == {"Ann": 14, "Ben": 0, "Cat": 17}
    # Nothing created or lost: the Bank holds the rest of its M36,000.
    assert s.cash[BANK] == 36000 - 12100 - 11100 - 650 == 12150
