"""Monopoly Builder's table without a browser: the setup colours mapped onto the box, one tap = one engine
event (roll, buy, auction, rent, build...), the wording the screens show (hand-out, rent prompt, build
quote), refusals as sentences that change nothing, the app's own dice recorded in the log, the score
and the chart, the store round trip. The rules are the real engine's, the profile the real default one
(cheap floors only where a game must reach its penthouse quickly)."""

from __future__ import annotations

import pytest

from companion.events import effective_events
from companion.games.monopoly_builder.profile import load_profile, set_floor_cost
from companion.games.monopoly_builder.rules import Roll
from companion.games.monopoly_builder.table import (
    BuilderTable,
    box_colours,
    new_builder,
    rebuild,
    suggest_payment,
)
from companion.ui.persist import GameStore
from companion.ui.table import PlayerInfo, TableError

BOX = ["red", "purple", "green", "yellow"]
PLAYERS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]


def cheap_profile():
    """Every floor and the penthouse cost one resource of any colour: a game reaches its end in a few turns."""
    p = load_profile()
    for colour in p.colours.value:
        for floor in range(1, p.counts.max_floors.value + 2):
            p = set_floor_cost(p, colour, floor, colours={}, any_colour=1)
    return p


@pytest.mark.parametrize("picked, expected", [
    (["red", "blue"], ["red", "purple"]),  # blue is not in the box: the first colour nobody has
    (["amber", "green"], ["yellow", "green"]),  # the shell's amber is the box's yellow
    (["teal", "red", "blue", "amber"], ["purple", "red", "green", "yellow"]),
    (["red", "red"], ["red", "purple"]),  # a colour picked twice: the second player takes a free one
])
def test_setup_colours_map_onto_the_box(picked, expected):
    assert box_colours(picked, BOX) == expected


def test_the_shell_token_button_steps_through_the_box_colours():
    # Bob plays purple; the setup screen's Token button moves him to teal (not in the box): he takes the next
    # free box colour after purple, green; amber then stays yellow.
    assert box_colours(["red", "teal"], BOX, previous=["red", "purple"]) == ["red", "green"]
    assert box_colours(["red", "teal"], BOX, previous=["red", "yellow"]) == ["red", "purple"]
    assert box_colours(["red", "amber"], BOX, previous=["red", "green"]) == ["red", "yellow"]


def test_the_seats_keep_the_box_colour_and_the_shell_shows_it():
    g = new_builder([PlayerInfo("Ann", "amber"), PlayerInfo("Bob", "blue"), PlayerInfo("Cleo", "green")])
    assert [g.box_colour(p) for p in g.players] == ["yellow", "red", "green"]
    assert [p.colour for p in g.player_info] == ["amber", "red", "green"]
    assert g.token_name("Ann") == "Rubber Ducky"
    assert g.hand("Ann") == {"red": 0, "purple": 0, "green": 0, "yellow": 4}  # 4 of the player's own colour
    assert g.chip_lines("Ann") == ["M900", "4 chips 4Y"]


def test_five_players_are_refused_with_a_sentence():
    five = [PlayerInfo(n, c) for n, c in zip("ABCDE", ["red", "blue", "green", "amber", "purple"])]
    with pytest.raises(TableError, match=r"^Monopoly Builder is for 2-4 players, not 5\.$"):
        new_builder(five)


def test_a_game_to_the_penthouse_through_the_table():
    g = new_builder(PLAYERS, cheap_profile())
    assert g.waiting_for() == "Ann rolls the dice."
    g.roll(2, 3)
    assert g.turn_lines == ["Ann rolls 2+3 = 5.", "Ann lands on Oriental Avenue."]
    assert g.deed_line(g.deed_here()) == ("Oriental Avenue (Light Blue): price M100, rent M50 (M100 with the "
                                          "monopoly), gives 2 green on a roll of 11.")
    g.buy()
    g.end_turn()
    g.roll(1, 4)  # Bob lands on Ann's Oriental Avenue
    owner, sentence, amount = g.rent_prompt()
    assert (owner, amount) == ("Ann", 50) and "until the next player rolls" in sentence
    g.ask_rent()
    # said once, naming the deed and the amount (the ledger's "Bob pays M50 to Ann" is not repeated)
    assert g.turn_lines == ["Ann asks Bob for M50 rent on Oriental Avenue."] and g.rent_prompt() is None
    g.bank_trade("purple", "yellow")  # 4 purple for 1 yellow
    assert g.hand("Bob") == {"red": 0, "purple": 0, "green": 0, "yellow": 1}
    g.end_turn()
    g.roll(3, 3)  # a 6: every player takes 2 of their colour; doubles: Ann rolls again
    assert g.handout_lines() == ["Ann takes 2 red (a roll of 6).", "Bob takes 2 purple (a roll of 6)."]
    assert g.roll_line() == "Last roll: 3 + 3 = 6, doubles."
    g.auction()
    assert g.least_bid() == 10
    g.bid("Bob", 10)
    assert g.least_bid() == 15
    g.bid("Ann", 20)
    g.close_auction()
    assert g.turn_lines[0] == "Ann wins Virginia Avenue for M20."
    for floor in range(1, 5):
        quote = g.build_quote("A1")
        assert quote == (floor, f"floor {floor} on A1 costs 1 of any colour", {"red": 1})
        g.build("A1", quote[2])
    g.build("B1", {"red": 1})
    assert [[s.height for s in row[:2]] for row in g.sites()[:1]] == [[4, 1]]
    assert g.sites()[0][0].label == "A1 Ann 4 floors"
    g.end_turn()
    assert g.current_player == "Ann"  # the doubles' second roll
    g.roll(1, 2)
    g.chance("dividend")
    quote = g.build_quote("A1")
    assert quote[:2] == (5, "the penthouse on A1 costs 1 of any colour")
    g.build("A1", quote[2])
    assert g.finished and g.winner() == ["Ann"]
    ann = g.scores()["Ann"]
    assert (ann.buildings, ann.building_points, ann.community_size, ann.community, ann.billionaire, ann.total) == \
        ((5, 1), 17, 2, 5, 3, 25)
    assert g.ranking() == ["Ann", "Bob"]
    assert g.history()[-1] == {"Ann": 25, "Bob": 0}


def test_the_rent_prompt_expires_at_the_next_roll():
    g = new_builder(PLAYERS)
    g.roll(2, 3)
    g.buy()
    g.end_turn()
    g.roll(1, 4)
    assert g.rent_prompt() is not None
    g.end_turn()
    g.roll(1, 2)  # Ann rolls: the owner did not ask in time, and the table is told
    assert g.rent_prompt() is None
    assert "Ann did not ask Bob for the M50 rent on Oriental Avenue: the rent is lost." in g.turn_lines
    with pytest.raises(TableError, match="rent is asked before the next player rolls, or it is lost"):
        g.ask_rent()


def test_refusals_are_sentences_and_change_nothing():
    g = new_builder(PLAYERS)
    events, moves = len(g.log.events), g.moves
    with pytest.raises(TableError, match=r"^Buying is not possible now: Ann rolls the dice\.$"):
        g.buy()
    with pytest.raises(TableError, match="Building is not possible now"):
        g.build("A1", {"red": 2})
    assert (len(g.log.events), g.moves) == (events, moves)
    g.roll(2, 3)
    g.auction()
    with pytest.raises(TableError, match=r"the next bid is at least M10"):
        g.bid("Bob", 5)
    g.bid("Bob", 10)
    with pytest.raises(TableError, match=r"at least M15 \(raises of at least M5\)"):
        g.bid("Ann", 12)
    g.close_auction()
    g.build("A1", {"red": 2})
    g.end_turn()
    g.roll(1, 1)  # Bob: doubles, to Steal 1 Resource... whatever the space asks, Bob may not build on Ann's block
    quote = BuilderTable.build_quote(g, "A1")
    assert isinstance(quote, str) and quote.startswith("The building on A1 is Ann's")


def test_the_app_rolls_and_the_dice_are_in_the_log():
    g = new_builder(PLAYERS, settings={"dice": "rolled"})
    message = g.rolled_by_app(BuilderTable.roll)
    roll = [e for e in effective_events(g.log.events) if isinstance(e, Roll)][-1]
    a, b = roll.dice
    assert 1 <= a <= 6 and 1 <= b <= 6 and g.bstate.last_roll == (a, b)
    assert message.startswith(f"The app rolled {a} + {b} = {a + b}")
    assert g.settings.dice == "rolled"


def test_the_suggested_payment_pays_named_colours_then_levels_the_hand():
    # Named colours first, then each 'any' chip from the colour held most at that point (box order on a tie).
    assert suggest_payment({"red": 1, "green": 1}, 1, {"red": 3, "green": 1, "purple": 2}, BOX) == \
        {"red": 2, "green": 1}
    assert suggest_payment({}, 3, {"red": 1, "purple": 2, "yellow": 2}, BOX) == {"red": 1, "purple": 1, "yellow": 1}
    assert suggest_payment({}, 2, {"green": 5, "yellow": 1}, BOX) == {"green": 2}


def test_undo_and_a_restart_give_the_same_game(tmp_path):
    g = new_builder(PLAYERS, settings={"bonus_tie": "all"})
    g.roll(2, 3)
    g.buy()
    g.undo()
    assert g.turn_lines == ["The last action was undone."] and g.phase == "buy"
    g.auction()
    store = GameStore(tmp_path)
    store.save(g)
    again, _note = GameStore(tmp_path).resume()
    assert again is not None and again.id == g.id and isinstance(again, BuilderTable)
    assert again.bstate.summary() == g.bstate.summary()
    assert again.colour("Bob") == "purple" and again.settings.bonus_tie == "all"
    copy = rebuild("x", again.table_settings(), list(g.log.events))
    assert copy.bstate.summary() == g.bstate.summary()


def test_discard_free_parking_steal_and_jail_through_the_table():
    g = new_builder(PLAYERS)
    g.roll(3, 3)  # a 6 (2 red) and Roll for Resources
    assert g.phase == "resource_roll" and g.chart_line().startswith("Chart: 2 red, 3 red")
    g.resource_roll(1, 1)
    assert "Ann takes 2 red (a roll of 6), 2 red (Roll for Resources (2))." in g.handout_lines()
    g.end_turn()  # doubles: Ann again, with 8 resources
    assert g.waiting_for() == "Ann has 8 resources: discard 2 onto their space."
    with pytest.raises(TableError, match="must discard exactly 2"):
        g.discard({"red": 1})
    g.discard({"red": 2})
    assert g.turn_lines == ["Ann discards 2 red onto Roll for Resources."]
    assert "Resources on spaces: Roll for Resources: 2 red." in g.follow_lines()
    g.roll(5, 5)  # Free Parking
    with pytest.raises(TableError, match="a different type"):
        g.free_parking({"red": 2}, "red")
    g.free_parking({"red": 2}, "green")
    assert g.hand("Ann") == {"red": 4, "purple": 0, "green": 1, "yellow": 0}
    g.end_turn()
    g.roll(2, 2)  # the third doubles in a row: Jail, and the turn passes
    assert g.current_player == "Bob" and "Ann rolls doubles three times in a row and goes to Jail." in g.turn_lines
    g.roll(6, 6)  # Bob passes Roll for Resources and picks up Ann's discards, lands on Steal 1 Resource
    assert "Bob takes 2 red (picked up on Roll for Resources)." in g.handout_lines()
    g.steal("Ann", "green")
    assert g.hand("Bob")["green"] == 1 and g.turn_lines == ["Bob steals a green resource from Ann."]
    g.end_turn()
    g.discard({"purple": 3})  # Bob's second roll starts a turn: 9 resources, down to 6
    g.roll(1, 2)  # Bob's doubles roll: New York Avenue, nobody bids
    g.auction()
    g.close_auction()
    g.end_turn()
    assert g.turn_lines == ["Bob ends the turn."]
    assert g.waiting_for() == "Ann is in Jail: pay M50, use a card, or roll for doubles."
    assert g.chip_lines("Ann")[-1] == "in Jail"
    g.jail_pay()
    assert g.turn_lines == ["Ann pays M50 and leaves Jail."]  # said once
    assert g.phase == "roll" and g.bstate.cash["Ann"] == 850


def test_a_debt_holds_the_turn_until_paid_or_bankrupt():
    g = new_builder(PLAYERS)
    g.roll(2, 3)
    g.buy()
    assert g.trade("Ann", "Bob", {}, {"cash": 900}) == "Ann and Bob trade: nothing for M900."
    g.end_turn()
    g.roll(1, 4)  # Bob, penniless, on Ann's Oriental Avenue
    g.ask_rent()
    assert g.current_player == "Bob" and g.waiting_for().startswith("Bob owes M50 to Ann (rent on Oriental Avenue)")
    with pytest.raises(TableError, match="Bob must first pay the M50 owed to Ann"):
        g.end_turn()
    with pytest.raises(TableError, match=r"^Ann has M1,700, not the M5,000 offered\.$"):
        g.trade("Ann", "Bob", {"cash": 5000}, {})  # Ann does not have it: refused, nothing changes
    g.bankrupt("Bob")
    assert g.bstate.bankrupt == ["Bob"] and g.hand("Ann")["purple"] == 4 and g.chip_lines("Bob")[-1] == "bankrupt"
    assert g.current_player == "Ann"


def test_the_next_roll_ends_the_turn_in_one_tap():
    g = new_builder(PLAYERS)
    g.roll(2, 3)
    assert g.next_roller() is None  # Ann must buy or auction first
    g.buy()
    assert g.next_roller() == "Bob"
    events = len(g.log.events)
    g.end_and_roll(1, 4)
    assert len(g.log.events) == events + 1 and g.log.events[-1] == Roll(player="Bob", dice=(1, 4))  # one event
    assert g.turn_lines[:2] == ["Ann ends the turn.", "Bob rolls 1+4 = 5."] and g.rent_prompt() is not None
    g.undo()  # takes back the one event: Bob's roll, and with it the end of Ann's turn
    assert g.waiting_for() == "Ann trades and builds, then ends the turn."
    g.end_turn()  # the old way, two events, still works
    assert g.turn_lines == ["Ann ends the turn."] and g.waiting_for() == "Bob rolls the dice."
    with pytest.raises(TableError, match="End the turn first"):
        g.end_and_roll(1, 1)
    g.roll(3, 3)  # doubles, to Roll for Resources
    g.resource_roll(1, 1)
    assert g.next_roller() is None  # Bob holds 8 resources: his next roll starts with a discard
    g.discard({"purple": 2})  # doubles: the discard begins his next turn, no end_turn to record
    g.roll(1, 2)  # St. Charles Place
    g.auction()
    g.close_auction()
    assert g.next_roller() == "Ann"
    g.end_and_roll(6, 6)  # Ann: doubles, to Kentucky Avenue
    g.auction()
    g.close_auction()
    assert g.next_roller() is None  # Ann picked up Bob's discards on the way: 8 resources, a discard first
    g.discard({"red": 2})
    g.roll(3, 4)  # Ann again: Go to Jail, the turn passes to Bob
    assert g.current_player == "Bob" and "Ann" in g.bstate.jail
    g.roll(1, 2)  # Steal 1 Resource
    g.steal(None, None)
    assert g.next_roller() is None  # Ann starts in Jail: pay, card or roll for doubles, not a plain roll


def test_the_profile_editor_reads_and_writes_a_roll_for_resources_chart():
    from companion.games.monopoly_builder.profile_editor import chart_text, parse_chart

    chart = load_profile().track.spaces[6].chart
    assert chart_text(chart).startswith("2 red, 3 red, 4 red, 5 purple") and parse_chart(chart_text(chart)) == chart
    with pytest.raises(ValueError, match=r"^'nine yellow' is not a dice total and a colour, like '9 yellow'\.$"):
        parse_chart("2 red, nine yellow")


def test_kept_chance_cards_a_forced_trade_and_leaving_jail_with_a_card():
    g = new_builder(PLAYERS)
    g.roll(1, 3)  # Ann: Chance
    assert ("forced_trade", "FORCED TRADE! Make another player trade you a resource you want for one of yours") in \
        g.drawable_cards()
    g.chance("forced_trade")
    g.forced_trade("Bob", "red", "purple")
    assert g.hand("Ann") == {"red": 3, "purple": 1, "green": 0, "yellow": 0}
    assert g.turn_lines == ["Ann forces Bob to trade a purple for a red."] and g.kept_cards("Ann") == []
    g.end_and_roll(1, 3)  # Bob: Chance too
    g.chance("get_out_of_jail")
    assert g.kept_cards("Bob") == ["get_out_of_jail"]
    g.end_and_roll(4, 4)  # Ann: doubles, to Steal 1 Resource
    g.steal(None, None)
    g.roll(6, 6)  # Ann's second doubles (the next roll after doubles, no end_turn): from 12 to 24, Go to Jail
    assert "Ann" in g.bstate.jail and g.current_player == "Bob"
    with pytest.raises(TableError, match="Bob is not in Jail"):
        g.jail_card()
    g.roll(1, 2)  # Bob: Vermont Avenue
    g.auction()
    g.close_auction()
    assert g.trade("Bob", "Ann", {"cards": ["get_out_of_jail"]}, {"cash": 20}) == \
        "Bob and Ann trade: Get Out of Jail Free for M20."
    g.end_turn()
    g.jail_card()  # Ann bought the card: out of Jail, then she rolls
    assert g.turn_lines == ["Ann uses a Get Out of Jail Free card."] and g.waiting_for() == "Ann rolls the dice."


def test_the_profile_editor_refuses_an_unplayable_profile_and_saves_a_playable_one(tmp_path, monkeypatch):
    """The editor's taps without a browser (one tab's `AppState`), on a real data folder."""
    import json

    from companion.games.monopoly_builder.profile_editor import profile_actions, profile_file
    from companion.ui.hub import HUB
    from companion.ui.models import AppState

    monkeypatch.setattr(HUB, "store", GameStore(tmp_path))
    saved = profile_file()
    assert saved == tmp_path / "profiles" / "monopoly_builder.json"
    saved.parent.mkdir(parents=True)
    broken = load_profile().model_dump(mode="json")
    broken["foundations"]["value"] = ["....", "...."]
    saved.write_text(json.dumps(broken))
    app = AppState(chosen_game="monopoly_builder")
    act = profile_actions(app)
    profile = act.table_profile()  # the saved file cannot be played: said, and the box defaults are used
    assert app.error == ("The saved board profile cannot be used (the board profile cannot be played: the building "
                         "foundations grid has no foundation cell ('#'): mark at least one); the box defaults are used.")
    assert profile.foundation_cells()[:2] == ["A1", "B1"]
    act.tab.profile = profile
    act.pick_deed("oriental_avenue", touch=False)
    act.tab.deed_fields["price"] = "-5"
    act.set_deed()
    assert app.error.endswith("the deed Oriental Avenue has a negative price. Nothing was changed.")
    assert act.tab.profile.number("oriental_avenue", "price") == 100
    act.tab.deed_fields["price"] = "120"
    act.set_deed()
    act.save()
    assert app.info.startswith("Board profile saved") and load_profile(saved).number("oriental_avenue", "price") == 120
    assert load_profile(saved).deed("oriental_avenue").price.confidence == "table"


def test_the_setup_screen_offers_the_bank_trade_and_rent_window_settings():
    from companion.games.monopoly_builder.table import DEFAULT_SETTINGS, SETTING_CHOICES

    assert DEFAULT_SETTINGS["bank_trade"] == "trade_step" and DEFAULT_SETTINGS["rent_window"] == "next_player"
    assert [k for k, _ in SETTING_CHOICES["bank_trade"]] == ["trade_step", "your_turn"]
    g = new_builder(PLAYERS, settings={"bank_trade": "your_turn", "rent_window": "next_roll"})
    assert (g.settings.bank_trade, g.settings.rent_window) == ("your_turn", "next_roll")
    g.bank_trade("red", "purple")  # before the roll: allowed with this setting
    assert g.hand("Ann")["purple"] == 1
    g = new_builder(PLAYERS)
    with pytest.raises(TableError, match="Trade step"):
        g.bank_trade("red", "purple")
