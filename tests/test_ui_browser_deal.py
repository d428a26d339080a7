"""A whole Monopoly Deal game played through the real app in Chromium at phone width, with a follower.

Ann and Bob; the referee picks every card from the faces that can be in the player's hand (never types):
- an ordinary turn (Bob: draw 2, lay a property, bank a money card, charge rent, Ann pays, end turn),
  its taps counted;
- the payment screen: the engine's cheapest payment preselected (Ann's 3M for a 2M rent: no change);
  a card added that is not needed is flagged, and the rules refuse the payment;
- rent with a house and Double the Rent (Ann: Dark Blue 8M + house 3M, doubled: 22M);
- a Just Say No countered (Bob says no, Ann says no to his no), the chain shown to the follower;
- a short payer (Bob has 8M in bank and properties: everything goes, 14M forgiven);
- the hand limit (Bob's three Pass Go leave him 8 cards: he discards one, then ends the turn);
- Double the Rent as its own tap after the rent card, before the answer;
- a wild card laid as red; a wrong money card banked and undone;
- a Deal Breaker (Ann takes Bob's complete green set) and the win (three complete sets), with the chart.
A second, shorter game seats three players: each payer of a birthday in turn.
Screenshots for the README: docs/screenshots/d01-*.png ... The rules are the real engine's.
"""

from __future__ import annotations

import re
import time

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser


def lay(tab, player: str, card: str, colour: str) -> None:
    """Lay a property and wait until the table says so (the picker redraws without it before the next tap)."""
    tab.click(card)
    tab.text(f"{player} lays {card} ({colour}).", place="info")


class Counter:
    """Counts the referee's taps (buttons pressed) between `start` and `stop`."""

    def __init__(self, tab):
        self.tab = tab
        self.taps = 0

    def click(self, name: str) -> None:
        self.taps += 1
        self.tab.click(name)


def test_a_whole_deal_game(tmp_path, playwright_instance):  # noqa: F811
    t0 = time.perf_counter()
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        fol = None
        try:
            ref.click("New game")
            ref.click("Monopoly Deal")
            ref.text("2 to 5 players. Everyone is dealt 5 cards; the first player starts.")
            ref.click("House rules")
            ref.text("Double the Rent with the any-colour rent card?")
            ref.shot("d01-new-game")
            ref.click("Start game")
            ref.text("Ann draws 2.", place="deal-status")
            ref.shot("d02-start")

            # Turn 1, Ann: draws 2, lays the two dark blues (a complete set) and banks 3M.
            ref.click("Ann draws 2")
            ref.text("Ann's turn: 3 of 3 plays left.", place="deal-status")
            lay(ref, "Ann", "Boardwalk", "Dark Blue")
            lay(ref, "Ann", "Park Place", "Dark Blue")
            ref.click("4M")  # the wrong money card: the referee takes it back
            ref.text("Ann banks 4M.", place="info")
            ref.click("Undo last action")
            ref.text("The last action was undone.", place="info")
            ref.click("3M")
            ref.text("Ann's turn: 0 of 3 plays left.", place="deal-status")
            ref.text("Ann turn Bank 3M | Hand 4 | 1 of 3 sets Dark Blue 2/2 FULL", place="board-0")
            ref.click("End Ann's turn")
            ref.text("Bob draws 2.", place="deal-status")

            # Turn 2, Bob: an ordinary turn, every tap counted.
            bob = Counter(ref)
            bob.click("Bob draws 2")
            ref.text("Bob's turn: 3 of 3 plays left.", place="deal-status")
            bob.click("Kentucky Avenue")
            ref.text("Bob lays Kentucky Avenue (Red).", place="info")
            bob.click("2M")
            ref.text("Bob's turn: 1 of 3 plays left.", place="deal-status")
            ref.shot("d03-picker")
            bob.click("Rent Red / Yellow")
            ref.wait_ident("card-flow")
            ref.shot("d04-rent-flow")
            bob.click("Charge everyone 2M")
            ref.wait_ident("payment")
            ref.text("Ann pays Bob 2M or says Just Say No.", place="deal-status")
            ref.text("Paying 3M for 2M. No change is given: 1M over.", place="payment-note")
            ref.shot("d05-payment")
            # Ann could pay more, but without change she would lose the extra: the app says so, the rules refuse.
            ref.click("Boardwalk (4M)")
            ref.text("Too much: 4M already covers 2M without 3M, and no change is given. "
                     "Tap a card to take it out.", place="payment-note")
            ref.click("Ann pays 7M")
            ref.text("4M already covers 2M without 3M: no change is given, so keep it.", place="error")
            ref.click("Boardwalk (4M)")
            ref.text("Paying 3M for 2M. No change is given: 1M over.", place="payment-note")
            bob.click("Ann pays 3M")
            ref.text("Bob's turn: 0 of 3 plays left.", place="deal-status")
            bob.click("End Bob's turn")
            ref.text("Ann draws 2.", place="deal-status")
            ordinary_turn_taps = bob.taps
            assert ordinary_turn_taps == 7

            # A follower opens the app on another phone.
            fol = new_tab(browser, url)
            fol.text("Watching (read-only)")

            # Turn 3, Ann: a house on Dark Blue, then rent, then Double the Rent (3 plays in all).
            ref.click("Ann draws 2")
            ref.click("House (3M)")
            ref.click("Dark Blue")
            ref.text("Ann turn Bank 0M | Hand 5 | 1 of 3 sets Dark Blue 2/2 +House FULL", place="board-0")
            ref.click("Rent Dark Blue / Green")
            ref.click("Charge everyone 11M")
            ref.wait_ident("jsn-chain")
            ref.text("Ann charges Bob 11M rent for Dark Blue.", place="jsn-chain")
            # Double the Rent is its own tap, joined to the rent before Bob answers.
            ref.click("Ann adds Double the Rent (1 play left)")
            ref.text("Ann charges Bob 22M rent for Dark Blue (doubled).", place="jsn-chain")
            # Bob says no; Ann answers with her own Just Say No: the rent stands again.
            ref.click("Just Say No (Bob)")
            ref.text("Ann charges Bob 22M rent for Dark Blue (doubled). -> Bob says Just Say No! The rent is cancelled, unless Ann answers with a Just Say No.", place="jsn-chain")
            ref.click("Just Say No (Ann)")
            ref.text("Ann charges Bob 22M rent for Dark Blue (doubled). -> Bob says Just Say No! -> Ann says Just Say No! The rent stands again, unless Bob answers with another.", place="jsn-chain")
            fol.text("Ann charges Bob 22M rent for Dark Blue (doubled). -> Bob says Just Say No! -> Ann says Just Say No! The rent stands again, unless Bob answers with another.", place="jsn-chain")
            fol.shot("d06-follower-chain")
            # Bob is short: his bank (2M, and Ann's 3M) and Kentucky Avenue (3M) are everything he has.
            ref.text(re.compile(r"Bob has only 8M in bank and properties: everything goes and 14M is forgiven\."), place="payment-note")
            ref.shot("d07-short-payer")
            ref.click("Bob pays 8M")
            ref.text("Bob pays Ann 8M: all Bob had; 14M forgiven.", place="info")
            ref.click("End Ann's turn")

            # Turn 4, Bob: three Pass Go leave him 8 cards: he discards one to keep 7.
            ref.click("Bob draws 2")
            for left in (2, 1, 0):
                ref.click("Pass Go (1M)")
                ref.click("Play Pass Go: draw 2")
                ref.text(f"Bob's turn: {left} of 3 plays left.", place="deal-status")
            ref.text("Hand limit 7: Bob holds 8 cards, so 1 must go at the end of the turn.")
            ref.click("End turn: discard 1 first")
            ref.click("1M")
            ref.text("Discarding: 1M")
            ref.shot("d08-discard")
            ref.click("Discard 1")
            ref.text("Bob discards 1.", place="info")
            ref.click("End Bob's turn")
            ref.text("Bob ends the turn; Ann to play.", place="info")

            # Turn 5, Ann: completes red with a wild card laid as red.
            ref.click("Ann draws 2")
            lay(ref, "Ann", "Indiana Avenue", "Red")
            ref.click("Red / Yellow wild")
            ref.text("Lay it in which colour?")
            ref.shot("d09-wild")
            ref.click("Red")
            ref.text("Ann turn Bank 5M | Hand 2 | 2 of 3 sets Dark Blue 2/2 +House FULL Red 3/3 FULL", place="board-0")
            ref.click("End Ann's turn")

            # Turn 6, Bob: a complete green set.
            ref.click("Bob draws 2")
            for card in ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue"):
                lay(ref, "Bob", card, "Green")
            ref.text("Bob turn Bank 0M | Hand 6 | 1 of 3 sets Green 3/3 FULL", place="board-1")
            ref.click("End Bob's turn")

            # Turn 7, Ann: a Deal Breaker on Bob's green set wins the game.
            ref.click("Ann draws 2")
            ref.click("Deal Breaker (5M)")
            ref.click("Green set")
            ref.text("Ann plays Deal Breaker on Bob: takes the complete Green set.", place="jsn-chain")
            ref.shot("d10-deal-breaker")
            ref.click("Bob accepts")
            ref.text("Ann wins!", place="deal-status")
            ref.click("See the winner")
            ref.wait_ident("winner")
            ref.text("Winner: Ann", place="winner")
            ref.wait_ident("chart")
            ref.shot("d11-winner")
            ref.click("What happened")
            ref.text("Bob paid Ann 8M of 22M (rent for Dark Blue): 2M, 3M, Kentucky Avenue; 14M forgiven.")
            ref.text("Ann paid Bob 3M of 2M (rent for Red): 3M; 1M over, no change.")
            ref.shot("d12-what-happened")
            fol.text("Game over. Winner: Ann", place="follow-status")
        except Exception:
            failure_shot(ref, "deal-ref")
            if fol is not None:
                failure_shot(fol, "deal-fol")
            raise
    browser.close()
    print(f"\nMonopoly Deal browser game: {ordinary_turn_taps} taps for an ordinary turn; "
          f"{time.perf_counter() - t0:.1f} s")


def test_three_players_pay_in_turn(tmp_path, playwright_instance):  # noqa: F811
    """Three players: a birthday charges both opponents in seating order, each payer sees their own
    cheapest payment preselected (a property goes when it costs least); a Debt Collector asks whom; a
    Sly Deal and a Forced Deal choose the player, then the cards; a wild is laid, then moved (no play)."""
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.choose("Monopoly Deal", ref.button("5 players"))  # Deal seats up to five
            ref.choose("3 players", ref.page.get_by_role("textbox", name="Player 3 name"))
            ref.click("Start game")
            for player, cards in (("Ann", ("5M",)), ("Bob", ("2M", "Baltic Avenue")), ("Cleo", ("1M", "Boardwalk"))):
                ref.click(f"{player} draws 2")
                for card in cards:
                    ref.click(card)
                    ref.text(f"{player} {'banks' if card.endswith('M') else 'lays'} {card}", place="info", contains=True)
                ref.click(f"End {player}'s turn")
            ref.click("Ann draws 2")
            ref.click("It's My Birthday (2M)")
            ref.click("Everyone pays Ann 2M")
            ref.text("It's Ann's birthday: Bob owes 2M.", place="jsn-chain")
            ref.text("Paying 2M for 2M. Exact: no change is due.", place="payment-note")
            ref.click("Bob pays 2M")
            # Cleo next: Boardwalk alone (4M) costs her less than 1M + Boardwalk.
            ref.text("It's Ann's birthday: Cleo owes 2M.", place="jsn-chain")
            ref.text("Paying 4M for 2M. No change is given: 2M over.", place="payment-note")
            ref.shot("d13-three-players")
            ref.click("Cleo pays 4M")
            ref.text("Cleo to answer Bank 1M | Hand 5 | 0 of 3 sets Dark Blue 1/2", place="board-2")
            ref.click("Debt Collector (3M)")
            ref.text("Who pays Ann 5M?")
            ref.click("Bob")
            ref.text(re.compile(r"Bob has only 1M in bank and properties: everything goes and 4M is forgiven\."), place="payment-note")
            ref.click("Bob pays 1M")
            ref.text("Bob pays Ann 1M: all Bob had; 4M forgiven.", place="info")
            ref.text("Ann's turn: 1 of 3 plays left.", place="deal-status")
            ref.click("End Ann's turn")
            for player, card, colour in (("Bob", "Vermont Avenue", "Light Blue"), ("Cleo", "States Avenue", "Pink")):
                ref.click(f"{player} draws 2")
                ref.click(card)
                ref.text(f"{player} lays {card} ({colour}).", place="info")
                ref.click(f"End {player}'s turn")
            # Ann: a Sly Deal on Cleo, a Forced Deal with Bob (take, then give), a wild laid and moved.
            ref.click("Ann draws 2")
            ref.click("Sly Deal (3M)")
            ref.click("Cleo")
            ref.text("Take which of Cleo's cards?")
            ref.click("States Avenue")
            ref.text("Cleo: accept Ann's Sly Deal or Just Say No.", place="deal-status")
            ref.click("Cleo accepts")
            ref.text("Ann's turn: 2 of 3 plays left.", place="deal-status")
            ref.click("Forced Deal (3M)")
            ref.click("Bob")
            ref.click("Vermont Avenue")
            ref.text("Give Bob which of Ann's cards?")
            ref.click("Baltic Avenue")
            ref.text("Ann plays Forced Deal on Bob: Baltic Avenue for Vermont Avenue.", place="jsn-chain")
            ref.click("Bob accepts")
            ref.text("Ann's turn: 1 of 3 plays left.", place="deal-status")
            ref.click("Pink / Orange wild")
            ref.click("Pink")
            ref.text("Ann turn Bank 7M | Hand 5 | 0 of 3 sets Dark Blue 1/2 Pink 2/3 Light Blue 1/3", place="board-0")
            ref.click("Pink / Orange wild (in Pink)")
            ref.click("Move to Orange")
            ref.text("Ann moves Pink / Orange wild to Orange.", place="info")
            ref.text("Ann turn Bank 7M | Hand 5 | 0 of 3 sets Dark Blue 1/2 Pink 1/3 Light Blue 1/3 Orange 1/3", place="board-0")
            ref.shot("d14-deals-and-wild")
        except Exception:
            failure_shot(ref, "deal3-ref")
            raise
    browser.close()
