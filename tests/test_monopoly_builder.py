"""Monopoly Builder rules, one test per rule of the rules text (`rules-text/002_d7cd30fbe0693f21.txt`) and
its worked examples, played as event logs on the default board profile (`assets/profiles/monopoly_builder.json`).

Track of the default profile (placeholders except Oriental Avenue): 0 GO, 1 Mediterranean (2, red),
2 Collect Red, 3 Baltic, 4 Chance, 5 Oriental Avenue (11, green, 100M, rent 50/100), 6 Roll for Resources,
7 Vermont (light blue), 8 Jail, 9 St. Charles, 10 Collect Purple, 11 Virginia, 12 Steal, ..., 16 Free Parking,
..., 24 Go to Jail, ... 31 Boardwalk.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.events import Event, GameLog, dump_events, load_events
from companion.games import GAMES
from companion.games.monopoly_builder.legal import legal_moves
from companion.games.monopoly_builder.profile import load_profile, set_value
from companion.games.monopoly_builder.rules import (
    BANK,
    EVENT_ADAPTER,
    Auction,
    AuctionEnd,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    BuilderState,
    Building,
    Bundle,
    Buy,
    ChanceDraw,
    Discard,
    EndGame,
    EndTurn,
    ForcedTrade,
    FreeParking,
    JailCard,
    JailPay,
    Mortgage,
    Rent,
    ResourceRoll,
    Roll,
    Steal,
    Trade,
    Unmortgage,
    format_summary,
    new_game,
)
from companion.rules.errors import IllegalAction

SEATS = [("Ann", "red"), ("Bob", "purple"), ("Cy", "green"), ("Di", "yellow")]
ORIENTAL, VERMONT = "oriental_avenue", "vermont_avenue"


def game(players: int = 2, **table: Any) -> GameLog[BuilderState]:
    return new_game(SEATS[:players], **table)


def push(log: GameLog[BuilderState], *events: Event) -> BuilderState:
    for e in events:
        log.push(e)
    return log.state


def refused(log: GameLog[BuilderState], event: Event, words: str) -> None:
    """The event is refused with a sentence containing `words`, and nothing changes."""
    before, count = json.dumps(log.state.summary(), sort_keys=True), len(log.events)
    with pytest.raises(IllegalAction) as err:
        log.push(event)
    assert words in str(err.value), str(err.value)
    assert json.dumps(log.state.summary(), sort_keys=True) == before
    assert len(log.events) == count


def finish_turn(log: GameLog[BuilderState]) -> None:
    """Resolve what the landing space asks in the most neutral way, then end the turn."""
    s = log.state
    p = s.players[s.to_move]
    if s.phase == "buy":
        push(log, Auction(player=p), AuctionEnd())
    elif s.phase == "chance":
        push(log, ChanceDraw(player=p, card="get_out_of_jail"))
    elif s.phase == "resource_roll":
        push(log, ResourceRoll(player=p, dice=(1, 2)))
    elif s.phase == "steal":
        push(log, Steal(player=p))
    push(log, EndTurn(player=p))


def chips(s: BuilderState, p: str) -> dict[str, int]:
    return {c: n for c, n in s.resources[p].items() if n}


# ---------------------------------------------------------------- setup and turn order


def test_setup_money_900_and_four_resources_of_the_players_colour() -> None:
    s = game(4).state
    profile = load_profile()
    bills = profile.amounts.starting_bills.value
    assert bills == {"5": 2, "10": 2, "20": 1, "50": 1, "100": 3, "500": 1}
    assert sum(int(d) * n for d, n in bills.items()) == 900
    assert all(s.cash[p] == 900 for p in s.players)
    assert s.cash[BANK] == profile.amounts.bank_float.value - 4 * 900
    assert chips(s, "Ann") == {"red": 4} and chips(s, "Bob") == {"purple": 4}
    assert chips(s, "Cy") == {"green": 4} and chips(s, "Di") == {"yellow": 4}
    assert s.resources[BANK] == {"red": 16, "purple": 16, "green": 16, "yellow": 16}
    assert all(s.blocks[p] == 12 for p in s.players)
    assert all(s.positions[p] == 0 for p in s.players)
    assert s.current_player == "Ann" and s.phase == "roll"


def test_turn_order_discard_roll_gather_move_trade_build_end() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(1, 1)))          # Collect Red: 6 chips, doubles
    assert s.positions["Ann"] == 2 and chips(s, "Ann") == {"red": 6} and s.phase == "act"
    # doubles: trade and build, then the next roll is Ann's next turn (an end_turn, as old logs have, is accepted)
    assert "roll" in s.allowed_events() and "end_turn" not in s.allowed_events()
    s = push(log, EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)))  # doubles: Ann again; Roll for Resources
    assert s.phase == "resource_roll"
    refused(log, EndTurn(player="Ann"), "not possible now")
    s = push(log, ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))  # 2 -> red: 8 chips
    assert s.current_player == "Ann" and s.phase == "discard"  # start of the next turn: discard first
    refused(log, Roll(player="Ann", dice=(1, 2)), "discard 2")
    s = push(log, Discard(player="Ann", resources={"red": 2}))
    assert s.phase == "roll"
    s = push(log, Roll(player="Ann", dice=(1, 2)))
    assert s.positions["Ann"] == 9 and s.phase == "buy"
    s = push(log, Buy(player="Ann"))
    assert s.phase == "act" and "build" in s.allowed_events() and "trade" in s.allowed_events()
    s = push(log, Build(player="Ann", cell="A1", paid={"red": 2}), EndTurn(player="Ann"))
    assert s.current_player == "Bob" and s.phase == "roll"


def test_more_than_six_resources_discard_down_to_six_onto_the_current_space() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    s = log.state
    assert s.hand("Ann") == 8 and s.phase == "discard"
    refused(log, Discard(player="Ann", resources={"red": 1}), "exactly 2")
    refused(log, Discard(player="Ann", resources={"purple": 2}), "0 purple")
    refused(log, Discard(player="Bob", resources={"purple": 2}), "Ann's turn")
    s = push(log, Discard(player="Ann", resources={"red": 2}))
    assert s.hand("Ann") == 6 and s.space_resources == {6: {"red": 2}}


def test_exactly_six_resources_need_no_discard() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    assert s.hand("Ann") == 6 and s.phase == "roll"


def _two_red_left_on_space_6() -> GameLog[BuilderState]:
    """Ann discards two red chips on Roll for Resources (6), moves on and ends her turn: Bob to play."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Discard(player="Ann", resources={"red": 2}),
         Roll(player="Ann", dice=(1, 2)))
    finish_turn(log)
    assert log.state.space_resources == {6: {"red": 2}} and log.state.current_player == "Bob"
    return log


def test_resources_on_a_space_are_picked_up_when_landing_on_it() -> None:
    log = _two_red_left_on_space_6()
    s = push(log, Roll(player="Bob", dice=(2, 4)))  # Bob lands on 6, where Ann's two red chips lie
    assert s.space_resources == {} and chips(s, "Bob")["red"] == 2


def test_resources_on_a_space_are_picked_up_when_passing_it() -> None:
    log = _two_red_left_on_space_6()
    s = push(log, Roll(player="Bob", dice=(3, 4)))  # Bob passes 6 on the way to 7
    assert s.positions["Bob"] == 7 and chips(s, "Bob")["red"] == 2 and s.space_resources == {}
    assert any(h.reason.startswith("picked up") for h in s.last_handout)


def test_a_roll_gives_two_of_its_resource_to_every_owner_of_a_deed_with_that_number() -> None:
    # The rules text: "The current player rolled an eleven. One of the players owns Oriental Avenue.
    # Since an eleven was rolled, its owner receives two green resources."
    log = game(3)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"))
    assert log.state.owners[ORIENTAL] == "Ann"
    s = push(log, Roll(player="Bob", dice=(5, 6)))
    assert chips(s, "Ann") == {"red": 4, "green": 2}
    assert [(h.player, h.colour, h.count) for h in s.last_handout if "Oriental" in h.reason] == [("Ann", "green", 2)]
    assert chips(s, "Bob").get("green", 0) == 0 and chips(s, "Cy") == {"green": 4}


def test_a_roll_of_six_gives_every_player_two_of_their_own_colour() -> None:
    s = push(game(4), Roll(player="Ann", dice=(2, 4)))
    assert chips(s, "Ann") == {"red": 6} and chips(s, "Bob") == {"purple": 6}
    assert chips(s, "Cy") == {"green": 6} and chips(s, "Di") == {"yellow": 6}


def test_a_mortgaged_deed_gives_no_resources() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), Mortgage(player="Ann", deed=ORIENTAL),
         EndTurn(player="Ann"))
    s = push(log, Roll(player="Bob", dice=(5, 6)))
    assert chips(s, "Ann") == {"red": 4}


def test_the_bank_gives_only_the_resources_it_has() -> None:
    log = game(2)
    s = log.state
    s.resources[BANK]["red"], s.resources["Bob"]["red"] = 1, 15  # conserved: Bob holds the other reds
    s = push(log, Roll(player="Ann", dice=(1, 1)))  # Collect Red: 2 asked, 1 left in the Bank
    assert chips(s, "Ann")["red"] == 5 and s.resources[BANK]["red"] == 0
    assert "run out of red" in s.notes[-1]


def test_doubles_roll_again() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    assert s.current_player == "Ann" and s.phase == "roll"
    push(log, Roll(player="Ann", dice=(1, 2)))
    finish_turn(log)
    assert log.state.current_player == "Bob"


def test_three_doubles_in_a_row_go_to_jail() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 2)), EndTurn(player="Ann"), Discard(player="Ann", resources={"red": 2}))
    cash = log.state.cash["Ann"]
    s = push(log, Roll(player="Ann", dice=(3, 3)))
    jail = load_profile().space_index("jail")
    assert s.positions["Ann"] == jail and "Ann" in s.jail
    assert s.current_player == "Bob" and s.cash["Ann"] == cash
    assert chips(s, "Bob") == {"purple": 4}  # the third double is not played: nobody gathers for it


# ---------------------------------------------------------------- deeds: buy, auction, rent, mortgage


def test_buy_an_unowned_deed_at_its_printed_price() -> None:
    # "They will pay 100M to the bank and take the corresponding Title Deed."
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 3)))
    assert s.phase == "buy" and "buy" in s.allowed_events()
    s = push(log, Buy(player="Ann"))
    assert s.owners[ORIENTAL] == "Ann" and s.cash["Ann"] == 800
    assert s.ledger[-1].payer == "Ann" and s.ledger[-1].payee == BANK and s.ledger[-1].amount == 100


def test_buying_needs_the_price_in_cash() -> None:
    log = game(2)
    push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=850)), Roll(player="Ann", dice=(2, 3)))
    refused(log, Buy(player="Ann"), "not the M100")
    push(log, Auction(player="Ann"))


def test_auction_starts_at_10_with_raises_of_at_least_5() -> None:
    log = game(3)
    s = push(log, Roll(player="Ann", dice=(2, 3)), Auction(player="Ann"))
    assert s.phase == "auction" and s.auction is not None and s.auction.deed == ORIENTAL
    refused(log, Bid(player="Bob", amount=5), "at least M10")
    push(log, Bid(player="Bob", amount=10))
    refused(log, Bid(player="Cy", amount=14), "at least M15")
    refused(log, EndTurn(player="Ann"), "not possible now")
    push(log, Bid(player="Cy", amount=15), Bid(player="Ann", amount=40))
    refused(log, Bid(player="Bob", amount=1000), "cannot bid")
    s = push(log, AuctionEnd())
    assert s.owners[ORIENTAL] == "Ann" and s.cash["Ann"] == 860 and s.cash["Bob"] == 900 and s.phase == "act"


def test_an_unsold_deed_stays_with_the_bank() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 3)), Auction(player="Ann"), AuctionEnd())
    assert s.owners[ORIENTAL] is None and s.cash["Ann"] == 900 and s.phase == "act"
    finish_turn(log)
    s = push(log, Roll(player="Bob", dice=(2, 3)))
    assert s.phase == "buy"  # for sale again


def _owner_and_visitor(monopoly: bool) -> GameLog[BuilderState]:
    """Ann owns Oriental Avenue (and Vermont Avenue when `monopoly`); Cy then lands on Oriental Avenue."""
    log = game(3)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(3, 4)), Buy(player="Bob"), EndTurn(player="Bob"))
    if monopoly:
        push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=120), get=Bundle(deeds=[VERMONT])))
    push(log, Roll(player="Cy", dice=(2, 3)))
    return log


def test_rent_50_on_oriental_avenue() -> None:
    # "The dinosaur player landed on Oriental Avenue. The owner charges them 50M in rent."
    log = _owner_and_visitor(monopoly=False)
    due = log.state.rent_due()
    assert due is not None and due[0].owner == "Ann" and due[0].payer == "Cy" and due[1] == 50
    s = push(log, Rent(player="Ann"))
    assert s.cash["Cy"] == 850 and s.cash["Ann"] == 850 and s.rent is None


def test_rent_doubles_to_100_with_the_light_blue_monopoly() -> None:
    # "As owner owned both light blue properties, they will have to pay 100M in rent."
    log = _owner_and_visitor(monopoly=True)
    assert log.state.has_monopoly("Ann", "light_blue")
    assert log.state.rent_for(ORIENTAL) == 100
    cash = log.state.cash["Ann"]
    s = push(log, Rent(player="Ann"))
    assert s.cash["Cy"] == 800 and s.cash["Ann"] == cash + 100


def test_rent_only_if_the_owner_asks_before_the_next_roll() -> None:
    log = _owner_and_visitor(monopoly=False)
    refused(log, Rent(player="Bob"), "only its owner")
    push(log, EndTurn(player="Cy"))
    assert log.state.rent_due() is not None  # still askable during Ann's turn, before her roll
    push(log, Roll(player="Ann", dice=(1, 2)))
    refused(log, Rent(player="Ann"), "no rent can be asked")
    assert log.state.cash["Cy"] == 900


def test_no_rent_on_a_mortgaged_deed() -> None:
    log = game(3)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), Mortgage(player="Ann", deed=ORIENTAL),
         EndTurn(player="Ann"), Roll(player="Bob", dice=(2, 3)))
    assert log.state.rent is None and log.state.rent_for(ORIENTAL) == 0


def test_mortgage_and_unmortgage_at_the_mortgage_value() -> None:
    # "They will receive 100M for mortgaging it. They will have to pay 100M to unmortgage it."
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), Mortgage(player="Ann", deed=ORIENTAL))
    assert s.cash["Ann"] == 900 and ORIENTAL in s.mortgaged
    refused(log, Mortgage(player="Ann", deed=ORIENTAL), "already mortgaged")
    refused(log, Mortgage(player="Bob", deed=ORIENTAL), "does not own")
    s = push(log, Unmortgage(player="Ann", deed=ORIENTAL))
    assert s.cash["Ann"] == 800 and ORIENTAL not in s.mortgaged
    refused(log, Unmortgage(player="Ann", deed=ORIENTAL), "is not mortgaged")


def test_a_traded_mortgaged_deed_stays_mortgaged() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), Mortgage(player="Ann", deed=ORIENTAL),
             Trade(player="Ann", partner="Bob", give=Bundle(deeds=[ORIENTAL]), get=Bundle(cash=10)))
    assert s.owners[ORIENTAL] == "Bob" and ORIENTAL in s.mortgaged
    s = push(log, Unmortgage(player="Bob", deed=ORIENTAL))
    assert s.cash["Bob"] == 790


# ---------------------------------------------------------------- spaces


def test_collect_two_resources_space() -> None:
    s = push(game(2), Roll(player="Ann", dice=(1, 1)))
    assert chips(s, "Ann") == {"red": 6}
    assert [(h.colour, h.count) for h in s.last_handout] == [("red", 2)]


def test_roll_for_resources_uses_the_chart_on_the_space() -> None:
    # "They rolled a nine so they will take two yellow resources."
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(2, 4)))
    assert s.phase == "resource_roll"
    chart = load_profile().track.spaces[6].chart
    assert chart is not None and chart["9"] == "yellow"
    s = push(log, ResourceRoll(player="Ann", dice=(4, 5)))
    assert chips(s, "Ann")["yellow"] == 2 and s.phase == "act"


def test_steal_one_resource_from_another_player() -> None:
    # "The player that landed on the Steal 1 Resource space has decided to steal one purple resource."
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(6, 6)))
    assert s.positions["Ann"] == 12 and s.phase == "steal"
    refused(log, Steal(player="Ann", target="Ann", resource="red"), "another player")
    refused(log, Steal(player="Ann", target="Bob", resource="green"), "no green")
    s = push(log, Steal(player="Ann", target="Bob", resource="purple"))
    assert chips(s, "Ann") == {"red": 4, "purple": 1} and chips(s, "Bob") == {"purple": 3} and s.phase == "act"


def test_free_parking_trades_two_for_one_with_the_bank() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(6, 5)))
    finish_turn(log)
    push(log, Roll(player="Bob", dice=(1, 2)))
    finish_turn(log)
    s = push(log, Roll(player="Ann", dice=(1, 4)))  # 11 + 5 = 16 Free Parking
    assert s.positions["Ann"] == 16 and s.free_parking_open and "free_parking" in s.allowed_events()
    refused(log, FreeParking(player="Ann", give={"red": 2}, take="red"), "different type")
    refused(log, FreeParking(player="Ann", give={"red": 3}, take="green"), "exactly 2")
    s = push(log, FreeParking(player="Ann", give={"red": 2}, take="green"))
    assert chips(s, "Ann") == {"red": 2, "green": 1} and not s.free_parking_open
    refused(log, FreeParking(player="Ann", give={"red": 2}, take="green"), "only once")


def test_four_for_one_with_the_bank_in_the_trade_step() -> None:
    # The turn order: "Roll the Dice, Gather Resources, Move Your Token, Trade Resources": the Bank's 4-for-1
    # comes after the move (the default), not during the start-of-turn discard or before the roll.
    log = game(2)
    refused(log, BankTrade(player="Ann", give="red", take="purple"), "Trade step")
    s = push(log, Roll(player="Ann", dice=(1, 2)), Buy(player="Ann"), BankTrade(player="Ann", give="red", take="purple"))
    assert chips(s, "Ann") == {"purple": 1} and s.resources[BANK]["red"] == 20
    refused(log, BankTrade(player="Bob", give="purple", take="red"), "Ann's turn")


def test_four_for_one_with_the_bank_any_time_on_your_turn_as_a_setting() -> None:
    log = game(2, bank_trade="your_turn")
    s = push(log, BankTrade(player="Ann", give="red", take="purple"))  # before rolling: still her turn
    assert chips(s, "Ann") == {"purple": 1} and s.resources[BANK]["red"] == 20
    refused(log, BankTrade(player="Bob", give="purple", take="red"), "Ann's turn")
    refused(log, BankTrade(player="Ann", give="purple", take="red"), "not 4")


def test_trades_between_players_any_deal_both_agree() -> None:
    log = game(2)
    s = push(log, Trade(player="Bob", partner="Ann", give=Bundle(cash=30, resources={"purple": 2}),
                        get=Bundle(resources={"red": 1})))
    assert chips(s, "Ann") == {"red": 3, "purple": 2} and chips(s, "Bob") == {"purple": 2, "red": 1}
    assert s.cash["Ann"] == 930 and s.cash["Bob"] == 870
    refused(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"green": 1})), "0 green")
    refused(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=5000)), "not the M5,000")
    refused(log, Trade(player="Ann", partner="Ann", give=Bundle(cash=5)), "another player")
    refused(log, Trade(player="Ann", partner="Bob"), "nothing either way")


def test_go_pays_200_when_landing_on_it() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 3)))
    s = push(log, ChanceDraw(player="Ann", card="advance_to_go"))
    assert s.positions["Ann"] == 0 and s.cash["Ann"] == 1100


def test_go_pays_200_when_passing_it() -> None:
    log = game(2)
    for _ in range(2):
        push(log, Roll(player="Ann", dice=(5, 6)))
        finish_turn(log)
        push(log, Roll(player="Bob", dice=(1, 2)))
        finish_turn(log)
    s = push(log, Roll(player="Ann", dice=(5, 6)))  # 22 + 11 = 33: past GO to 1
    assert s.positions["Ann"] == 1
    assert [t.amount for t in s.ledger if t.payee == "Ann" and t.reason == "passes GO"] == [200]


def test_go_to_jail_no_go_money_and_the_turn_ends() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(6, 6)), Steal(player="Ann"), EndTurn(player="Ann"))
    s = push(log, Roll(player="Ann", dice=(6, 6)))  # 24: Go to Jail, even after doubles
    assert s.positions["Ann"] == 8 and "Ann" in s.jail and s.cash["Ann"] == 900
    assert s.current_player == "Bob" and s.phase == "roll"


def _jailed() -> GameLog[BuilderState]:
    log = game(2)
    push(log, Roll(player="Ann", dice=(6, 6)), Steal(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Ann", dice=(6, 6)), Roll(player="Bob", dice=(1, 2)))
    finish_turn(log)
    return log


def test_jail_pay_50_then_roll_and_move() -> None:
    log = _jailed()
    assert "jail_pay" in log.state.allowed_events()
    s = push(log, JailPay(player="Ann"))
    assert "Ann" not in s.jail and s.cash["Ann"] == 850
    s = push(log, Roll(player="Ann", dice=(1, 3)))
    assert s.positions["Ann"] == 12


def test_jail_get_out_of_jail_free_card() -> None:
    log = _jailed()
    refused(log, JailCard(player="Ann"), "no Get Out of Jail Free card")
    deck = log.state.deck["get_out_of_jail"]
    log.state.kept_cards["Ann"].append("get_out_of_jail")  # as if drawn earlier
    log.state.deck["get_out_of_jail"] -= 1
    s = push(log, JailCard(player="Ann"))
    assert "Ann" not in s.jail and s.kept_cards["Ann"] == [] and s.deck["get_out_of_jail"] == deck
    assert s.cash["Ann"] == 900


def test_jail_doubles_get_out_and_move() -> None:
    log = _jailed()
    s = push(log, Roll(player="Ann", dice=(2, 2)))
    assert "Ann" not in s.jail and s.positions["Ann"] == 12 and s.cash["Ann"] == 900
    push(log, Steal(player="Ann"), EndTurn(player="Ann"))
    assert log.state.current_player == "Bob"  # leaving Jail on doubles gives no extra roll (table setting)


def test_jail_third_failed_roll_pays_50_and_moves() -> None:
    log = _jailed()
    for attempt in (1, 2):
        s = push(log, Roll(player="Ann", dice=(1, 2)))
        assert s.jail["Ann"] == attempt and s.positions["Ann"] == 8
        push(log, EndTurn(player="Ann"), Roll(player="Bob", dice=(2, 1)))
        finish_turn(log)
    s = push(log, Roll(player="Ann", dice=(1, 3)))
    assert "Ann" not in s.jail and s.positions["Ann"] == 12 and s.cash["Ann"] == 850


def test_no_building_while_in_jail() -> None:
    log = _jailed()
    push(log, Roll(player="Ann", dice=(1, 2)))
    assert "build" not in log.state.allowed_events()
    refused(log, Build(player="Ann", cell="A1", paid={"red": 2}), "in Jail")
    push(log, BankTrade(player="Ann", give="red", take="green"))  # trading is allowed


# ---------------------------------------------------------------- building


def _ready_to_build(hand: dict[str, int]) -> GameLog[BuilderState]:
    """Ann in the build step with exactly `hand` (the other chips moved to the Bank: conserved)."""
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"))
    s = log.state
    for c in s.colours:
        s.resources[BANK][c] += s.resources["Ann"][c] - hand.get(c, 0)
        s.resources["Ann"][c] = hand.get(c, 0)
    return log


def test_floor_costs_come_from_the_players_reference_card() -> None:
    # "The first floor requires two resources of any type and the second floor requires three ... A red,
    # green, and one other resource are required for the third floor. The fourth floor requires one purple
    # and two yellow resources. Finally the penthouse requires one resource of each color as well as one
    # additional resource of any type."
    s = game(2).state
    costs = [s.floor_cost("Ann", f) for f in range(1, 6)]
    assert [(c.colours, c.any) for c in costs] == [
        ({}, 2), ({}, 3), ({"red": 1, "green": 1}, 1), ({"purple": 1, "yellow": 2}, 0),
        ({"red": 1, "purple": 1, "green": 1, "yellow": 1}, 1)]
    log = _ready_to_build({"red": 4, "green": 3, "purple": 2, "yellow": 3})
    refused(log, Build(player="Ann", cell="A1", paid={"red": 3}), "costs Ann 2 of any colour")
    push(log, Build(player="Ann", cell="A1", paid={"red": 1, "green": 1}),
         Build(player="Ann", cell="A1", paid={"red": 2, "purple": 1}))
    refused(log, Build(player="Ann", cell="A1", paid={"red": 1, "yellow": 2}), "red + 1 green + 1 of any colour")
    s = push(log, Build(player="Ann", cell="A1", paid={"red": 1, "green": 1, "yellow": 1}))
    assert s.buildings["A1"] == Building("Ann", 3)
    assert chips(s, "Ann") == {"green": 1, "purple": 1, "yellow": 2}


def test_first_floors_only_on_empty_foundations() -> None:
    log = _ready_to_build({"red": 6})
    refused(log, Build(player="Ann", cell="Z9", paid={"red": 2}), "not a building foundation")
    refused(log, Build(player="Ann", cell="hello", paid={"red": 2}), "not a foundation name")
    s = push(log, Build(player="Ann", cell="b2", paid={"red": 2}))
    assert s.buildings == {"B2": Building("Ann", 1)} and s.blocks["Ann"] == 11


def test_no_building_on_another_players_blocks() -> None:
    log = _ready_to_build({"red": 6})
    log.state.buildings["C3"] = Building("Bob", 1)
    log.state.blocks["Bob"] -= 1
    refused(log, Build(player="Ann", cell="C3", paid={"red": 2}), "is Bob's")


def test_four_of_your_blocks_then_the_penthouse_which_ends_the_game() -> None:
    log = _ready_to_build({"red": 5, "green": 3, "purple": 3, "yellow": 5})
    push(log, Build(player="Ann", cell="A1", paid={"red": 2}),
         Build(player="Ann", cell="A1", paid={"red": 1, "green": 1, "purple": 1}),
         Build(player="Ann", cell="A1", paid={"red": 1, "green": 1, "yellow": 1}),
         Build(player="Ann", cell="A1", paid={"purple": 1, "yellow": 2}))
    s = log.state
    assert s.buildings["A1"] == Building("Ann", 4) and s.blocks["Ann"] == 8 and s.next_floor("A1", "Ann") == 5
    s = push(log, Build(player="Ann", cell="A1", paid={"red": 1, "purple": 1, "green": 1, "yellow": 2}))
    assert s.buildings["A1"] == Building("Ann", 4, True) and s.blocks["Ann"] == 8
    assert s.finished and s.end_reason == "penthouse" and s.penthouse_by == "Ann"
    assert s.scores()["Ann"].building_points == 16
    refused(log, EndTurn(player="Ann"), "the game is over")


def test_a_player_builds_with_at_most_their_twelve_blocks() -> None:
    log = _ready_to_build({"red": 6})
    log.state.blocks["Ann"] = 0
    refused(log, Build(player="Ann", cell="A1", paid={"red": 2}), "no builder's blocks left")


def test_blocks_never_move_once_built() -> None:
    log = _ready_to_build({"red": 6})
    push(log, Build(player="Ann", cell="A1", paid={"red": 2}), EndTurn(player="Ann"), Roll(player="Bob", dice=(1, 2)),
         Auction(player="Bob"), AuctionEnd(), Trade(player="Bob", partner="Ann", give=Bundle(resources={"purple": 2})))
    refused(log, Build(player="Bob", cell="A1", paid={"purple": 2}), "is Ann's")
    assert log.state.buildings == {"A1": Building("Ann", 1)} and log.state.blocks["Ann"] == 11


# ---------------------------------------------------------------- bankruptcy


def _debt_to_ann() -> GameLog[BuilderState]:
    """Cy (with 20M left and Baltic Avenue) lands on Ann's Oriental Avenue and is asked for 50M."""
    log = game(3)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(1, 2)), Auction(player="Bob"), Bid(player="Cy", amount=10), AuctionEnd(),
         EndTurn(player="Bob"), Trade(player="Cy", partner="Bob", give=Bundle(cash=870)),
         Roll(player="Cy", dice=(2, 3)), Rent(player="Ann"))
    return log


def test_a_player_short_of_cash_owes_a_debt_and_mortgages_to_pay_it() -> None:
    log = _debt_to_ann()
    s = log.state
    assert s.debt is not None and s.debt.amount == 50 and s.current_player == "Cy"
    refused(log, EndTurn(player="Cy"), "must first pay")
    refused(log, Roll(player="Ann", dice=(1, 2)), "must first pay")  # the next roll cannot end Cy's turn either
    assert not any(isinstance(m, Roll) for m in legal_moves(log.state))
    refused(log, Bankrupt(player="Cy"), "can still mortgage Baltic Avenue")
    s = push(log, Mortgage(player="Cy", deed="baltic_avenue"))  # 20 + 60 = 80: the 50 is paid at once
    assert s.debt is None and s.cash["Cy"] == 30 and s.cash["Ann"] == 850


def test_bankruptcy_to_the_bank_returns_deeds_with_their_mortgages_cancelled() -> None:
    log = game(3)
    push(log, Roll(player="Ann", dice=(1, 2)), Auction(player="Ann"), Bid(player="Bob", amount=10), AuctionEnd(),
         EndTurn(player="Ann"), Mortgage(player="Bob", deed="baltic_avenue"),
         Trade(player="Bob", partner="Cy", give=Bundle(cash=940)), Roll(player="Bob", dice=(1, 3)),
         ChanceDraw(player="Bob", card="repairs"))
    s = log.state
    assert s.debt is not None and s.debt.creditor == BANK and s.debt.amount == 50
    bank_purple = s.resources[BANK]["purple"]
    s = push(log, Bankrupt(player="Bob"))
    assert "Bob" in s.bankrupt and s.cash["Bob"] == 0 and chips(s, "Bob") == {}
    assert s.owners["baltic_avenue"] is None and "baltic_avenue" not in s.mortgaged  # for sale again
    assert s.resources[BANK]["purple"] == bank_purple + 4
    assert s.debt is None and s.current_player == "Cy"
    assert "Bob" in s.scores()  # still scored at the end
    refused(log, Roll(player="Bob", dice=(1, 2)), "bankrupt")


def test_bankruptcy_to_a_player_passes_mortgaged_deeds_chips_cards_and_cash() -> None:
    # "they will take all of your mortgaged properties, resources and any Chance cards"
    log = game(3)
    push(log, Roll(player="Ann", dice=(1, 2)), Auction(player="Ann"), Bid(player="Cy", amount=10), AuctionEnd(),
         EndTurn(player="Ann"), Roll(player="Bob", dice=(2, 3)), Buy(player="Bob"), EndTurn(player="Bob"),
         Mortgage(player="Cy", deed="baltic_avenue"), Trade(player="Cy", partner="Ann", give=Bundle(cash=930)))
    s = log.state
    s.kept_cards["Cy"].append("forced_trade")  # as if drawn earlier (taken from the deck: conserved)
    s.deck["forced_trade"] -= 1
    push(log, Roll(player="Cy", dice=(2, 3)), Rent(player="Bob"))
    assert log.state.debt is not None and log.state.cash["Cy"] == 20
    refused(log, Roll(player="Ann", dice=(1, 1)), "must first pay")
    s = push(log, Bankrupt(player="Cy"))
    assert s.owners["baltic_avenue"] == "Bob" and "baltic_avenue" in s.mortgaged
    assert s.kept_cards["Bob"] == ["forced_trade"] and chips(s, "Bob") == {"purple": 4, "green": 4}
    assert s.cash["Bob"] == 900 - 100 + 20 and "Cy" in s.bankrupt and s.current_player == "Ann"


def test_bankrupt_players_take_no_more_turns() -> None:
    log = game(3)
    push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=890)), Roll(player="Ann", dice=(1, 3)),
         ChanceDraw(player="Ann", card="repairs"), Bankrupt(player="Ann"))
    assert log.state.current_player == "Bob"
    for p in ("Bob", "Cy", "Bob"):
        assert log.state.current_player == p
        push(log, Roll(player=p, dice=(1, 2)))
        finish_turn(log)
    assert log.state.current_player == "Cy"


# ---------------------------------------------------------------- scoring


def _scored(buildings: dict[str, tuple[str, int]], **table: Any) -> BuilderState:
    s = game(4, **table).state
    for cell, (owner, height) in buildings.items():
        s.buildings[cell] = Building(owner, min(height, 4), height == 5)
        s.blocks[owner] -= min(height, 4)
    return s


def test_building_points_1_3_6_10_16_by_height_the_20_point_example() -> None:
    # "one floor building - 1 point, two floor building - 3 points, three floor building - 6 points, and four
    # floor building - 10 points. They will score a total of 20 points from their buildings."
    s = _scored({"A1": ("Ann", 1), "C1": ("Ann", 2), "E1": ("Ann", 3), "A3": ("Ann", 4)})
    assert s.scores()["Ann"].building_points == 20
    assert _scored({"A1": ("Ann", 5)}).scores()["Ann"].building_points == 16


def test_monopoly_points_by_colour_pair_the_light_blue_example() -> None:
    # "This player acquired both light blue properties. They will score two points."
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Roll(player="Bob", dice=(3, 4)), Buy(player="Bob"),
         Trade(player="Bob", partner="Ann", give=Bundle(deeds=[VERMONT]), get=Bundle(cash=120)))
    sc = log.state.scores()["Ann"]
    assert sc.monopolies == ("light_blue",) and sc.monopoly_points == 2
    points = {g.id: g.points.value for g in load_profile().groups}
    assert points == {"brown": 2, "light_blue": 2, "pink": 3, "orange": 3, "red": 4, "yellow": 4, "green": 5,
                      "dark_blue": 5}


def test_billionaire_builder_three_points_for_the_most_cash() -> None:
    s = game(3).state
    s.cash["Bob"] += 10
    s.cash[BANK] -= 10
    sc = s.scores()
    assert sc["Bob"].billionaire == 3 and sc["Ann"].billionaire == 0


def test_community_builder_five_points_the_yellow_example() -> None:
    # "purple - 3, red - 4, green - 5, and yellow - 6. The yellow player connected the most buildings."
    grid = {}
    for i, c in enumerate(["A1", "A2", "A3"]):
        grid[c] = ("Bob", 1 + i % 2)
    for c in ["C1", "C2", "C3", "C4"]:
        grid[c] = ("Ann", 1)
    for c in ["E1", "E2", "E3", "E4", "E5"]:
        grid[c] = ("Cy", 2)
    for c in ["A6", "B6", "C6", "D6", "E6", "F6"]:
        grid[c] = ("Di", 1)
    grid["F1"] = ("Di", 1)  # a building apart from her group does not add to it
    s = _scored(grid)
    sc = s.scores()
    assert {p: sc[p].community_size for p in s.players} == {"Bob": 3, "Ann": 4, "Cy": 5, "Di": 6}
    assert sc["Di"].community == 5 and sum(x.community for x in sc.values()) == 5


def test_community_builder_counts_orthogonal_neighbours_not_diagonal() -> None:
    s = _scored({"A1": ("Ann", 1), "B2": ("Ann", 1), "C3": ("Ann", 1), "E5": ("Bob", 1), "E6": ("Bob", 1)})
    sc = s.scores()
    assert sc["Ann"].community_size == 1 and sc["Bob"].community_size == 2 and sc["Bob"].community == 5


def test_bonus_card_tie_house_rule() -> None:
    tied = {"A1": ("Ann", 1), "A2": ("Ann", 1), "F1": ("Bob", 1), "F2": ("Bob", 1)}
    assert [s.community for s in _scored(tied).scores().values()] == [0, 0, 0, 0]  # default: nobody
    all_tied = _scored(tied, bonus_tie="all").scores()
    assert all_tied["Ann"].community == 5 and all_tied["Bob"].community == 5
    assert all(s.billionaire == 0 for s in _scored({}).scores().values())  # everyone has 900: a tie


def test_penthouse_building_house_rule() -> None:
    grid = {"A1": ("Ann", 5), "A2": ("Ann", 1), "F1": ("Bob", 1)}
    assert _scored(grid).scores()["Ann"].community_size == 2
    apart = _scored(grid, penthouse_building="apart").scores()["Ann"]
    assert apart.community_size == 1 and apart.building_points == 17


def test_a_tie_on_points_goes_to_the_most_money() -> None:
    s = _scored({"A1": ("Ann", 3), "F6": ("Bob", 2), "F4": ("Bob", 2)})  # 6 points each, no Community Builder
    s.cash["Di"] += 30  # Di takes Billionaire Builder (3)
    s.cash[BANK] -= 30
    s.cash["Bob"] += 10  # Bob has more money than Ann
    s.cash["Cy"] -= 10
    sc = s.scores()
    assert sc["Ann"].total == sc["Bob"].total == 6 and sc["Di"].total == 3
    assert s.winner() == ["Bob"]


# ---------------------------------------------------------------- the log


def test_illegal_events_are_refused_with_a_sentence_and_change_nothing() -> None:
    log = game(2)
    refused(log, Roll(player="Bob", dice=(1, 2)), "it is Ann's turn")
    refused(log, Roll(player="Zed", dice=(1, 2)), "not playing")
    refused(log, Buy(player="Ann"), "not possible now")
    refused(log, Build(player="Ann", cell="A1", paid={"red": 2}), "not possible now")
    refused(log, Mortgage(player="Ann", deed="nowhere"), "no deed 'nowhere'")
    refused(log, Rent(player="Ann"), "no rent")
    refused(log, Bankrupt(player="Ann"), "owes nothing")
    refused(log, ForcedTrade(player="Ann", target="Bob", give="red", take="purple"), "no FORCED TRADE")
    refused(log, ChanceDraw(player="Ann", card="dividend"), "not possible now")
    with pytest.raises(ValueError):
        Roll(player="Ann", dice=(0, 7))


def test_undo_restores_the_state_before_the_event() -> None:
    log = game(2)
    before = json.dumps(log.state.summary(), sort_keys=True)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"))
    log.undo()
    log.undo()
    assert json.dumps(log.state.summary(), sort_keys=True) == before


def test_the_log_replays_the_same_after_the_profile_file_is_edited(tmp_path: Any) -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"))
    text = dump_events(log.events, "monopoly_builder")
    edited = set_value(load_profile(), "deeds.oriental_avenue.price", 300)
    assert edited.number(ORIENTAL, "price") == 300
    _, events = load_events(text, EVENT_ADAPTER, "monopoly_builder")
    again = GameLog(GAMES.get("monopoly_builder").rules.new_state, events)
    assert again.state.cash["Ann"] == 800  # the price embedded in the start event


def test_summary_and_format_summary() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), Build(player="Ann", cell="A1", paid={"red": 2}),
         EndGame())
    s = log.state.summary()
    assert s["finished"] and s["winner"] == ["Ann"]
    ann = s["players"][0]
    assert ann["cash"] == 800 and ann["deeds"] == [ORIENTAL] and ann["resources"]["red"] == 2
    assert ann["score"] == {"buildings": [1], "building_points": 1, "monopolies": [], "monopoly_points": 0,
                            "billionaire": 0, "community_size": 1, "community": 5, "cash": 800, "total": 6}
    assert s["buildings"] == {"A1": {"owner": "Ann", "floors": 1, "penthouse": False}}
    text = format_summary(s)
    assert "Winner: Ann" in text and "A1 Ann 1" in text
    json.dumps(s)


def test_start_refuses_bad_seats() -> None:
    with pytest.raises(IllegalAction, match="not one of"):
        new_game([("Ann", "blue"), ("Bob", "red")])
    with pytest.raises(ValueError, match="same token colour"):
        new_game([("Ann", "red"), ("Bob", "red")])
    with pytest.raises(IllegalAction, match="2-4 players"):
        new_game([("Ann", "red")])


def test_end_game_by_agreement_scores_as_it_stands() -> None:
    s = push(game(2), EndGame())
    assert s.finished and s.end_reason == "agreed" and s.winner() == ["Ann", "Bob"]


def test_json_roundtrip_of_every_event_type() -> None:
    events = [Steal(player="A"), Trade(player="A", partner="B", give=Bundle(cash=5)), EndGame(), AuctionEnd(),
              Build(player="A", cell="A1", paid={"red": 2}), ResourceRoll(player="A", dice=(1, 2))]
    for e in events:
        assert EVENT_ADAPTER.validate_json(e.model_dump_json()) == e
    assert isinstance(EVENT_ADAPTER.validate_python({"type": "roll", "player": "A", "dice": [3, 4]}), Roll)
    assert isinstance(EVENT_ADAPTER.validate_python({"type": "jail_pay", "player": "A"}), JailPay)
    assert isinstance(EVENT_ADAPTER.validate_python({"type": "discard", "player": "A", "resources": {}}), Discard)


def test_jail_third_failed_roll_short_of_cash_owes_the_fee_before_anything_else() -> None:
    log = _jailed()
    push(log, Trade(player="Ann", partner="Bob", give=Bundle(cash=890)))
    for _ in (1, 2):
        push(log, Roll(player="Ann", dice=(1, 2)), EndTurn(player="Ann"), Roll(player="Bob", dice=(2, 1)))
        finish_turn(log)
    s = push(log, Roll(player="Ann", dice=(2, 4)))  # third failure: 50M owed, then 8 + 6 = 14 Chance
    assert s.debt is not None and s.debt.amount == 50 and s.positions["Ann"] == 14
    refused(log, ChanceDraw(player="Ann", card="repairs"), "must first pay")
    s = push(log, Bankrupt(player="Ann"))
    assert "Ann" in s.bankrupt and s.cash["Ann"] == 0


def test_chance_cards_that_say_keep_are_kept_the_others_are_done_and_go_back() -> None:
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 3)))
    assert log.state.phase == "chance"
    refused(log, ChanceDraw(player="Ann", card="nothing"), "no Chance card 'nothing'")
    s = push(log, ChanceDraw(player="Ann", card="get_out_of_jail"))
    assert s.kept_cards["Ann"] == ["get_out_of_jail"] and s.deck["get_out_of_jail"] == 1
    log2 = game(2)
    s = push(log2, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="dividend"))
    assert s.cash["Ann"] == 950 and s.deck["dividend"] == 2  # read and returned to the bottom of the deck
    log3 = game(2)
    s = push(log3, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="advance_to_boardwalk"))
    assert s.positions["Ann"] == 31 and s.phase == "buy" and s.cash["Ann"] == 900  # no GO passed
    log4 = game(2)
    s = push(log4, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="go_to_jail"))
    assert "Ann" in s.jail and s.current_player == "Bob"
    log5 = game(2)
    s = push(log5, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="green_delivery"))
    assert chips(s, "Ann") == {"red": 4, "green": 2}
    s = push(game(2), Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="speeding_fine"))
    assert s.cash["Ann"] == 885


def test_a_held_card_cannot_be_drawn() -> None:
    log = game(2)
    s = log.state
    for _ in range(2):
        s.kept_cards["Bob"].append("get_out_of_jail")
        s.deck["get_out_of_jail"] -= 1
    push(log, Roll(player="Ann", dice=(1, 3)))
    refused(log, ChanceDraw(player="Ann", card="get_out_of_jail"), "held by a player")


def test_forced_trade_card_makes_another_player_swap_one_resource() -> None:
    # "When you use it you can force another player to trade you a resource that you want for one of yours."
    log = game(2)
    push(log, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="forced_trade"))
    assert "forced_trade" in log.state.allowed_events()
    refused(log, ForcedTrade(player="Ann", target="Bob", give="green", take="purple"), "no green")
    s = push(log, ForcedTrade(player="Ann", target="Bob", give="red", take="purple"))
    assert chips(s, "Ann") == {"red": 3, "purple": 1} and chips(s, "Bob") == {"purple": 3, "red": 1}
    assert s.kept_cards["Ann"] == [] and s.deck["forced_trade"] == 3
    refused(log, ForcedTrade(player="Ann", target="Bob", give="red", take="purple"), "no FORCED TRADE")


def test_kept_cards_can_be_traded() -> None:
    log = game(2)
    s = push(log, Roll(player="Ann", dice=(1, 3)), ChanceDraw(player="Ann", card="get_out_of_jail"),
             Trade(player="Ann", partner="Bob", give=Bundle(cards=["get_out_of_jail"]), get=Bundle(cash=20)))
    assert s.kept_cards["Bob"] == ["get_out_of_jail"] and s.cash["Ann"] == 920
    refused(log, Trade(player="Ann", partner="Bob", give=Bundle(cards=["get_out_of_jail"])), "does not hold")


def test_the_game_ends_when_the_penthouse_can_no_longer_be_built() -> None:
    log = game(2)
    s = log.state
    for i, p in enumerate(("Ann", "Bob")):
        for j in range(4):
            s.buildings[f"{'AC'[i]}{j + 1}"] = Building(p, 3 if j else 2)
        s.blocks[p] = 1 if p == "Ann" else 0
    # Ann's last block could raise A2 (3 floors) to 4: the game goes on.
    s = push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"))
    assert not s.finished and s.penthouse_possible()
    # She puts it on A1 (2 -> 3 floors): no building can reach four floors any more.
    s.resources[BANK]["green"] -= 1
    s.resources["Ann"]["green"] += 1
    s = push(log, Build(player="Ann", cell="A1", paid={"red": 2, "green": 1}))
    assert s.finished and s.end_reason == "the penthouse can no longer be built"
    # Ann: 4 x 6 = 24 points; Bob: 3 + 3 x 6 = 21 + Billionaire Builder 3 (900M against 800M) = 24;
    # Community Builder tied (4 each): nobody. A tie: Bob has more money.
    assert [sc.total for sc in s.scores().values()] == [24, 24] and s.winner() == ["Bob"]
