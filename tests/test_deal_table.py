"""Monopoly Deal's table without a browser: the taps the screens make, on the real engine and deck.

What the table adds to the engine is tested here: cards chosen by face from what can still be in a hand
(never typed), the ordinary turn and its sentences, the payment the screen preselects, the Just Say No
chain in words, the discard to the hand limit (one tap, one event), what the screens offer (only the
rules' legal moves), refusals that change nothing, the end chart,
and the store round trip (save, restart, resume)."""

from __future__ import annotations

import pytest

from companion.games.monopoly_deal.rules import HouseRules, new_game
from companion.games.monopoly_deal.table import DealTable, new_deal
from companion.ui.persist import GameStore
from companion.ui.table import PlayerInfo, TableError

PLAYERS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]


def table(house: HouseRules | None = None, dealt: dict[str, list[str]] | None = None) -> DealTable:
    return DealTable(PLAYERS, new_game([p.name for p in PLAYERS], house=house, dealt=dealt))


def ordinary_first_turns(g: DealTable) -> None:
    """Ann: Boardwalk, Park Place (complete), 3M. Bob: Kentucky Avenue, 2M, rent 2M; Ann pays."""
    g.draw()
    g.lay("Boardwalk")
    g.lay("Park Place")
    g.bank("3M")
    g.end_turn()
    g.draw()
    g.lay("Kentucky Avenue")
    g.bank("2M")
    g.rent("Rent Red / Yellow (all players)", "red", None)


def test_the_picker_offers_the_faces_that_can_be_in_the_hand_once_each():
    g = new_deal(PLAYERS)
    assert g.faces("Ann") == []  # nothing to play before the draw
    g.draw()
    faces = [f.key for f in g.faces("Ann")]
    assert len(faces) == len(set(faces))  # six 1M cards are one face
    assert faces[:6] == ["1M", "2M", "3M", "4M", "5M", "10M"]  # money first: an ordinary turn banks often
    assert "Boardwalk" in faces and "Just Say No!" in faces
    g.lay("Boardwalk")
    assert "Boardwalk" not in [f.key for f in g.hand_faces("Ann")] + [f.key for f in g.hand_faces("Bob")]
    # The ten Pass Go cards are one face until the last one is seen.
    for _ in range(2):
        g.bank("Pass Go")
    assert "Pass Go" in [f.key for f in g.hand_faces("Bob")]


def test_a_card_seen_in_a_hand_is_the_one_played():
    g = table(dealt={"Ann": ["money-1-4"]})
    assert g.card_for("Ann", "1M") == "money-1-4"  # the table saw it dealt to Ann
    assert g.card_for("Bob", "1M") == "money-1-1"


def test_a_face_that_cannot_be_in_the_hand_is_refused_and_changes_nothing():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    moves = g.moves
    with pytest.raises(TableError, match="No Boardwalk can be in Ann's hand: pick a card from the list."):
        g.lay("Boardwalk")
    assert g.moves == moves and g.st.plays == 1


def test_an_ordinary_turn_in_words_and_state():
    g = new_deal(PLAYERS)
    assert g.status() == "Ann draws 2."
    assert g.draw() == "Ann draws 2."
    assert g.status() == "Ann's turn: 3 of 3 plays left."
    assert g.lay("Boardwalk") == "Ann lays Boardwalk (Dark Blue)."
    assert g.lay("Park Place") == "Ann lays Park Place (Dark Blue)."
    assert g.bank("3M") == "Ann banks 3M."
    board = g.board("Ann")
    assert (board.bank_total, board.hand, board.complete) == (3, 4, 1)
    (dark_blue,) = board.sets
    assert (dark_blue.count, dark_blue.complete, dark_blue.rent, dark_blue.house) == ("2/2", True, 8, False)
    assert g.chip_lines("Ann") == ["Bank 3M", "Hand 4", "Sets 1 of 3"]
    assert g.end_turn() == "Ann ends the turn; Bob to play."


def test_the_payment_preselected_is_the_cheapest_and_no_change_is_given():
    g = new_deal(PLAYERS)
    ordinary_first_turns(g)
    assert g.status() == "Ann pays Bob 2M or says Just Say No."
    # Ann holds 3M in the bank and two 4M dark blues: the 3M costs her least (her set stays whole).
    assert set(g.payable("Ann")) == {"money-3-1", "prop-dark-blue-park-place", "prop-dark-blue-boardwalk"}
    assert g.proposal("Ann", 2) == ["money-3-1"]
    assert g.pay("Ann", ["money-3-1"]) == "Ann pays Bob 3M: no change on 1M."
    assert g.board("Bob").bank_total == 5 and g.board("Ann").bank_total == 0
    with pytest.raises(TableError, match="Nobody owes anything now"):
        g.pay("Ann", [])


def test_rent_with_a_house_and_double_the_rent_a_countered_just_say_no_and_a_short_payer():
    g = new_deal(PLAYERS)
    ordinary_first_turns(g)
    g.pay("Ann", ["money-3-1"])
    g.end_turn()
    g.draw()
    g.build("House", "dark_blue")
    assert g.board("Ann").sets[0].house and g.board("Ann").sets[0].rent == 11
    g.rent("Rent Dark Blue / Green (all players)", "dark_blue", None, doubles=1)
    assert g.st.plays_left == 0  # the house, the rent and the Double the Rent: three plays
    assert g.chain_lines() == ["Ann charges Bob 22M rent for Dark Blue (doubled)."]
    g.just_say_no("Bob")
    g.just_say_no("Ann")
    assert g.chain_lines() == [
        "Ann charges Bob 22M rent for Dark Blue (doubled).", "Bob says Just Say No!", "Ann says Just Say No!",
        "The rent stands again, unless Bob answers with another."]
    assert g.st.plays_left == 0 and g.board("Ann").hand == 2  # a Just Say No is no play
    assert sorted(g.proposal("Bob", 22)) == sorted(g.payable("Bob"))  # short: everything goes
    assert g.pay("Bob", g.proposal("Bob", 22)) == "Bob pays Ann 8M: all Bob had; 14M forgiven."
    assert g.chain_lines() == []
    assert [s.count for s in g.board("Ann").sets] == ["2/2", "1/3"]  # Kentucky Avenue came as property
    assert g.payment_lines() == [
        "Bob paid Ann 8M of 22M (rent for Dark Blue): 2M, 3M, Kentucky Avenue; 14M forgiven.",
        "Ann paid Bob 3M of 2M (rent for Red): 3M; 1M over, no change."]


def test_double_the_rent_cannot_be_a_fourth_play_and_the_refusal_changes_nothing():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    g.lay("Park Place")
    moves, hand = g.moves, g.board("Ann").hand
    with pytest.raises(TableError, match="takes 2 plays and Ann has 1 left"):
        g.rent("Rent Dark Blue / Green (all players)", "dark_blue", None, doubles=1)
    assert g.moves == moves and g.board("Ann").hand == hand and g.st.pending is None


def test_the_flows_offer_only_the_rules_legal_moves():
    from companion.games.monopoly_deal.rules import BankCard, Build, DoubleRent, Lay, Rent

    g = table(house=HouseRules(double_with_any_rent=False, stack_double_rent=False))
    g.draw()
    assert not [m for m in g.offers("Ann", "House") if isinstance(m, Build)]  # no complete set yet
    g.lay("Electric Company")
    g.lay("Water Works")
    assert g.st.complete_colours("Ann") == ["utility"]
    assert not [m for m in g.offers("Ann", "House") if isinstance(m, Build)]  # never on utilities
    rents = [m for m in g.offers("Ann", "Rent Railroad / Utility (all players)") if isinstance(m, Rent)]
    assert [m.colour for m in rents] == ["utility"]  # no railroad: no rent for it
    assert [m.colour for m in g.offers("Ann", "Pink / Orange wild") if isinstance(m, Lay)] == ["pink", "orange"]
    assert len([m for m in g.offers("Ann", "Multicolour property wild") if isinstance(m, Lay)]) == 10
    assert not [m for m in g.offers("Ann", "Multicolour property wild") if isinstance(m, BankCard)]  # no value
    assert not [m for m in g.offers("Ann", "Boardwalk") if isinstance(m, BankCard)]
    assert [m for m in g.offers("Ann", "Sly Deal") if isinstance(m, BankCard)]
    # Double the Rent joins a rent just charged, as its own tap; not with the any-colour rent on this table.
    g.rent("Rent (any colour, one player)", "utility", "Bob")
    assert not g.offered(DoubleRent)


def test_double_the_rent_is_its_own_tap_joined_to_the_rent():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    g.end_turn()
    g.draw()
    g.bank("5M")
    g.end_turn()
    g.draw()
    g.lay("Park Place")
    g.rent("Rent Dark Blue / Green (all players)", "dark_blue", None)
    assert g.chain_lines()[0] == "Ann charges Bob 8M rent for Dark Blue."
    moves = g.moves
    assert g.double_rent("Ann") == "Ann doubles the rent with Double the Rent: Bob owes 16M."
    assert g.moves == moves + 1 and g.st.plays == 3
    assert g.chain_lines()[0] == "Ann charges Bob 16M rent for Dark Blue (doubled)."
    with pytest.raises(TableError, match="has used all 3 plays"):
        g.double_rent("Ann")


def test_sly_deal_forced_deal_and_deal_breaker_through_the_table():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    g.lay("Park Place")
    g.lay("Baltic Avenue")
    g.end_turn()
    g.draw()
    g.lay("St. James Place")
    from companion.games.monopoly_deal.rules import SlyDeal

    takes = [m.take for m in g.offers("Bob", "Sly Deal") if isinstance(m, SlyDeal)]
    assert takes == ["prop-brown-baltic-avenue"]  # the complete dark blue set is not offered
    g.sly_deal("Sly Deal", "Ann", "prop-brown-baltic-avenue")
    assert g.chain_lines()[0] == "Bob plays Sly Deal on Ann: takes Baltic Avenue."
    g.accept("Ann")
    assert [s.colour for s in g.board("Bob").sets] == ["orange", "brown"]
    g.deal_breaker("Deal Breaker", "Ann", "dark_blue")
    assert g.chain_lines()[0] == "Bob plays Deal Breaker on Ann: takes the complete Dark Blue set."
    g.accept("Ann")
    assert g.board("Bob").complete == 1 and g.board("Ann").sets == ()
    g.end_turn()
    g.draw()
    g.lay("Mediterranean Avenue")
    g.forced_deal("Forced Deal", "Bob", "prop-orange-st-james-place", "prop-brown-mediterranean-avenue")
    assert g.chain_lines()[0] == "Ann plays Forced Deal on Bob: Mediterranean Avenue for St. James Place."
    g.accept("Bob")
    assert g.board("Bob").sets[-1].count == "2/2"  # Mediterranean joins Baltic: brown complete


def test_the_discard_to_the_hand_limit_is_one_tap_and_the_end_another():
    g = new_deal(PLAYERS)
    g.draw()
    g.pass_go("Pass Go")
    g.pass_go("Pass Go")
    assert g.board("Ann").hand == 9
    with pytest.raises(TableError, match="Ann holds 9 cards: discard 2 to end the turn with 7"):
        g.end_turn()
    with pytest.raises(TableError, match="Ann holds 9 cards and discards down to 7: 2 cards, not 3."):
        g.discard(["1M", "2M", "3M"])  # the rules, not the table, say how many
    assert g.board("Ann").hand == 9 and g.st.turn_player == "Ann"
    assert g.discard(["1M", "Pass Go"]) == "Ann discards 2."
    assert g.board("Ann").hand == 7 and g.st.discard[-2:] == ["money-1-1", "action-pass-go-3"]
    assert g.end_turn() == "Ann ends the turn; Bob to play."


def test_the_end_chart_starts_at_the_deal_and_ends_at_the_win():
    g = new_deal(PLAYERS)
    ordinary_first_turns(g)
    g.pay("Ann", ["money-3-1"])
    g.end_turn()
    history = g.history()
    assert history == [{"Ann": 0, "Bob": 0}, {"Ann": 11, "Bob": 0}, {"Ann": 8, "Bob": 8}]
    g.undo()
    assert g.history() == history[:2]  # undone turns leave the chart


def test_a_saved_game_resumes_with_its_table(tmp_path):
    store = GameStore(tmp_path)
    g = new_deal(PLAYERS, HouseRules(excess_cards_to="draw_pile_bottom"))
    ordinary_first_turns(g)
    store.save(g)
    assert store.error == ""
    again, note = GameStore(tmp_path).resume()
    assert "Resumed the open game of Ann, Bob" in note
    assert isinstance(again, DealTable) and again.id == g.id and again.colour("Bob") == "blue"
    assert again.status() == "Ann pays Bob 2M or says Just Say No."
    assert again.st.house.excess_cards_to == "draw_pile_bottom"
    assert again.board("Ann") == g.board("Ann")


def test_any_colour_rent_charges_one_chosen_player_and_birthday_and_debt_collector_charge_in_turn():
    g = DealTable([*PLAYERS, PlayerInfo("Cat", "green")], new_game(["Ann", "Bob", "Cat"]))
    for who, card in (("Ann", "Boardwalk"), ("Bob", "2M"), ("Cat", "1M")):
        g.draw()
        g.lay(card) if who == "Ann" else g.bank(card)
        g.end_turn()
    g.draw()
    with pytest.raises(TableError, match="The any-colour rent charges one player: say who."):
        g.rent("Rent (any colour, one player)", "dark_blue", None)
    g.rent("Rent (any colour, one player)", "dark_blue", "Cat")
    assert g.chain_lines() == ["Ann charges Cat 3M rent for Dark Blue."]
    assert g.status() == "Cat pays Ann 3M or says Just Say No."
    assert g.proposal("Cat", 3) == ["money-1-1"]
    assert g.pay("Cat", ["money-1-1"]) == "Cat pays Ann 1M: all Cat had; 2M forgiven."
    g.birthday("It's My Birthday")
    # Bob first (seating order from Ann's left); Cat has nothing left to pay, so her part settles itself.
    assert g.chain_lines()[0] == "It's Ann's birthday: Bob owes 2M."
    assert g.pay("Bob", ["money-2-1"]) == "Bob pays Ann 2M."
    assert g.st.pending is None and g.status() == "Ann's turn: 1 of 3 plays left."
    g.end_turn()
    g.draw()
    g.debt_collector("Debt Collector", "Ann")
    assert g.chain_lines()[0] == "Bob plays Debt Collector: Ann owes 5M."
    assert sorted(g.proposal("Ann", 5)) == ["money-1-1", "prop-dark-blue-boardwalk"]  # 5M exactly
    assert g.pay("Ann", ["money-1-1", "prop-dark-blue-boardwalk"]) == "Ann pays Bob 5M."
    assert [s.count for s in g.board("Bob").sets] == ["1/2"]  # a paid property goes to the property area


def test_a_wild_lays_in_a_colour_and_moves_on_its_owners_turn_without_a_play():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Red / Yellow wild", "red")
    assert g.wild_moves("Ann") == {"wild-red-yellow-1": ["yellow"]} and g.wild_colour("wild-red-yellow-1") == "red"
    assert g.move_wild("wild-red-yellow-1", "yellow") == "Ann moves Red / Yellow wild to Yellow."
    assert g.st.plays == 1 and [s.colour for s in g.board("Ann").sets] == ["yellow"]
    with pytest.raises(TableError):
        g.move_wild("wild-red-yellow-1", "green")  # not one of its colours


def test_the_setup_form_offers_every_house_rule_with_its_default_and_starts_with_the_answers():
    from companion.games.monopoly_deal.rules import VARIANT
    from companion.games.monopoly_deal.setup import HOUSE_RULES, start
    from companion.ui.models import AppState

    asked = {name for name, _, _ in HOUSE_RULES}
    assert asked == set(HouseRules.model_fields)  # a new house rule is asked at setup too
    for name, _, options in HOUSE_RULES:
        assert getattr(HouseRules(), name) in [value for value, _ in options], name  # the default is offered
    app = AppState()
    tab = app.local(VARIANT)
    tab.house["excess_cards_to"] = "draw_pile_bottom"
    tab.house["hotel_count"] = 3
    game = start(app, [*PLAYERS, PlayerInfo("Cat", "green")])
    assert game.st.house.excess_cards_to == "draw_pile_bottom" and game.players == ["Ann", "Bob", "Cat"]
    assert len(game.st.deck.ids_of(action="hotel")) == 3  # the deck follows the house rule


def test_cards_over_the_limit_may_go_face_down_under_the_draw_pile_with_that_house_rule():
    g = table(house=HouseRules(excess_cards_to="draw_pile_bottom"))
    g.draw()
    g.pass_go("Pass Go")
    assert g.board("Ann").hand == 8
    pile = g.st.draw_count
    assert g.discard([], face_down=True) == "Ann discards 1 face down under the draw pile."
    assert g.board("Ann").hand == 7 and g.st.draw_count == pile + 1 and g.st.discard == ["action-pass-go-1"]
    g = new_deal(PLAYERS)  # the box's rule: face up on the discard pile, named
    g.draw()
    g.pass_go("Pass Go")
    with pytest.raises(TableError, match="This table discards face up"):
        g.discard([], face_down=True)


def test_the_follower_header_says_who_answers_or_pays_not_who_plays():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    g.end_turn()
    g.draw()
    g.bank("5M")
    g.end_turn()
    g.draw()
    assert g.doing() == "to play"
    g.debt_collector("Debt Collector", "Bob")
    assert g.current_player == "Bob" and g.doing() in ("to answer", "to pay")
    assert g.doing() == "to answer"  # Bob's hand is unseen: he may hold a Just Say No


def test_the_payment_note_tells_a_payer_who_is_not_short_to_add_cards():
    g = new_deal(PLAYERS)
    g.draw()
    g.lay("Boardwalk")
    g.end_turn()
    g.draw()
    g.bank("5M")
    g.end_turn()
    g.draw()
    g.debt_collector("Debt Collector", "Bob")
    assert g.payment_note("Bob", 5, []) == "Paying 0M for 5M: not enough. Tap cards worth 5M more."
    assert g.payment_note("Bob", 5, ["money-5-1"]) == "Paying 5M for 5M. Exact: no change is due."
    assert "short payer" in g.payment_note("Bob", 9, [])  # only a payer who is short hears of it


def test_no_screen_module_decides_what_is_legal():
    """Issue #26: the rules (`rules.py`, `legal.py`) are the one source of what is legal. The table and
    the screens read the legal moves; none of them reads a house rule or a rule helper to decide again
    what may be played (the copies `double_limit`, `givable`, `buildable`, `can_bank` were deleted)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "companion" / "games" / "monopoly_deal"
    forbidden = (".house.", "takeable(", "double_limit", "givable", "buildable", "can_bank", "can_be(",
                 "bank_property_wilds", "forced_deal_from_full_set", "stack_double_rent", "double_with_any_rent",
                 "excess_cards_to", "open_rent_to_double", ".buildings", "complete_sets(", "may_say_no(")
    for name in ("table.py", "turn.py", "ui.py", "cards.py"):
        text = (folder / name).read_text(encoding="utf-8")
        found = [word for word in forbidden if word in text]
        assert not found, f"{name} decides legality itself: {found}"
