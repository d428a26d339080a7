"""Monopoly Builder's one source of legality (`legal.legal_moves`) and the obligations it derives: the dead
end of issue #26 (a start-of-turn discard remembered after a trade changed it), the rent window until the
next player rolls, doubles without an `end_turn`, the Bank 4-for-1 in the Trade step, token corrections,
and the wording defects of the issue. Played as event logs on the default board profile."""

from __future__ import annotations

from typing import Any

import pytest

from companion.events import Event, GameLog
from companion.games.monopoly_builder.legal import legal_moves
from companion.games.monopoly_builder.rules import (
    Auction,
    AuctionEnd,
    BankTrade,
    Bid,
    BuilderState,
    Bundle,
    Buy,
    Discard,
    EndTurn,
    Mortgage,
    PlaceToken,
    Rent,
    ResourceRoll,
    Roll,
    Trade,
    new_game,
)
from companion.rules.errors import IllegalAction

SEATS = [("Ann", "red"), ("Bob", "purple"), ("Cy", "green"), ("Di", "yellow")]


def game(players: int = 2, **table: Any) -> GameLog[BuilderState]:
    return new_game(SEATS[:players], **table)


def push(log: GameLog[BuilderState], *events: Event) -> BuilderState:
    for e in events:
        log.push(e)
    return log.state


def ann_starts_a_turn_with_eight() -> GameLog[BuilderState]:
    """Ann ends a doubles turn holding 8 chips: her next turn starts with a discard of 2."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    assert log.state.hand("Ann") == 8 and log.state.phase == "discard"
    return log


def test_selling_chips_before_the_discard_leaves_the_roll_open() -> None:
    """The dead end of issue #26: Ann sells four chips to Bob first (trades are allowed at any time); the
    discard owed is derived again (none), so she rolls. The old engine refused the roll ("discard -1")."""
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 4}), get=Bundle(cash=40)))
    assert s.hand("Ann") == 4
    assert s.phase == "roll" and "discard" not in s.waiting_for(), s.waiting_for()
    with pytest.raises(IllegalAction):
        log.push(Discard(player="Ann", resources={}))
    s = push(log, Roll(player="Ann", dice=(1, 2)))
    assert s.positions["Ann"] == 9


def test_selling_down_to_exactly_six_asks_for_no_discard() -> None:
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 2}), get=Bundle(cash=20)))
    assert s.hand("Ann") == 6 and s.phase == "roll" and "discard 0" not in s.waiting_for()
    with pytest.raises(IllegalAction):
        log.push(Discard(player="Ann", resources={}))
    assert not any("discards  onto" in n for n in log.state.notes)
    push(log, Roll(player="Ann", dice=(1, 2)))


def test_buying_chips_before_the_roll_raises_the_discard_owed() -> None:
    log = ann_starts_a_turn_with_eight()
    s = push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=10), get=Bundle(resources={"purple": 1})))
    assert s.phase == "discard" and "discard 3" in s.waiting_for()
    with pytest.raises(IllegalAction, match="exactly 3"):
        log.push(Discard(player="Ann", resources={"red": 2}))
    push(log, Discard(player="Ann", resources={"red": 3}), Roll(player="Ann", dice=(1, 2)))


# ---------------------------------------------------------------- the table's own order


def _bob_lands_on_oriental_with_doubles(**table: Any) -> GameLog[BuilderState]:
    log = game(2, **table)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         PlaceToken(player="Bob", space=1), Roll(player="Bob", dice=(2, 2)))
    assert log.state.rent_due() is not None and log.state.positions["Bob"] == 5
    return log


def test_the_rent_window_stays_open_until_the_next_player_rolls() -> None:
    # "If the player doesn't ask you for rent before the next player rolls the dice, you no longer owe them"
    log = _bob_lands_on_oriental_with_doubles()
    s = push(log, Roll(player="Bob", dice=(1, 1)))  # Bob's doubles: his next turn, no end_turn recorded
    assert s.positions["Bob"] == 7 and s.rent_due() is not None
    s = push(log, Rent(player="Ann", deed="oriental_avenue", amount=50))
    assert s.cash["Bob"] == 850 and s.rent_due() is None
    assert s.notes[-1] == "Ann asks Bob for M50 rent on Oriental Avenue"


def test_the_stricter_rent_window_closes_at_any_roll_and_says_the_rent_is_lost() -> None:
    log = _bob_lands_on_oriental_with_doubles(rent_window="next_roll")
    s = push(log, Roll(player="Bob", dice=(1, 1)))
    assert s.rent_due() is None
    assert "Ann did not ask Bob for the M50 rent on Oriental Avenue: the rent is lost" in s.notes
    with pytest.raises(IllegalAction, match="no rent can be asked"):
        log.push(Rent(player="Ann"))


def test_the_rent_is_lost_said_when_the_next_player_rolls() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(1, 4)), EndTurn(player="Bob"))
    s = push(log, Roll(player="Ann", dice=(1, 2)))
    assert "Ann did not ask Bob for the M50 rent on Oriental Avenue: the rent is lost" in s.notes


def test_a_rent_request_names_the_deed_and_the_amount_and_a_wrong_one_is_refused() -> None:
    log = _bob_lands_on_oriental_with_doubles()
    offered = [m for m in legal_moves(log.state) if isinstance(m, Rent)]
    assert offered == [Rent(player="Ann", deed="oriental_avenue", amount=50)]
    with pytest.raises(IllegalAction, match="the rent on Oriental Avenue is M50 now, not M60"):
        log.push(Rent(player="Ann", deed="oriental_avenue", amount=60))
    with pytest.raises(IllegalAction, match="no rent can be asked on Vermont Avenue"):
        log.push(Rent(player="Ann", deed="vermont_avenue", amount=50))
    log.push(offered[0])
    assert log.events[-1].model_dump(exclude_none=True)["deed"] == "oriental_avenue"


def test_after_doubles_the_next_roll_needs_no_end_turn_and_end_turn_is_not_offered() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(1, 1)))  # Collect 2 Red, doubles
    moves = legal_moves(s)
    assert not any(isinstance(m, EndTurn) for m in moves) and Roll(player="Ann", dice=(1, 2)) in moves
    assert s.waiting_for() == "Ann trades and builds, then rolls again (doubles)"
    turn = s.turn
    s = push(log, Roll(player="Ann", dice=(1, 2)))
    assert s.turn == turn + 1 and s.positions["Ann"] == 5


def test_the_bank_four_for_one_waits_for_the_trade_step_even_during_the_discard() -> None:
    # The issue: 12 chips, "discard 6", a Bank trade was accepted, then "discard 3".
    log = ann_starts_a_turn_with_eight()
    assert not any(isinstance(m, BankTrade) for m in legal_moves(log.state))
    with pytest.raises(IllegalAction, match="Trade step"):
        log.push(BankTrade(player="Ann", give="red", take="green"))


def test_trades_and_mortgages_during_an_auction_as_the_text_allows_at_any_time() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(1, 2)), Auction(player="Bob"), Bid(player="Ann", amount=800))
    s = push(log, Mortgage(player="Ann", deed="oriental_avenue"),
             Trade(player="Ann", partner="Bob", give=Bundle(cash=500), get=Bundle(resources={"purple": 1})))
    assert s.phase == "auction" and s.cash["Ann"] == 400
    # Ann no longer has the M800 she bid: closing the auction makes it a debt she must raise, not a dead end.
    s = push(log, AuctionEnd())
    assert s.owners["baltic_avenue"] == "Ann" and s.debt is not None and s.debt.amount == 800
    assert legal_moves(s)


def test_a_token_correction_is_an_event_that_moves_only_the_token() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"))
    cash, chips = dict(s.cash), {p: dict(s.resources[p]) for p in s.players}
    s = push(log, PlaceToken(player="Bob", space=10))  # "Bob's token is really on Collect 2 Purple"
    assert s.positions["Bob"] == 10 and s.cash == cash and {p: dict(s.resources[p]) for p in s.players} == chips
    assert s.notes[-1].startswith("Bob's token is really on Collect 2 Purple")
    with pytest.raises(IllegalAction, match="already on"):
        log.push(PlaceToken(player="Bob", space=10))
    with pytest.raises(IllegalAction, match="no space 32"):
        log.push(PlaceToken(player="Bob", space=32))
    log.undo()
    assert log.state.positions["Bob"] == 0


def test_a_token_cannot_be_corrected_while_its_landing_is_played() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)))
    assert log.state.phase == "buy"
    assert not any(isinstance(m, PlaceToken) and m.player == "Ann" for m in legal_moves(log.state))
    with pytest.raises(IllegalAction, match="undo the roll"):
        log.push(PlaceToken(player="Ann", space=7))


# ---------------------------------------------------------------- wording (issue #26)


def _table(players: int = 3) -> Any:
    from companion.games.monopoly_builder.table import new_builder
    from companion.ui.table import PlayerInfo

    return new_builder([PlayerInfo(n, c) for n, c in [("Ann", "red"), ("Bob", "purple"), ("Cy", "green")][:players]])


def _ann_builds_two_floors(g: Any) -> None:
    g.roll(2, 4)  # a 6: everyone takes 2 of their colour; Ann on Roll for Resources
    g.resource_roll(1, 1)  # 2: red
    g.build("A1", {"red": 2})
    g.build("A1", {"red": 3})


def test_wording_one_building_is_not_one_buildings() -> None:
    g = _table()
    g.roll(2, 4)
    g.resource_roll(1, 1)
    g.build("A1", {"red": 2})
    lines = g.score_lines("Ann")
    assert "Community Builder: 1 building, the most: 5" in lines, lines
    assert not any("1 buildings" in line for line in lines)


def test_wording_billionaire_builder_says_who_does_not_have_it() -> None:
    g = _table()
    g.trade("Ann", "Bob", {"cash": 10}, {})
    bob, ann = g.score_lines("Bob"), g.score_lines("Ann")
    assert "Billionaire Builder: the most cash, M910: 3" in bob
    assert "Billionaire Builder: not Ann (M890; the most is M910): 0" in ann
    assert not any("(most cash, M890)" in line for line in ann)


def test_wording_a_tie_on_points_broken_by_money_is_said() -> None:
    g = _table()
    _ann_builds_two_floors(g)  # Ann: a 2-floor building, 3 points
    g.end_turn()
    g.roll(1, 2)  # Bob: Baltic Avenue, nobody buys it
    g.auction()
    g.close_auction()
    g.build("C3", {"purple": 2})
    g.build("C3", {"purple": 3})  # Bob: 3 points; one building each, apart: nobody takes Community Builder
    g.trade("Ann", "Cy", {"cash": 10}, {})  # Cy: the most cash, Billionaire Builder, 3 points
    g.end_game()
    assert g.winner() == ["Cy"]
    assert g.result_line() == ("Ann, Bob and Cy have 3 points each: Cy won with the most money "
                               "(M910; Ann M890, Bob M900).")
    assert "Cy won with the most money" in g.waiting_for()


def test_wording_in_jail_the_player_trades_but_does_not_build() -> None:
    log = game(2)
    push(log, PlaceToken(player="Ann", space=21), Roll(player="Ann", dice=(1, 2)))  # Go to Jail
    push(log, Roll(player="Bob", dice=(2, 6)), EndTurn(player="Bob"), Roll(player="Ann", dice=(1, 2)))
    s = log.state
    assert "Ann" in s.jail and s.phase == "act"
    assert s.waiting_for() == "Ann is in Jail: Ann may trade but not build, then ends the turn"
    assert "trades and builds" not in s.waiting_for()


def test_wording_a_purchase_is_said_once() -> None:
    g = _table(2)
    g.roll(2, 3)
    g.buy()
    assert g.turn_lines == ["Ann buys Oriental Avenue for M100."]


def test_a_rent_without_a_deed_from_an_old_log_asks_the_latest_landing() -> None:
    """Logs recorded before rent requests named their deed: the owner's latest open rent is the one asked
    (the only one the old engine kept), so a stored game replays to the same cash."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(1, 2)), Auction(player="Bob"), AuctionEnd(), EndTurn(player="Bob"),
         Roll(player="Ann", dice=(1, 1)), Buy(player="Ann"), Roll(player="Ann", dice=(1, 2)), EndTurn(player="Ann"))
    assert log.state.has_monopoly("Ann", "light_blue")
    s = push(log, PlaceToken(player="Bob", space=1), Roll(player="Bob", dice=(2, 2)), Roll(player="Bob", dice=(1, 1)))
    assert [r.deed for r, _ in s.rents_due()] == ["oriental_avenue", "vermont_avenue"]
    s = push(log, Rent(player="Ann"))
    assert s.notes[-1].endswith("rent on Vermont Avenue") and [r.deed for r, _ in s.rents_due()] == ["oriental_avenue"]


def _bob_lands_on_oriental() -> GameLog[BuilderState]:
    """Ann buys Oriental Avenue; Bob lands on it (no doubles): his turn may end, the rent window is open."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"), Roll(player="Bob", dice=(1, 4)))
    assert log.state.phase == "act" and log.state.rent_due() is not None
    return log


def test_the_next_players_roll_ends_the_turn_as_end_turn_would() -> None:
    """One tap, one event (issue #26): Ann's roll ends Bob's turn as `end_turn` then the roll would (the old
    two events still replay): the same state, the same notes, the rent Ann did not ask for lost the same way."""
    one, two = _bob_lands_on_oriental(), _bob_lands_on_oriental()
    assert Roll(player="Ann", dice=(1, 2)) in legal_moves(one.state) and EndTurn(player="Bob") in legal_moves(one.state)
    a = push(one, Roll(player="Ann", dice=(1, 2)))
    b = push(two, EndTurn(player="Bob"), Roll(player="Ann", dice=(1, 2)))
    assert a.summary() == b.summary() and a.notes == b.notes and a.turn == b.turn == 3
    assert a.notes[-4:] == ["Bob ends the turn", ("Ann did not ask Bob for the M50 rent on Oriental Avenue: the "
                                                  "rent is lost"), "Ann rolls 1+2 = 3", "Ann lands on Jail / Just Visiting"]
    assert a.current_player == "Ann" and a.positions["Ann"] == 8


def test_the_next_players_roll_is_refused_while_the_turn_may_not_end() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)))  # Oriental Avenue: Ann buys or auctions first
    assert not any(isinstance(m, Roll) for m in legal_moves(log.state))
    with pytest.raises(IllegalAction, match=r"^it is Ann's turn, not Bob's: Bob cannot roll now$"):
        log.push(Roll(player="Bob", dice=(1, 2)))
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)))  # doubles: Ann's next roll is her next turn, not Bob's
    assert {m.player for m in legal_moves(log.state) if isinstance(m, Roll)} == {"Ann"}
    with pytest.raises(IllegalAction, match="Bob cannot roll now"):
        log.push(Roll(player="Bob", dice=(1, 2)))
    # Bob gives Ann 4 chips during his turn: her turn would start with a discard, so her roll waits for it.
    log = _bob_lands_on_oriental()
    push(log, Trade(player="Bob", partner="Ann", give=Bundle(resources={"purple": 4})))
    assert log.state.hand("Ann") == 8 and not any(isinstance(m, Roll) for m in legal_moves(log.state))
    with pytest.raises(IllegalAction, match=r"^rolling is not possible now: Ann has 8 resources: discard 2"):
        log.push(Roll(player="Ann", dice=(1, 2)))
    assert log.state.current_player == "Bob" and log.state.phase == "act"  # refused: nothing changed
    push(log, EndTurn(player="Bob"))
    assert log.state.phase == "discard"
