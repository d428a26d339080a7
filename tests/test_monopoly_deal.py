"""Every rule of Monopoly Deal (rules text 003 and the issue's list), one test named after each, played
through the referee's events on the shipped deck. Cards are named as they are played; hands stay unseen
unless a test deals or draws named cards."""

from __future__ import annotations

import pytest
from deal_table import BLUE, BROWN, GREEN, ORANGE, PINK, RAIL, RED, UTIL, YELLOW, Table, colours_of

from companion.events import GameLog
from companion.games.monopoly_deal.deck import load_deck
from companion.games.monopoly_deal.rules import (
    Accept,
    BankCard,
    Birthday,
    Build,
    DealBreaker,
    DebtCollector,
    Discard,
    Draw,
    EndTurn,
    ForcedDeal,
    HouseRules,
    JustSayNo,
    Lay,
    MoveWild,
    PassGo,
    Pay,
    Rent,
    Settings,
    SlyDeal,
    Start,
    new_game,
    new_state,
)
from companion.rules.errors import IllegalAction

JSN = ["action-just-say-no-1", "action-just-say-no-2", "action-just-say-no-3"]


# ---------------------------------------------------------------- setup and turns


def test_players_start_with_five_cards_and_the_rest_is_the_draw_pile() -> None:
    s = Table(("Ann", "Ben", "Cat")).s
    assert s.hands == {"Ann": 5, "Ben": 5, "Cat": 5}
    assert s.draw_count == 106 - 15 and len(s.unseen()) == 106
    s.check()


def test_two_to_five_players() -> None:
    for n in (2, 5):
        assert len(new_game(["Ann", "Ben", "Cat", "Dan", "Eve"][:n]).state.players) == n
    for names in (["Ann"], ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]):
        log = GameLog(new_state)
        with pytest.raises((IllegalAction, ValueError)):
            log.push(Start(settings=Settings(players=names, deck=load_deck())))


def test_draw_two_at_the_start_of_a_turn() -> None:
    t = Table()
    t.refuse(BankCard(player="Ann", card="money-1-1"), "Ann draws first")
    s = t.do(Draw(player="Ann"))
    assert s.hands["Ann"] == 7 and s.draw_count == 96 - 2
    t.refuse(Draw(player="Ann"), "already drawn")


def test_only_the_top_two_drawn_cards_count() -> None:
    t = Table()
    t.refuse(Draw(player="Ann", cards=["money-1-1", "money-1-2", "money-1-3"]), "Ann draws 2 cards, not 3")
    s = t.do(Draw(player="Ann", cards=["money-1-1"]))  # one seen, one not
    assert s.hands["Ann"] == 7 and s.seen_in_hand["Ann"] == ["money-1-1"]


def test_cards_are_drawn_from_the_draw_pile_only() -> None:
    t = Table()
    t.do(Draw(player="Ann"), PassGo(player="Ann", card="action-pass-go-1"), BankCard(player="Ann", card="money-1-1"),
         EndTurn(player="Ann"))
    t.refuse(Draw(player="Ben", cards=["action-pass-go-1"]), "cannot be drawn: it is in the discard pile")


def test_the_first_player_starts_and_play_goes_round_in_order() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    assert t.s.turn_player == "Ann"
    t.refuse(Draw(player="Ben"), "it is Ann's turn, not Ben's: Ben cannot draw now")
    for expected in ("Ben", "Cat", "Ann"):
        t.end()
        assert t.s.turn_player == expected


def test_three_plays_per_turn() -> None:
    t = Table()
    t.do(Draw(player="Ann"), BankCard(player="Ann", card="money-1-1"), BankCard(player="Ann", card="money-1-2"),
         Lay(player="Ann", card=RED[0]))
    assert t.s.plays == 3 and t.s.plays_left == 0
    t.refuse(BankCard(player="Ann", card="money-1-3"), "used all 3 plays")


def test_skipping_plays_is_allowed() -> None:
    t = Table()
    s = t.do(Draw(player="Ann"), EndTurn(player="Ann"))
    assert s.turn_player == "Ben" and s.hands["Ann"] == 7


def test_cards_over_seven_at_the_end_of_a_turn_are_discarded() -> None:
    t = Table()
    t.end()  # Ann 7
    t.end()  # Ben 7
    t.do(Draw(player="Ann"))  # 9
    t.refuse(EndTurn(player="Ann"), "discard 2")
    t.refuse(Discard(player="Ann", cards=["action-pass-go-1", "action-pass-go-2", "action-pass-go-3"]),
             "discards down to 7: 2 cards, not 3")
    t.refuse(Discard(player="Ann", unseen=2), "name each card")
    s = t.do(Discard(player="Ann", cards=["action-pass-go-1", "action-pass-go-2"]), EndTurn(player="Ann"))
    assert s.hands["Ann"] == 7 and s.discard == ["action-pass-go-1", "action-pass-go-2"]


def test_discarding_under_the_draw_pile_is_a_house_rule() -> None:
    t = Table(house=HouseRules(excess_cards_to="draw_pile_bottom"))
    t.end()
    t.end()
    t.do(Draw(player="Ann"))
    pile = t.s.draw_count
    s = t.do(Discard(player="Ann", unseen=2), EndTurn(player="Ann"))
    assert s.draw_count == pile + 2 and s.discard == [] and s.hands["Ann"] == 7
    s.check()


def _hand_emptied_with_a_play_left() -> Table:
    """Ann banks three cards a turn until she starts a turn with 3 cards; she plays a Debt Collector, counters
    Ben's Just Say No with her own (no play), and banks her last card: an empty hand with a play left."""
    t = Table()
    money = [f"money-{v}-{i}" for v, n in ((1, 6), (2, 5), (3, 3), (4, 3)) for i in range(1, n + 1)]
    t.to("Ann")
    for _ in range(3):
        t.do(BankCard(player="Ann", card=money.pop()))
    t.to("Ben")
    t.do(BankCard(player="Ben", card="money-5-1"))
    for expected in (6, 5, 4):
        t.end()
        assert t.to("Ann").hands["Ann"] == expected
        for _ in range(3):
            t.do(BankCard(player="Ann", card=money.pop()))
    t.end()
    assert t.to("Ann").hands["Ann"] == 3
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"),
         JustSayNo(player="Ben", card=JSN[0]), JustSayNo(player="Ann", card=JSN[1]), Accept(player="Ben"),
         Pay(player="Ben", cards=["money-5-1"]), BankCard(player="Ann", card=money.pop()))
    assert t.s.hands["Ann"] == 0 and t.s.plays_left == 1
    return t


def test_a_player_with_an_empty_hand_forfeits_the_unused_plays() -> None:
    t = _hand_emptied_with_a_play_left()
    t.refuse(BankCard(player="Ann", card="money-10-1"), "Ann has no card in hand")
    t.refuse(Draw(player="Ann"), "already drawn")  # no new cards during the turn
    assert "end_turn" in t.s.allowed_events() and "bank" not in t.s.allowed_events()


def test_empty_hand_draws_five_at_the_start_of_the_next_turn() -> None:
    t = _hand_emptied_with_a_play_left()
    t.do(EndTurn(player="Ann"))
    t.end()  # Ben
    assert t.s.waiting().sentence == "Ann draws 5"
    pile = t.s.draw_count
    s = t.do(Draw(player="Ann"))
    assert s.hands["Ann"] == 5 and s.draw_count == pile - 5


def test_reshuffle_when_the_draw_pile_runs_out() -> None:
    t = Table()
    # Run the pile down by ending turns; discards feed the discard pile.
    for _ in range(200):
        if t.s.draw_count < 2 and t.s.discard:
            break
        t.end()
    p = t.s.turn_player
    assert p is not None
    discard = len(t.s.discard)
    pile = t.s.draw_count
    s = t.do(Draw(player=p))
    assert s.discard == [] and s.draw_count == pile + discard - 2
    assert "shuffled into a new draw pile" in " ".join(s.story[-2:])
    s.check()


def test_no_reshuffle_is_a_house_rule() -> None:
    t = Table(house=HouseRules(reshuffle_discards=False))
    for _ in range(200):
        if t.s.draw_count < 2:
            break
        t.end()
    p = t.s.turn_player
    assert p is not None
    hand, pile, discard = t.s.hands[p], t.s.draw_count, list(t.s.discard)
    s = t.do(Draw(player=p))
    assert s.hands[p] == hand + pile and s.draw_count == 0 and s.discard == discard


# ---------------------------------------------------------------- bank and properties


def test_money_and_action_cards_can_be_banked_as_money() -> None:
    t = Table()
    s = t.do(Draw(player="Ann"), BankCard(player="Ann", card="money-10-1"),
             BankCard(player="Ann", card="action-deal-breaker-1"))
    assert s.banks["Ann"] == ["money-10-1", "action-deal-breaker-1"] and s.bank_total("Ann") == 15


def test_a_banked_action_card_is_money_for_good() -> None:
    t = Table()
    t.do(Draw(player="Ann"), BankCard(player="Ann", card="action-debt-collector-1"))
    t.refuse(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"),
             "cannot be in Ann's hand: it is in Ann's bank")


def test_cards_once_played_cannot_return_to_a_hand() -> None:
    t = Table()
    t.do(Draw(player="Ann"), Lay(player="Ann", card=RED[0]))
    t.refuse(BankCard(player="Ann", card="money-1-1").model_copy(update={"card": RED[0]}),
             "property cards cannot go in the bank")
    t.refuse(Lay(player="Ann", card=RED[0]), "cannot be in Ann's hand: it is in Ann's Red set")


def test_property_cards_cannot_be_banked() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(BankCard(player="Ann", card=BLUE[0]), "property cards cannot go in the bank")


def test_property_wilds_with_a_value_may_be_banked_unless_the_table_says_no() -> None:
    t = Table()
    s = t.do(Draw(player="Ann"), BankCard(player="Ann", card="wild-green-railroad-1"))
    assert s.bank_total("Ann") == 4
    t.refuse(BankCard(player="Ann", card="wild-multi-1"), "no money value")
    t2 = Table(house=HouseRules(bank_property_wilds=False))
    t2.do(Draw(player="Ann"))
    t2.refuse(BankCard(player="Ann", card="wild-green-railroad-1"), "does not bank property wilds")


def test_money_is_banked_on_your_own_turn_only() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(BankCard(player="Ben", card="money-1-1"), "it is Ann's turn, not Ben's")


def test_properties_are_laid_in_sets_of_their_colour() -> None:
    t = Table()
    s = t.setup(Ann=[RED[0], RED[1], "wild-red-yellow-1:red", BLUE[0]])
    assert colours_of(s, "Ann") == {"red": [RED[0], RED[1], "wild-red-yellow-1"], "dark_blue": [BLUE[0]]}
    assert [s.is_complete(x) for x in s.sets["Ann"]] == [True, False]


def test_a_wild_is_laid_only_as_one_of_its_colours() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(Lay(player="Ann", card="wild-red-yellow-1", colour="green"), "cannot be laid as Green")
    t.refuse(Lay(player="Ann", card="wild-red-yellow-1"), "say which colour")
    t.refuse(Lay(player="Ann", card=RED[0], colour="green"), "cannot be laid as Green")
    s = t.do(Lay(player="Ann", card="wild-multi-1", colour="green"))
    assert colours_of(s, "Ann") == {"green": ["wild-multi-1"]}


def test_extra_cards_of_a_colour_start_a_new_set() -> None:
    t = Table()
    s = t.setup(Ann=[*BLUE, "wild-dark-blue-green-1:dark_blue"])
    assert [(x.colour, len(x.cards)) for x in s.sets["Ann"]] == [("dark_blue", 2), ("dark_blue", 1)]
    assert s.complete_colours("Ann") == ["dark_blue"]


def test_wilds_move_only_on_your_own_turn_without_a_play() -> None:
    t = Table()
    t.setup(Ann=["wild-red-yellow-1:red"])
    t.to("Ben")
    t.refuse(MoveWild(player="Ann", card="wild-red-yellow-1", colour="yellow"), "it is Ben's turn")
    t.to("Ann")
    s = t.do(MoveWild(player="Ann", card="wild-red-yellow-1", colour="yellow"))
    assert colours_of(s, "Ann") == {"yellow": ["wild-red-yellow-1"]} and s.plays == 0
    t.refuse(MoveWild(player="Ann", card="wild-red-yellow-1", colour="green"), "cannot be Green")
    t.refuse(MoveWild(player="Ann", card=RED[0], colour="yellow"), "not a wild card")


def test_a_wild_moved_before_charging_rent_raises_the_rent() -> None:
    t = Table(("Ann", "Ben"))
    t.setup(Ann=[RED[0], YELLOW[0], YELLOW[1], "wild-red-yellow-1:red"], Ben=["money-10-1"])
    t.to("Ann")
    assert (t.s.rent_for("Ann", "red"), t.s.rent_for("Ann", "yellow")) == (3, 4)
    s = t.do(MoveWild(player="Ann", card="wild-red-yellow-1", colour="yellow"),
             Rent(player="Ann", card="rent-red-yellow-1", colour="yellow"))
    assert s.waiting().amount == 6 and s.plays == 1


def test_a_wild_on_the_table_can_be_taken_by_sly_deal() -> None:
    t = Table()
    t.setup(Ben=["wild-red-yellow-1:yellow"])
    t.to("Ann")
    s = t.do(SlyDeal(player="Ann", card="action-sly-deal-1", target="Ben", take="wild-red-yellow-1"),
             Accept(player="Ben"))
    assert colours_of(s, "Ann") == {"yellow": ["wild-red-yellow-1"]}


def test_opponents_cards_cannot_be_touched() -> None:
    t = Table()
    t.setup(Ben=["wild-red-yellow-1:red", "money-5-1"])
    t.to("Ann")
    t.refuse(MoveWild(player="Ann", card="wild-red-yellow-1", colour="yellow"), "not in Ann's property area")
    t.refuse(BankCard(player="Ann", card="money-5-1"), "it is in Ben's bank")


# ---------------------------------------------------------------- houses and hotels


def test_houses_and_hotels_only_on_a_complete_set() -> None:
    t = Table()
    t.setup(Ann=RED[:2])
    t.to("Ann")
    t.refuse(Build(player="Ann", card="house-1", colour="red"), "only on a complete set")
    s = t.do(Lay(player="Ann", card=RED[2]), Build(player="Ann", card="house-1", colour="red"))
    assert s.sets["Ann"][0].house == "house-1" and s.plays == 2


def test_one_house_and_one_hotel_per_set() -> None:
    t = Table()
    t.setup(Ann=[*RED, "house-1:red", "hotel-1:red"])
    t.to("Ann")
    t.refuse(Build(player="Ann", card="house-2", colour="red"), "one house per set")
    t.refuse(Build(player="Ann", card="hotel-2", colour="red"), "one hotel per set")


def test_a_hotel_needs_a_house_first() -> None:
    t = Table()
    t.setup(Ann=RED)
    t.to("Ann")
    t.refuse(Build(player="Ann", card="hotel-1", colour="red"), "a hotel needs a house first")


def test_no_houses_or_hotels_on_railroads_or_utilities() -> None:
    t = Table()
    t.setup(Ann=[*RAIL, *UTIL])
    t.to("Ann")
    assert t.s.complete_colours("Ann") == ["railroad", "utility"]
    t.refuse(Build(player="Ann", card="house-1", colour="railroad"), "never go on Railroad sets")
    t.refuse(Build(player="Ann", card="house-1", colour="utility"), "never go on Utility sets")


def test_rent_follows_the_ladder_plus_house_three_and_hotel_four() -> None:
    t = Table()
    s = t.setup(Ann=[GREEN[0]])
    assert s.rent_for("Ann", "green") == 2
    s = t.setup(Ann=[GREEN[1]])
    assert s.rent_for("Ann", "green") == 4
    s = t.setup(Ann=[GREEN[2]])
    assert s.rent_for("Ann", "green") == 7
    s = t.setup(Ann=["house-1:green"])
    assert s.rent_for("Ann", "green") == 10
    s = t.setup(Ann=["hotel-1:green"])
    assert s.rent_for("Ann", "green") == 14


# ---------------------------------------------------------------- rent and actions


def test_two_colour_rent_charges_every_opponent() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    t.setup(Ann=RED[:2], Ben=["money-5-1"], Cat=["money-4-1"])
    t.to("Ann")
    t.refuse(Rent(player="Ann", card="rent-red-yellow-1", colour="red", target="Ben"), "charges every opponent")
    s = t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    assert [(c.target, c.amount) for c in s.pending.claims] == [("Ben", 3), ("Cat", 3)]  # type: ignore[union-attr]
    s = t.do(Pay(player="Ben", cards=["money-5-1"]), Pay(player="Cat", cards=["money-4-1"]))
    assert s.bank_total("Ann") == 9 and s.pending is None


def test_any_colour_rent_charges_one_chosen_opponent() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    t.setup(Ann=BLUE, Ben=["money-10-1"], Cat=["money-5-1"])
    t.to("Ann")
    t.refuse(Rent(player="Ann", card="rent-any-1", colour="dark_blue"), "say who")
    s = t.do(Rent(player="Ann", card="rent-any-1", colour="dark_blue", target="Cat"))
    assert [(c.target, c.amount) for c in s.pending.claims] == [("Cat", 8)]  # type: ignore[union-attr]


def test_rent_for_a_colour_you_do_not_own_is_refused() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(Rent(player="Ann", card="rent-red-yellow-1", colour="red"), "no Red property")
    t.refuse(Rent(player="Ann", card="rent-red-yellow-1", colour="green"), "charges Red or Yellow, not Green")


def test_birthday_charges_everyone() -> None:
    t = Table(("Ann", "Ben", "Cat", "Dan"))
    t.setup(Ben=["money-2-1"], Cat=["money-3-1"], Dan=["money-1-1", "money-1-2"])
    t.to("Ann")
    s = t.do(Birthday(player="Ann", card="action-its-my-birthday-1"))
    assert [(c.target, c.amount) for c in s.pending.claims] == [("Ben", 2), ("Cat", 2), ("Dan", 2)]  # type: ignore[union-attr]
    s = t.do(Pay(player="Ben", cards=["money-2-1"]), Pay(player="Cat", cards=["money-3-1"]),
             Pay(player="Dan", cards=["money-1-1", "money-1-2"]))
    assert s.bank_total("Ann") == 7 and [p.value for p in s.payments] == [2, 3, 2]


def test_debt_collector_charges_one_player_five() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    t.setup(Ben=["money-5-1"])
    t.to("Ann")
    t.refuse(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ann"), "cannot target themself")
    s = t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    assert s.waiting().amount == 5 and s.waiting().player == "Ben"


def test_double_the_rent_uses_a_play_and_doubles_the_rent() -> None:
    t = Table()
    t.setup(Ann=RED[:2], Ben=["money-10-1"])
    t.to("Ann")
    s = t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red", doubles=["action-double-the-rent-1"]))
    assert s.plays == 2 and s.waiting().amount == 6


def test_double_the_rent_cannot_make_a_fourth_play() -> None:
    t = Table()
    t.setup(Ann=RED[:2], Ben=["money-10-1"])
    t.to("Ann")
    t.do(BankCard(player="Ann", card="money-1-1"), BankCard(player="Ann", card="money-1-2"))
    t.refuse(Rent(player="Ann", card="rent-red-yellow-1", colour="red", doubles=["action-double-the-rent-1"]),
             "takes 2 plays and Ann has 1 left: it would be play 4 of 3")
    s = t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    assert s.plays == 3 and s.waiting().amount == 3


def test_two_double_the_rents_stack_unless_the_table_says_no() -> None:
    t = Table()
    t.setup(Ann=RED[:2], Ben=["money-10-1", "money-5-1"])
    t.to("Ann")
    s = t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red",
                  doubles=["action-double-the-rent-1", "action-double-the-rent-2"]))
    assert s.plays == 3 and s.waiting().amount == 12
    t2 = Table(house=HouseRules(stack_double_rent=False))
    t2.setup(Ann=RED[:2])
    t2.to("Ann")
    t2.refuse(Rent(player="Ann", card="rent-red-yellow-1", colour="red",
                   doubles=["action-double-the-rent-1", "action-double-the-rent-2"]), "one Double the Rent")


def test_double_the_rent_with_the_any_colour_rent_is_a_house_rule() -> None:
    t = Table(house=HouseRules(double_with_any_rent=False))
    t.setup(Ann=RED[:2])
    t.to("Ann")
    t.refuse(Rent(player="Ann", card="rent-any-1", colour="red", target="Ben",
                  doubles=["action-double-the-rent-1"]), "two-colour rent cards only")


def test_pass_go_draws_two() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    s = t.do(PassGo(player="Ann", card="action-pass-go-1", drawn=["money-10-1"]))
    assert s.hands["Ann"] == 8 and s.plays == 1 and s.discard == ["action-pass-go-1"]
    assert "money-10-1" in s.seen_in_hand["Ann"]


def test_action_cards_are_played_on_your_own_turn_only() -> None:
    t = Table()
    t.setup(Ann=["money-5-1"])
    t.to("Ann")
    t.refuse(DebtCollector(player="Ben", card="action-debt-collector-1", target="Ann"), "it is Ann's turn")


def test_sly_deal_takes_one_property_not_from_a_complete_set() -> None:
    t = Table()
    t.setup(Ben=[*BLUE, GREEN[0]])
    t.to("Ann")
    t.refuse(SlyDeal(player="Ann", card="action-sly-deal-1", target="Ben", take=BLUE[0]),
             "cannot take from a complete set")
    s = t.do(SlyDeal(player="Ann", card="action-sly-deal-1", target="Ben", take=GREEN[0]), Accept(player="Ben"))
    assert colours_of(s, "Ann") == {"green": [GREEN[0]]} and "green" not in colours_of(s, "Ben")


def test_forced_deal_swaps_a_property_with_another_player() -> None:
    t = Table()
    t.setup(Ann=[BROWN[0], *BLUE], Ben=[GREEN[0], *RED])
    t.to("Ann")
    t.refuse(ForcedDeal(player="Ann", card="action-forced-deal-1", target="Ben", take=RED[0], give=BROWN[0]),
             "cannot take from a complete set")
    t.refuse(ForcedDeal(player="Ann", card="action-forced-deal-1", target="Ben", take=GREEN[0], give=BLUE[0]),
             "does not give cards out of complete sets")
    s = t.do(ForcedDeal(player="Ann", card="action-forced-deal-1", target="Ben", take=GREEN[0], give=BROWN[0]),
             Accept(player="Ben"))
    assert colours_of(s, "Ann")["green"] == [GREEN[0]] and colours_of(s, "Ben")["brown"] == [BROWN[0]]


def test_forced_deal_from_a_complete_set_is_a_house_rule() -> None:
    t = Table(house=HouseRules(forced_deal_from_full_set=True))
    t.setup(Ann=BLUE, Ben=[GREEN[0]])
    t.to("Ann")
    s = t.do(ForcedDeal(player="Ann", card="action-forced-deal-1", target="Ben", take=GREEN[0], give=BLUE[0]),
             Accept(player="Ben"))
    assert s.complete_colours("Ann") == [] and colours_of(s, "Ben")["dark_blue"] == [BLUE[0]]


def test_deal_breaker_takes_a_complete_set_with_its_buildings() -> None:
    t = Table()
    t.setup(Ben=[*BLUE, "house-1:dark_blue", "hotel-1:dark_blue", GREEN[0]])
    t.to("Ann")
    t.refuse(DealBreaker(player="Ann", card="action-deal-breaker-1", target="Ben", colour="green"),
             "no complete Green set")
    s = t.do(DealBreaker(player="Ann", card="action-deal-breaker-1", target="Ben", colour="dark_blue"),
             Accept(player="Ben"))
    assert s.complete_colours("Ann") == ["dark_blue"] and s.rent_for("Ann", "dark_blue") == 8 + 3 + 4
    assert s.complete_colours("Ben") == []


# ---------------------------------------------------------------- Just Say No


def test_just_say_no_answer_costs_no_play_and_keeps_the_play_count() -> None:
    t = Table()
    t.setup(Ann=RED[:2], Ben=["money-10-1"])
    t.to("Ann")
    t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    assert t.s.plays == 1
    s = t.do(JustSayNo(player="Ben", card=JSN[0]))
    assert s.plays == 1 and s.waiting().player == "Ann" and s.waiting().chain == (JSN[0],)
    s = t.do(JustSayNo(player="Ann", card=JSN[1]))
    assert s.plays == 1  # the actor's counter is an answer too
    s = t.do(Pay(player="Ben", cards=["money-10-1"]))
    assert s.plays == 1 and s.plays_left == 2


def test_counter_just_say_no_chains_of_any_length() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["money-10-1"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    t.refuse(JustSayNo(player="Ann", card=JSN[0]), "Ben answers now, not Ann")
    t.do(JustSayNo(player="Ben", card=JSN[0]), JustSayNo(player="Ann", card=JSN[1]))
    s = t.do(JustSayNo(player="Ben", card=JSN[2]))
    # All three Just Say No are now in the discard pile: Ann cannot hold one, so the cancellation stands
    # at once (nobody is asked a question only one answer fits).
    assert s.pending is None and s.bank_total("Ann") == 0 and s.bank_total("Ben") == 10
    assert "cancelled" in s.story[-1]


def test_an_even_just_say_no_chain_lets_the_action_stand() -> None:
    t = Table(house=HouseRules(forced_deal_count=4))
    t.setup(Ann=BLUE, Ben=["money-10-1"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"),
         JustSayNo(player="Ben", card=JSN[0]), JustSayNo(player="Ann", card=JSN[1]))
    assert t.s.waiting().player == "Ben" and t.s.waiting().kind == "answer"
    s = t.do(Accept(player="Ben"))
    assert s.waiting().kind == "pay"
    s = t.do(Pay(player="Ben", cards=["money-10-1"]))
    assert s.bank_total("Ann") == 10


def test_just_say_no_cancels_rent_and_its_double_together() -> None:
    t = Table()
    t.setup(Ann=RED[:2], Ben=["money-10-1"])
    t.to("Ann")
    t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red", doubles=["action-double-the-rent-1"]))
    s = t.do(JustSayNo(player="Ben", card=JSN[0]), Accept(player="Ann"))
    assert s.pending is None and s.bank_total("Ben") == 10 and s.plays == 2
    assert s.discard[-3:] == ["rent-red-yellow-1", "action-double-the-rent-1", JSN[0]]


def test_just_say_no_protects_only_the_player_who_plays_it() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    t.setup(Ben=["money-2-1"], Cat=["money-2-2"])
    t.to("Ann")
    t.do(Birthday(player="Ann", card="action-its-my-birthday-1"))
    s = t.do(JustSayNo(player="Ben", card=JSN[0]), Accept(player="Ann"))
    assert s.waiting().player == "Cat"
    s = t.do(Pay(player="Cat", cards=["money-2-2"]))
    assert s.bank_total("Ann") == 2 and s.bank_total("Ben") == 2


def test_just_say_no_only_answers_an_action() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(JustSayNo(player="Ann", card=JSN[0]), "no action waits for an answer")


def test_just_say_no_can_be_banked_as_money() -> None:
    t = Table()
    s = t.do(Draw(player="Ann"), BankCard(player="Ann", card=JSN[0]))
    assert s.bank_total("Ann") == 4


# ---------------------------------------------------------------- payments


def test_payments_come_from_bank_and_table_only() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["money-1-1"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    t.refuse(Pay(player="Ben", cards=["money-1-1", "money-10-1"]), "pays from their bank and table only")
    t.refuse(Pay(player="Ben", cards=["money-1-1", BLUE[0]]), "pays from their bank and table only")


def test_the_payer_chooses_which_cards() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["money-5-1", GREEN[0], GREEN[1]])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    assert t.s.propose_payment("Ben", 5) == ["money-5-1"]
    t.refuse(Pay(player="Ann", cards=["money-5-1"]), "Ben pays now, not Ann")
    s = t.do(Pay(player="Ben", cards=[GREEN[0], GREEN[1]]))  # 8M of property instead of the 5M note
    assert colours_of(s, "Ann")["green"] == GREEN[:2] and s.bank_total("Ben") == 5


def test_no_change_is_given() -> None:
    t = Table()
    t.setup(Ann=RED[:1], Ben=["money-10-1", "money-1-1"])
    t.to("Ann")
    t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))  # 2M
    t.refuse(Pay(player="Ben", cards=["money-10-1", "money-1-1"]), "no change is given")
    s = t.do(Pay(player="Ben", cards=["money-10-1"]))
    assert s.bank_total("Ann") == 10 and s.bank_total("Ben") == 1
    assert s.payments[-1].value == 10 and s.payments[-1].owed == 2 and s.payments[-1].forgiven == 0
    assert "no change on 8M" in s.story[-1]


def test_everything_goes_when_short_and_the_rest_is_forgiven() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["money-1-1", BROWN[0]])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    assert t.s.propose_payment("Ben", 5) == ["money-1-1", BROWN[0]]
    t.refuse(Pay(player="Ben", cards=["money-1-1"]), "gives everything on the table")
    s = t.do(Pay(player="Ben", cards=["money-1-1", BROWN[0]]))
    assert s.payments[-1].forgiven == 3 and s.pending is None and s.payable("Ben") == []
    t.end()
    assert t.s.waiting().kind == "draw"  # the debt does not pass to the next turn


def test_a_player_with_nothing_on_the_table_pays_nothing() -> None:
    t = Table()
    t.setup(Ann=BLUE)
    t.to("Ann")
    s = t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    assert s.pending is None and s.payments[-1].value == 0 and s.payments[-1].forgiven == 5


def test_paid_properties_go_to_the_receivers_property_area_and_money_to_the_bank() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["action-sly-deal-1", "wild-red-yellow-1:yellow"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    s = t.do(Pay(player="Ben", cards=["action-sly-deal-1", "wild-red-yellow-1"]))
    assert s.banks["Ann"] == ["action-sly-deal-1"]  # a banked action stays money
    assert colours_of(s, "Ann")["yellow"] == ["wild-red-yellow-1"]  # a paid property stays property


def test_a_multicolour_wild_cannot_pay() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["wild-multi-1:red", "money-1-1"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    t.refuse(Pay(player="Ben", cards=["money-1-1", "wild-multi-1"]), "no money value")
    s = t.do(Pay(player="Ben", cards=["money-1-1"]))
    assert s.payments[-1].forgiven == 4


def test_properties_may_leave_a_complete_set_to_pay() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=RED)
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    s = t.do(Pay(player="Ben", cards=RED[:2]))
    assert s.complete_colours("Ben") == [] and colours_of(s, "Ann")["red"] == RED[:2]


def test_payment_proposal_keeps_sets_then_properties_whenever_anything_else_covers() -> None:
    t = Table()
    # Ben: bank 5M + 1M + 1M, a complete brown set (1M cards), a green card (4M).
    t.setup(Ann=BLUE, Ben=["money-5-1", "money-1-1", "money-1-2", *BROWN, GREEN[0]])
    t.to("Ann")
    s = t.s
    assert sorted(s.propose_payment("Ben", 2)) == ["money-1-1", "money-1-2"]  # exact, money first
    assert s.propose_payment("Ben", 5) == ["money-5-1"]
    assert sorted(s.propose_payment("Ben", 6))[1] == "money-5-1" and len(s.propose_payment("Ben", 6)) == 2
    # 4M: money covers it, so the 5M note goes (1M over, no change) and the green property stays.
    assert s.propose_payment("Ben", 4) == ["money-5-1"]
    # 8M: the 7M of money is not enough: a property makes up the rest, the green one, not a brown card
    # out of the complete set, even though 5 + 1 + 1 + a brown card would be exactly 8M.
    proposal = s.propose_payment("Ben", 8)
    assert GREEN[0] in proposal and not set(proposal) & set(BROWN)
    assert s.propose_payment("Ben", 50) == s.payable("Ben")


def test_the_issues_birthday_keeps_the_only_complete_set() -> None:
    """Issue #26: for a 2M Birthday Ann had 5M in cash and a 3M wild, yet her only complete set (the two
    brown cards, 1M each: exactly 2M) was preselected. The safe default gives the 5M."""
    t = Table()
    t.setup(Ann=["money-5-1", "wild-light-blue-brown-1:light_blue", *BROWN], Ben=BLUE)
    t.to("Ben")
    t.do(Birthday(player="Ben", card="action-its-my-birthday-1"))
    s = t.s
    assert s.complete_colours("Ann") == ["brown"]
    assert s.propose_payment("Ann", 2) == ["money-5-1"]
    reasons = s.payment_reasons("Ann", 2, ["money-5-1"])
    assert reasons[0].startswith("5M: money from the bank goes first")
    assert reasons[-1] == "Kept: the complete Brown set."


def test_the_issues_one_m_rent_keeps_the_only_property() -> None:
    """Issue #26: for a 1M rent, Ann's only property was preselected over her 5M."""
    t = Table()
    t.setup(Ann=["money-5-1", BROWN[0]], Ben=BROWN[1:])
    t.to("Ben")
    t.do(Rent(player="Ben", card="rent-light-blue-brown-1", colour="brown"))
    assert t.s.propose_payment("Ann", 1) == ["money-5-1"]
    assert "no property is lost" in t.s.payment_reasons("Ann", 1, ["money-5-1"])[0]


def test_a_house_cannot_be_paid_while_its_hotel_stays() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=[*RED, "house-1:red", "hotel-1:red"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    t.refuse(Pay(player="Ben", cards=["house-1", RED[0]]), "carries a hotel")
    s = t.do(Pay(player="Ben", cards=["hotel-1", RED[2]]))
    assert s.banks["Ann"] == ["hotel-1"]  # house rule default: a building received goes to the bank


def test_a_received_building_onto_a_complete_set_is_a_house_rule() -> None:
    t = Table(house=HouseRules(received_building="property"))
    t.setup(Ann=GREEN, Ben=[*RED, "house-1:red"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    s = t.do(Pay(player="Ben", cards=["house-1", RED[0]]))
    assert s.sets["Ann"][0].house == "house-1" and s.rent_for("Ann", "green") == 10


def test_buildings_stay_on_a_broken_set_and_count_again_once_complete() -> None:
    t = Table()
    t.setup(Ann=[*RED, "house-1:red"], Ben=["money-1-1"])
    t.to("Ben")
    # Break Ann's set by paying: Ben collects a debt.
    t.do(DebtCollector(player="Ben", card="action-debt-collector-1", target="Ann"))
    s = t.do(Pay(player="Ann", cards=[RED[0], RED[1]]))
    red = next(x for x in s.sets["Ann"] if x.colour == "red")
    assert red.house == "house-1" and not s.is_complete(red) and s.set_rent(red) == 2
    t.to("Ann")
    s = t.do(Lay(player="Ann", card="wild-red-yellow-1", colour="red"))
    assert s.rent_for("Ann", "red") == 3  # two cards: 3M; no house bonus until complete
    s = t.do(Lay(player="Ann", card="wild-multi-1", colour="red"))
    assert s.rent_for("Ann", "red") == 6 + 3


def test_buildings_off_a_broken_set_go_to_the_bank_or_discard_by_house_rule() -> None:
    for rule, where in (("bank", "bank"), ("discard", "discard")):
        t = Table(house=HouseRules(broken_set_buildings=rule))  # type: ignore[arg-type]
        t.setup(Ann=[*RED, "house-1:red"])
        t.to("Ben")
        t.do(DebtCollector(player="Ben", card="action-debt-collector-1", target="Ann"))
        s = t.do(Pay(player="Ann", cards=[RED[0], RED[1]]))
        assert ("house-1" in s.banks["Ann"]) == (where == "bank")
        assert ("house-1" in s.discard) == (where == "discard")
        s.check()


# ---------------------------------------------------------------- winning


def test_three_complete_sets_of_different_colours_win() -> None:
    t = Table()
    t.setup(Ann=[*BLUE, *BROWN, *UTIL[:1]])
    t.to("Ann")
    assert not t.s.finished
    s = t.do(Lay(player="Ann", card=UTIL[1]))
    assert s.finished and s.winner() == ["Ann"] and s.waiting().kind == "over"
    # The win line names the colours as the cards do (it once said "brown, dark_blue, utility").
    assert s.story[-1] == "Ann wins with complete sets of Brown, Dark Blue and Utility"
    t.refuse(EndTurn(player="Ann"), "the game is over")


def test_a_payer_who_is_not_short_and_gives_too_little_is_told_to_add_cards_not_to_give_everything() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=["money-5-1", "money-1-1"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    with pytest.raises(IllegalAction) as refused:
        t.log.push(Pay(player="Ben", cards=[]))
    assert str(refused.value) == "Ben owes 5M and gives 0M: add cards worth 5M more from the bank or the table"
    assert "short payer" not in str(refused.value)


def test_the_table_ends_by_agreement_most_sets_then_most_money() -> None:
    from companion.games.monopoly_deal.rules import EndByAgreement

    t = Table()
    t.setup(Ann=[*BROWN, "money-2-1"], Ben=BLUE)
    s = t.do(EndByAgreement())  # one complete set each: Ben has more on the table (4M + 4M against 4M)
    assert s.finished and s.winner() == ["Ben"] and s.agreed
    assert s.story[-1] == ("the table ends the game by agreement: Ben wins with 1 complete set and 8M on "
                           "the table")
    t2 = Table()
    t2.setup(Ann=["money-1-1"], Ben=["money-1-2"])
    s2 = t2.do(EndByAgreement())
    assert s2.winner() == ["Ann", "Ben"] and s2.winner_name is None
    assert s2.waiting().sentence == "Ann and Ben share the game"


def test_two_sets_of_one_colour_count_once_towards_the_win() -> None:
    t = Table()
    t.setup(Ann=[*RED, "wild-red-yellow-1:red", "wild-red-yellow-2:red", "wild-multi-1:red", *BLUE])
    s = t.s
    assert len(s.complete_sets("Ann")) == 3 and s.complete_colours("Ann") == ["dark_blue", "red"]
    assert not s.finished


def test_a_multicolour_wild_alone_earns_no_rent_and_makes_no_set() -> None:
    t = Table()
    t.setup(Ann=["wild-multi-1:brown", "wild-multi-2:brown"])
    t.to("Ann")
    s = t.s
    assert s.complete_colours("Ann") == [] and s.rent_for("Ann", "brown") == 0
    t.refuse(Rent(player="Ann", card="rent-light-blue-brown-1", colour="brown"),
             "a multicolour wild alone earns no rent")
    s = t.do(MoveWild(player="Ann", card="wild-multi-2", colour="dark_blue"), Lay(player="Ann", card=BROWN[0]))
    assert s.complete_colours("Ann") == ["brown"] and s.rent_for("Ann", "brown") == 2


def test_a_win_by_payment_on_your_own_turn() -> None:
    t = Table()
    t.setup(Ann=[*BLUE, *BROWN, UTIL[0]], Ben=[UTIL[1]])
    t.to("Ann")
    s = t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"),
             Pay(player="Ben", cards=[UTIL[1]]))
    assert s.finished and s.winner() == ["Ann"]


def test_the_win_is_checked_on_the_winners_own_turn() -> None:
    t = Table()
    t.setup(Ann=[*BLUE, *BROWN, UTIL[0], GREEN[0]], Ben=[UTIL[1]])
    t.to("Ben")
    # Ben's Forced Deal gives Ann the second utility on Ben's turn: three sets, but Ann wins on her turn.
    s = t.do(ForcedDeal(player="Ben", card="action-forced-deal-1", target="Ann", take=GREEN[0], give=UTIL[1]),
             Accept(player="Ann"))
    assert s.complete_colours("Ann") == ["brown", "dark_blue", "utility"] and not s.finished
    s = t.do(EndTurn(player="Ben"))
    assert s.finished and s.winner() == ["Ann"]


# ---------------------------------------------------------------- bookkeeping


def test_illegal_events_change_nothing() -> None:
    t = Table()
    t.do(Draw(player="Ann"))
    t.refuse(Lay(player="Ann", card="no-such-card"), "there is no card 'no-such-card'")
    t.refuse(Lay(player="Zed", card=RED[0]), "Zed is not playing")
    t.refuse(Pay(player="Ben", cards=[]), "nobody owes anything")
    t.refuse(Accept(player="Ben"), "no action waits for an answer")


def test_a_card_seen_in_one_hand_cannot_be_played_from_another() -> None:
    t = Table(dealt={"Ben": ["money-10-1"]})
    t.do(Draw(player="Ann"))
    t.refuse(BankCard(player="Ann", card="money-10-1"), "it is in Ben's hand")


def test_a_hand_of_known_cards_plays_only_those() -> None:
    t = Table(dealt={"Ann": ["money-1-1", "money-1-2", "money-1-3", "money-1-4", "money-1-5"]})
    t.do(Draw(player="Ann", cards=["money-1-6", "money-2-1"]))
    assert t.s.possible_hand_cards("Ann") == ["money-1-1", "money-1-2", "money-1-3", "money-1-4", "money-1-5",
                                               "money-1-6", "money-2-1"]
    t.refuse(BankCard(player="Ann", card="money-10-1"), "all known and 10M is not one of them")


def test_every_card_is_in_exactly_one_place() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    s = t.setup(Ann=[*BLUE, "money-5-1"], Ben=[RED[0]],
                Cat=["money-10-1", ORANGE[0], PINK[0], YELLOW[0]])
    places = s.card_places()
    assert len(places) == 106 and places["money-10-1"] == "bank:Cat" and places[BLUE[1]] == "set:Ann:dark_blue"
    assert list(places.values()).count("unseen") == s.draw_count + sum(s.hands.values())
    s.check()


def test_deck_counts_of_forced_deal_and_hotel_are_a_house_rule() -> None:
    s = new_game(["Ann", "Ben"], HouseRules(forced_deal_count=4, hotel_count=3)).state
    assert s.deck is not None and len(s.deck.cards) == 108
    assert s.deck.ids_of(action="forced_deal")[-1] == "action-forced-deal-4"
    assert s.deck.ids_of(action="hotel") == ["hotel-1", "hotel-2", "hotel-3"]
    assert s.draw_count == 108 - 10
    s.check()


def test_waiting_and_allowed_events_tell_the_screens_what_comes_next() -> None:
    t = Table()
    assert t.s.allowed_events() == ["draw"] and t.s.current_player == "Ann"
    t.setup(Ann=RED[:1], Ben=["money-2-1"])
    t.to("Ann")
    assert {"bank", "lay", "rent"} <= set(t.s.allowed_events())
    assert {"end_turn", "discard"} & set(t.s.allowed_events())
    t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    w = t.s.waiting()
    assert (w.kind, w.player, w.amount, w.may_say_no) == ("answer", "Ben", 2, True)
    assert t.s.allowed_events() == ["just_say_no", "accept", "pay"] and t.s.current_player == "Ben"
    t.do(Accept(player="Ben"))
    assert t.s.allowed_events() == ["pay"]
