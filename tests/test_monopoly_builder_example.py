"""The shipped complete game (`assets/examples/monopoly_builder_game.json`) replayed through the rules and
`companion replay`, checked against values worked out by hand from its events (the arithmetic is in the
comments). Track of the shipped profile: see tests/test_monopoly_builder.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from companion.events import GameLog, load_events
from companion.games.monopoly_builder.rules import BANK, EVENT_ADAPTER, BuilderState, new_state
from companion.rules.board import ASSETS

EXAMPLE = ASSETS / "examples" / "monopoly_builder_game.json"
REPO = ASSETS.parent


def replay(n: int | None = None) -> BuilderState:
    variant, events = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, "monopoly_builder")
    assert variant == "monopoly_builder"
    log: GameLog[BuilderState] = GameLog(new_state)
    for e in events[:n]:
        log.push(e)
    return log.state


def test_opening_buy_and_first_floors() -> None:
    s = replay(5)
    # Event 1: Ann rolls 1+4 = 5: Oriental Avenue (a 5 is no deed's number yet), buys it for 100M, then
    # builds two first floors (2 red each) from her 4 starting red chips.
    assert s.cash["Ann"] == 800 and s.owners["oriental_avenue"] == "Ann"
    assert s.buildings["C2"].floors == 1 and s.buildings["A2"].floors == 1 and s.hand("Ann") == 0
    assert s.blocks["Ann"] == 10


def test_chance_moves_auction_and_rent() -> None:
    s = replay(15)
    # Bob: 4 = Chance, "Advance to Boardwalk" (31, no GO passed), buys it for 400M; then 4+1: 31 -> 36 = 4
    # passes GO (+200) onto Chance again, "Advance to GO" lands on it (+200): 900 - 400 + 400 = 900.
    assert s.cash["Bob"] == 900 and s.positions["Bob"] == 0 and s.owners["boardwalk"] == "Bob"
    s = replay(24)
    # Atlantic Avenue auction: Bob 10, Ann 25, Bob 35, Ann 55 (raises of at least 5): Ann pays 55.
    assert s.owners["atlantic_avenue"] == "Ann" and s.cash["Ann"] == 800 - 55
    s = replay(27)
    # Bob lands on Oriental Avenue; Ann asks before the next roll: 50M (no light-blue monopoly).
    assert s.cash["Ann"] == 795 and s.cash["Bob"] == 850


def test_doubles_roll_again_and_the_floor_costs() -> None:
    s = replay(37)
    # Event 35: Ann rolls 3+3 (Collect 2 Red, passing GO: +200) and builds floor 2 on C2 (3 chips).
    assert s.current_player == "Ann" and s.doubles == 1 and s.buildings["C2"].floors == 2
    s = replay(43)
    # Event 40: floor 3 costs red + green + 1 more (the reference card): red, green, yellow.
    assert s.buildings["C2"].floors == 3 and s.current_player == "Bob"


def test_discard_down_to_six_onto_the_current_space() -> None:
    before = replay(90)
    assert before.hand("Ann") == 11 and before.phase == "discard"
    s = replay(91)
    # Event 90: 11 chips: 5 go onto the Chance space (30) where Ann stands.
    assert s.hand("Ann") == 6 and s.space_resources[30] == {"green": 3, "purple": 1, "yellow": 1}


def test_the_final_score_worked_out_by_hand() -> None:
    s = replay()
    assert s.finished and s.end_reason == "penthouse" and s.penthouse_by == "Ann"
    # Cash. Ann: 900 - 100 (Oriental) + 50 (rent) - 55 (auction) - 180 (St. James) - 300 (Pacific)
    # + 50 (dividend) - 5 (trade) + 130 (rent on Atlantic) + 3 x 200 (GO passed at events 35, 71, 91) = 1090.
    # Bob: 900 - 400 (Boardwalk) + 200 (GO passed) + 200 (GO landed) - 50 (rent) - 140 (St. Charles)
    # + 200 (GO passed at event 67: 30 + 5 = 35 -> 3) + 5 (trade) - 130 (rent) + 200 (lands on GO, event 104) = 985.
    assert s.cash["Ann"] == 1090 and s.cash["Bob"] == 985
    assert s.cash[BANK] == 13900 - 1090 - 985
    sc = s.scores()
    # Ann's buildings: C2 4 floors + penthouse (16), A2 3 (6), A5 3 (6), A3 2 (3) = 31. Her deeds
    # (Oriental, St. James, Atlantic, Pacific, Boardwalk) make no colour pair: 0. Most cash: 3. Her largest
    # group is A2-A3 (2; A5 and C2 touch none of hers); Bob's A1, D6, F2 touch none of his (1): 5.
    assert sc["Ann"].buildings == (5, 3, 3, 2) and sc["Ann"].building_points == 31
    assert (sc["Ann"].monopoly_points, sc["Ann"].billionaire, sc["Ann"].community_size, sc["Ann"].community) == (0, 3, 2, 5)
    assert sc["Ann"].total == 39
    # Bob: three 2-floor buildings, 3 points each.
    assert sc["Bob"].buildings == (2, 2, 2) and sc["Bob"].total == 9 and sc["Bob"].community_size == 1
    assert s.winner() == ["Ann"]


def test_companion_replay_json_prints_the_score_breakdown() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLE), "--json"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, env={**os.environ}, check=False)
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    assert out["variant"] == "monopoly_builder" and out["winner"] == ["Ann"]
    ann = out["players"][0]
    assert ann["cash"] == 1090 and ann["score"]["total"] == 39 and len(ann["deeds"]) == 5
    assert out["buildings"]["C2"] == {"owner": "Ann", "floors": 4, "penthouse": True}
    text = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLE)], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False).stdout
    assert "Winner: Ann" in text and "C2 Ann 4+P" in text


def test_each_end_turn_and_the_next_roll_as_one_event_replays_to_the_same_game() -> None:
    """Issue #26: the next player's roll ends the turn by itself. The shipped log records `end_turn` then the
    roll (the old two taps); folding every such pair into the roll alone replays to the same game."""
    from companion.games.monopoly_builder.rules import EndTurn, Roll

    _, events = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, "monopoly_builder")
    folded = [e for i, e in enumerate(events) if not (
        isinstance(e, EndTurn) and i + 1 < len(events) and isinstance(events[i + 1], Roll)
        and events[i + 1].player != e.player)]
    assert len(events) - len(folded) >= 20  # most turns of the game end this way
    log: GameLog[BuilderState] = GameLog(new_state)
    for e in folded:
        log.push(e)
    s, old = log.state, replay()
    assert s.summary() == old.summary() and s.notes == old.notes and s.scores() == old.scores()
    assert s.winner() == ["Ann"] and s.cash["Ann"] == 1090
