"""One tap, one action (issue #26), in every game: a double tap records one event.

The guard is the app shell's (`AppState._act`, the one place every tap that records an event passes
through): a second tap within TAP_REPEAT_SECONDS of the first's start, before the first's result is
drawn, or within TAP_SETTLE_SECONDS after, records nothing and says nothing. Tested here twice:

- from code, on a real table and the real hub (the unit tests below, `tap_guard`: the guard kept on);
- in Chromium, on the real app (`browser`): in each of the four games, every button on the way through
  a game that records an event is double-clicked as a finger does (two mouse clicks at the same spot,
  150 ms apart: the second lands on whatever the first tap drew there), and the game's stored log
  (the app's SQLite file) holds exactly one new event each time. The redraw time (click to the new
  screen) is printed, and server.log (COMPANION_TAP_LOG) says when each tap reached the server: what
  the guard's windows are set against. The double-tap failure this catches on the code before the
  guard: a double tap on "1M" banked two cards, on "End Ann's turn" ended the turn and undid it.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

from companion.games.monopoly_deal.table import DealTable
from companion.ui.table import LOOK_AGAIN, PlayerInfo

PLAYERS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]


# ---------------------------------------------------------------- the guard from code


def _deal_tab(tmp_path: Path):
    from companion.games.monopoly_deal.table import new_deal
    from companion.ui.hub import HUB
    from companion.ui.models import DRAWN_AT, AppState

    HUB.configure(str(tmp_path))
    game = new_deal(PLAYERS)
    HUB.set_game(game)
    tab = AppState(table=game.id)
    tab.session_key = "tab-a"
    DRAWN_AT.pop(tab.session_key, None)  # an earlier test's tab-a drawn a moment ago is not this tab's
    tab.go("table")
    return tab, game


def drawn(tab) -> None:
    """What the app does once the tab has drawn a change (`companion/ui/flet_patch.install`)."""
    from companion.ui import models

    models.DRAWN_AT[tab.session_key] = time.monotonic()


@pytest.mark.tap_guard
def test_a_second_tap_within_the_window_records_nothing_and_says_nothing(tmp_path: Path) -> None:
    from companion.ui import models

    tab, game = _deal_tab(tmp_path)
    assert tab.do(DealTable.draw) and tab.info == "Ann draws 2."
    events = len(game.log.events)
    assert not tab.do(DealTable.bank, "1M")  # 0 ms after the draw: the second tap of a double tap
    assert len(game.log.events) == events and tab.info == "Ann draws 2." and tab.error == ""
    time.sleep(models.TAP_REPEAT_SECONDS)
    assert not tab.do(DealTable.bank, "1M")  # later, but the draw's result is not drawn yet: aimed at the old screen
    drawn(tab)
    assert not tab.do(DealTable.bank, "1M")  # drawn a moment ago: nobody has seen it yet
    time.sleep(models.TAP_SETTLE_SECONDS)
    assert tab.do(DealTable.bank, "1M") and len(game.log.events) == events + 1  # a deliberate tap on the new screen
    drawn(tab)
    time.sleep(models.TAP_REPEAT_SECONDS)
    assert not tab.do(DealTable.bank, "Boardwalk")  # a refusal is said ...
    assert tab.error.startswith("Boardwalk is a property")
    assert tab.do(DealTable.bank, "2M")  # ... and does not start the window: the next tap counts


@pytest.mark.tap_guard
def test_undo_tapped_at_once_after_a_change_does_not_undo_it(tmp_path: Path) -> None:
    tab, game = _deal_tab(tmp_path)
    tab.do(DealTable.draw)
    drawn(tab)
    tab.undo()  # drawn where the tapped button was, within the moment: dropped
    assert [e.type for e in game.log.events] == ["start", "draw"] and tab.info == "Ann draws 2."


@pytest.mark.tap_guard
def test_a_tap_that_opens_a_screen_passes_the_guard_and_counts_for_it(tmp_path: Path) -> None:
    """A double tap on "Finish and show the winner" once left the winner for a new game's setup (CI, stop
    35): the winner's screen drew "New game" where the finger was. A tap that opens a screen is a tap."""
    from companion.ui import models

    tab, game = _deal_tab(tmp_path)
    assert tab.do(DealTable.draw)
    tab.open_screen("setup")  # 0 ms after the draw: the double tap's second landed on "New game"
    assert (tab.screen, tab.table, tab.info) == ("table", game.id, "Ann draws 2.")
    time.sleep(models.TAP_REPEAT_SECONDS)
    drawn(tab)
    time.sleep(models.TAP_SETTLE_SECONDS)
    tab.open_screen("end")  # a deliberate tap opens the end screen ...
    assert tab.screen == "end"
    events = len(game.log.events)
    assert not tab.do(DealTable.end_by_agreement)  # ... and counts: a second tap on what it drew records nothing
    assert len(game.log.events) == events and not game.finished and tab.error == ""
    time.sleep(models.TAP_REPEAT_SECONDS)
    drawn(tab)
    time.sleep(models.TAP_SETTLE_SECONDS)
    assert tab.do(DealTable.end_by_agreement) and game.finished


@pytest.mark.tap_guard
def test_a_double_tap_on_new_game_chooses_no_game_and_no_player_count(tmp_path: Path) -> None:
    """The setup draws its game and player-count chips where the home screen's "New game" stood: the second tap
    of a double tap on it chose the game (or the count) under the finger. Those chips pass the guard; a tap at a
    person's pace after the setup is drawn chooses."""
    from companion.ui import models

    tab, _game = _deal_tab(tmp_path)
    time.sleep(models.TAP_REPEAT_SECONDS)
    tab.go("home")
    offered = [spec.id for spec in models.setup_games()]
    assert len(offered) >= 2
    chosen = tab.setup_kind()
    other = next(g for g in offered if g != chosen)
    tab.open_screen("setup")  # the first tap on "New game"
    assert tab.screen == "setup"
    tab.choose_game(other)  # its second tap, on a chip: dropped
    tab.choose_player_count(3)
    assert (tab.setup_kind(), tab.player_count) == (chosen, 2)
    time.sleep(models.TAP_REPEAT_SECONDS)
    drawn(tab)
    time.sleep(models.TAP_SETTLE_SECONDS)
    tab.choose_game(other)  # a deliberate tap on the setup as drawn
    assert tab.setup_kind() == other
    time.sleep(models.TAP_REPEAT_SECONDS)
    drawn(tab)
    time.sleep(models.TAP_SETTLE_SECONDS)
    tab.choose_player_count(3)
    assert tab.player_count == 3


def test_the_look_again_refusal_is_game_neutral_and_cleared_once_the_game_moves_on(tmp_path: Path) -> None:
    from companion.ui.models import AppState

    tab, game = _deal_tab(tmp_path)
    other = AppState(table=game.id)
    other.session_key = "tab-b"
    other.go("table")
    tab.do(DealTable.draw)
    other.do(DealTable.draw)  # its screen still showed Ann's draw
    assert other.error == LOOK_AGAIN
    assert "board" not in LOOK_AGAIN and "confirm the turn" not in LOOK_AGAIN
    other.note_change()  # the redraw right after the refusal: the refusal still applies
    assert other.error == LOOK_AGAIN
    tab.do(DealTable.bank, "1M")
    other.note_change()  # the game moved on (here to the winner screen, in the issue): it no longer applies
    assert other.error == ""


# ---------------------------------------------------------------- every game in Chromium

DOUBLE_TAP_GAP_MS = 150  # the double clicks are 120-200 ms apart
SETTLE_S = 1.2  # after the first event lands: time for a second one to land too (the app saves within ms)
VIEW = {"width": 1100, "height": 1500}  # tall enough that every button tapped is on the page without scrolling


class Referee:
    """A referee tab plus the app's store, to count the events each double tap records."""

    def __init__(self, tab, data_dir: Path) -> None:
        self.tab = tab
        self.db = data_dir / "games.sqlite"
        self.checked: list[str] = []
        self.redraws: list[float] = []

    def events(self) -> int:
        from companion.store import Store

        if not self.db.exists():
            return 0
        with Store(self.db) as store:
            games = store.games()
            return max((store.last_seq(g.id) for g in games), default=0)

    def double_tap(self, locator, name: str, shows: str | None = None) -> None:
        """Two mouse clicks at the centre of `locator`, DOUBLE_TAP_GAP_MS apart (the second lands on
        whatever is drawn there by then); exactly one new event must be stored: a tap records at most one."""
        page = self.tab.page
        locator.wait_for(timeout=25_000)
        before = self.events()
        box = locator.bounding_box()
        assert box is not None and box["y"] + box["height"] <= VIEW["height"], f"{name} is off the page: {box}"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        time.sleep(1.5)  # a person's pace since the previous tap (the guard's window is 1.2 s)
        t0 = time.perf_counter()
        page.mouse.click(x, y)
        page.wait_for_timeout(DOUBLE_TAP_GAP_MS)
        page.mouse.click(x, y)
        deadline = time.monotonic() + 25
        while self.events() == before and time.monotonic() < deadline:
            time.sleep(0.05)
        if shows:
            self.tab.text(shows, contains=True)
            self.redraws.append(time.perf_counter() - t0)
        time.sleep(SETTLE_S)
        after = self.events()
        assert after == before + 1, f"double tap on {name!r} recorded {after - before} events"
        self.checked.append(name)

    def button(self, name: str, shows: str | None = None, exact: bool = True) -> None:
        self.double_tap(self.tab.button(name, exact).first, name, shows)

    def ident(self, identifier: str, shows: str | None = None) -> None:
        self.double_tap(self.tab.ident(identifier).first, identifier, shows)

    def once(self, name: str, shows: str) -> None:
        """One tap at a person's pace (a tap within the guard's window of the last one would be dropped),
        to reach the next button to double-tap."""
        time.sleep(1.5)
        self.tab.click(name)
        self.tab.text(shows, contains=True)

    def matching(self, pattern: str, name: str, shows: str | None = None) -> None:
        """The button whose label matches `pattern` (a regular expression): amounts the profile decides."""
        self.double_tap(self.tab.page.get_by_role("button", name=re.compile(pattern)).first, name, shows)


# One script that taps every node with the identifier still in the page, and none when there is none: the
# check and the tap cannot be split by the node going away. (Counting the ruling and then tapping it raced
# its closing by itself: `double_tap` waits for the store and SETTLE_S, several seconds on a loaded machine,
# so the ruling could close between the count and the tap, which then waited 25 s for a node that was gone.)
_TAP_IF_SHOWN = """nodes => nodes.forEach(node => node.dispatchEvent(
    new MouseEvent("click", {bubbles: true, cancelable: true, composed: true})))"""


def _close_if_shown(ref, identifier: str) -> None:
    """Tap a screen that closes by itself (a challenge's ruling) if it is still shown, at once either way."""
    ref.ident(identifier).evaluate_all(_TAP_IF_SHOWN)


def _start(ref, game: str | None, players: int = 2) -> None:
    ref.click("New game")
    if game:
        time.sleep(1.5)  # a person's pace: a chip tapped sooner is taken for the second tap on "New game"
        ref.click(game)
    if players != 2:
        time.sleep(1.5)
        ref.click(f"{players} players")
        ref.page.get_by_role("textbox", name=f"Player {players} name").first.wait_for()
    time.sleep(1.5)  # a person's pace after "New game": a tap on "Start game" sooner is taken for its second tap
    ref.click("Start game")


def _play_word(r: Referee, word: str, square: str, shows: str) -> None:
    r.tab.fill("Word", word)
    r.tab.fill("Square", square)
    r.tab.click("Check")
    r.tab.text(re.compile(rf"{word} \d+ = \d+ points"), contains=True)
    r.button("Confirm play", shows)


@pytest.mark.browser
def test_double_taps_record_one_event_in_every_game(tmp_path: Path, playwright_instance) -> None:  # noqa: F811
    t0 = time.perf_counter()
    browser = launch(playwright_instance)
    summary: dict[str, list[str]] = {}
    redraws: list[float] = []
    # DOUBLE_TAP_GAMES=classic,monopoly runs some of them (to look into one game's failure).
    games = os.environ.get("DOUBLE_TAP_GAMES", "monopoly_deal,classic,monopoly,monopoly_builder").split(",")
    for game in games:
        data = tmp_path / game
        data.mkdir()
        # The guard on (the harness switches it off for the other tests); server.log says why each tap was kept.
        # DOUBLE_TAP_GUARD=off runs the app without it: the test then fails as the issue reports.
        guard = os.environ.get("DOUBLE_TAP_GUARD", "on")
        with app_server(data, {"COMPANION_TAP_GUARD": guard, "COMPANION_TAP_LOG": "1"}) as url:
            ref = new_tab(browser, url, viewport=VIEW)
            r = Referee(ref, data)
            try:
                GAME_STEPS[game](r)
            except Exception:
                failure_shot(ref, f"double-tap-{game}")
                raise
            finally:
                ref.page.context.close()
            summary[game] = r.checked
            redraws += r.redraws
    browser.close()
    redraws.sort()
    print("\nDouble taps, one event each: " + "; ".join(f"{g}: {len(b)} buttons ({', '.join(b)})"
                                                      for g, b in summary.items()))
    print(f"Click to new screen: median {redraws[len(redraws) // 2] * 1000:.0f} ms, "
          f"min {redraws[0] * 1000:.0f} ms over {len(redraws)} taps; {time.perf_counter() - t0:.0f} s")
    assert all(summary.values())


def deal_steps(r: Referee) -> None:
    ref = r.tab
    _start(ref, "Monopoly Deal", 3)
    ref.text("Ann draws 2.", contains=True)
    r.button("Ann draws 2", "Ann's turn: 3 of 3 plays left.")
    r.button("1M", "Ann's turn: 2 of 3 plays left.")  # six 1M cards: a double tap banked two
    r.button("Boardwalk", "Ann lays Boardwalk (Dark Blue).")
    r.button("End Ann's turn", "Bob draws 2.")  # Undo is never drawn where End was
    for player, cards in (("Bob", ("3M",)), ("Cleo", ("4M", "10M"))):
        r.button(f"{player} draws 2", f"{player}'s turn: 3 of 3 plays left.")
        for card in cards:
            r.button(card, f"{player} banks {card}.")
        r.button(f"End {player}'s turn")
    r.button("Ann draws 2", "Ann's turn: 3 of 3 plays left.")
    ref.click("It's My Birthday (2M)")
    r.button("Everyone pays Ann 2M", "It's Ann's birthday: Bob owes 2M.")
    r.button("Just Say No (Bob)", "Ann: accept Bob's Just Say No or answer with another.")
    r.button("Ann accepts the Just Say No", "It's Ann's birthday: Cleo owes 2M.")
    r.button("Cleo pays 4M", "Cleo pays Ann 4M: no change on 2M.")
    ref.click("Rent Dark Blue / Green")
    r.button("Charge everyone 3M", "Ann charges Bob 3M rent for Dark Blue.")
    r.button("Ann adds Double the Rent (1 play left)", "Ann charges Bob 6M rent for Dark Blue (doubled).")
    # Bob is short (3M): a double tap on his payment once also paid for Cleo, who then never chose.
    r.button("Bob pays 3M", "Ann charges Cleo 6M rent for Dark Blue (doubled).")
    ref.text("Cleo pays Ann 6M or says Just Say No.", contains=True)
    r.button("Cleo pays 10M", "Ann's turn: 0 of 3 plays left.")
    r.button("End Ann's turn", "Bob draws 2.")
    r.button("Undo last action", "The last action was undone.")  # one undo, not two
    ref.text("Ann's turn: 0 of 3 plays left.", contains=True)
    ref.click("End Ann's turn")
    r.button("Bob draws 2", "Bob's turn: 3 of 3 plays left.")
    ref.click("Pass Go (1M)")
    r.button("Play Pass Go: draw 2", "Bob's turn: 2 of 3 plays left.")
    ref.click("Sly Deal (3M)")
    r.button("Boardwalk", "Bob plays Sly Deal on Ann: takes Boardwalk.")  # Ann: the only one to take from
    r.button("Ann accepts", "Bob's turn: 1 of 3 plays left.")
    ref.click("Red / Yellow wild")
    r.button("Red", "Bob's turn: 0 of 3 plays left.")
    ref.click("Red / Yellow wild (in Red)")
    r.button("Move to Yellow", "Bob moves Red / Yellow wild to Yellow.")
    r.once("End Bob's turn", "Cleo draws 2.")
    r.button("Cleo draws 2", "Cleo's turn: 3 of 3 plays left.")
    ref.click("Debt Collector (3M)")
    r.button("Ann", "Cleo plays Debt Collector: Ann owes 5M.")  # the target's button records the play
    r.matching(r"^Ann pays \d+M$", "Ann pays 5M", "Ann pays Cleo")
    for card in ("Mediterranean Avenue", "Baltic Avenue"):  # a complete Brown set for Ann to break
        r.once(card, f"Cleo lays {card} (Brown).")
    r.once("End Cleo's turn", "Ann draws 2.")
    r.once("Ann draws 2", "Ann's turn: 3 of 3 plays left.")
    ref.click("Deal Breaker (5M)")
    r.button("Brown set", "Ann plays Deal Breaker on Cleo's Brown set.")
    r.button("Cleo accepts", "Ann's turn: 2 of 3 plays left.")
    ref.click("House (3M)")
    r.button("Brown", "Ann puts a house on Brown.")
    r.once("Park Place", "Ann lays Park Place (Dark Blue).")  # for Bob's Forced Deal to take
    r.once("End Ann's turn", "Bob draws 2.")
    r.once("Bob draws 2", "Bob's turn: 3 of 3 plays left.")
    ref.click("Pass Go (1M)")
    r.once("Play Pass Go: draw 2", "Bob's turn: 2 of 3 plays left.")  # nine cards in hand
    ref.click("Forced Deal (3M)")
    ref.click("Park Place")  # take (Ann, the only one to take from)
    r.button("Boardwalk", "Bob plays Forced Deal: Boardwalk for Ann's Park Place.")  # give: records the play
    r.button("Ann accepts", "Bob's turn: 1 of 3 plays left.")
    ref.click("End turn: discard 1 first")
    ref.text("Bob holds 8 cards: discard 1 to keep 7.", contains=True)
    ref.click("1M")
    r.button("Discard 1", "Bob discards 1.")
    ref.click("End")
    r.button("End the game by agreement")
    ref.wait_ident("winner")


def classic_steps(r: Referee) -> None:
    ref = r.tab
    _start(ref, "Classic Scrabble")
    ref.text("Ann to play", contains=True)
    _play_word(r, "HOTEL", "E8", "Bob to play")
    r.button("Challenge by Bob")
    _close_if_shown(ref, "verdict")  # the ruling closes by itself 6 s after it shows
    ref.text("Ann to play", contains=True)  # HOTEL stands: Bob's challenge costs him his turn
    r.button("Pass", "Bob to play")
    ref.fill("Tiles", "3")
    r.button("Exchange", "Ann to play")
    r.button("Undo last action", "The last action was undone.", exact=False)
    ref.click("End")
    r.button("Finish and show the winner")
    ref.wait_ident("winner")


def monopoly_steps(r: Referee) -> None:
    ref = r.tab
    _start(ref, None)
    ref.text("Ann to play", contains=True)
    _play_word(r, "HOTEL", "E8", "Bob to play")
    # Bob's HUG down through the H, a G bought from the Bank rack: his token lands on Chance.
    ref.fill("Word", "HUG")
    ref.fill("Square", "E8")
    ref.click("Down")
    ref.fill("Bought from Bank", "G")
    ref.click("Check")
    ref.text(re.compile(r"UG \d+ = \d+ points"), contains=True)
    r.button("Confirm play", "Bob draws a Chance card: tap what it says.")
    r.button("Card: go to Jail", "Bob: Chance: go to jail.")
    r.button("Pass", "Ann passes.")
    r.button("Pay jail fee", "Bob: paid M100 to leave Jail.")
    r.button("Pass", "Bob passed.")
    ref.click("End")
    r.button("Finish and show the winner")
    ref.wait_ident("winner")


def builder_steps(r: Referee) -> None:
    ref = r.tab
    _start(ref, "Monopoly Builder")
    ref.text("Ann rolls the dice.", contains=True)
    r.ident("dice-2-3", "Ann lands on")
    r.double_tap(ref.page.get_by_role("button", name=re.compile(r"^Buy for M")).first, "Buy", "buys")
    r.button("End turn", "Bob rolls the dice.")
    r.button("Undo last action", "The last action was undone.", exact=False)
    ref.click("End turn")
    ref.text("Bob rolls the dice.", contains=True)
    r.ident("dice-1-4", "Bob lands on")  # Ann's deed: the rent request
    r.matching(r"^Ann asks for M", "Ann asks for the rent", "rent on")
    # The next player's roll, one tap, one event: Ann's roll, which ends Bob's turn as the rules apply it.
    r.ident("dice-3-3", "Ann rolls 3+3")
    r.button("Auction it", "Auction of")
    r.button("Bob bids", "Bob bids M")  # the least bid
    ref.fill("Bid (M)", "40")
    r.button("Ann bids", "Ann bids M40")
    r.matching(r"^Sold to Ann for M", "Sold to Ann", "Ann wins")
    ref.click("Bank")
    ref.wait_ident("cash")
    r.matching(r"^Mortgage ", "Mortgage", "mortgages")
    r.matching(r"^Unmortgage ", "Unmortgage", "unmortgages")
    ref.fill("Ann pays (M)", "15")
    r.button("Record the trade", "trade: M15")
    ref.click("Turn")
    ref.tap_ident("site-A1")  # a foundation: the build panel (no event yet)
    ref.wait_ident("build")
    r.button("Build floor 1 on A1", "Ann builds floor 1 on A1.")
    r.matching(r"^Trade 4 \w+ for 1 \w+$", "Trade 4 for 1 with the Bank", "with the Bank.")


GAME_STEPS = {"monopoly_deal": deal_steps, "classic": classic_steps, "monopoly": monopoly_steps,
              "monopoly_builder": builder_steps}


@pytest.mark.tap_guard
def test_a_move_the_board_watcher_records_is_no_tap_and_never_dropped(tmp_path: Path) -> None:
    """The camera watcher records a settled move through the same path as a tap (`record_watched`): no
    finger, so the guard neither drops it nor counts it."""
    tab, _game = _deal_tab(tmp_path)
    tab.do(DealTable.draw)
    tab.form.not_a_tap = True  # what `AppState.record_watched` sets around its recording
    try:
        assert tab.do(DealTable.bank, "1M")  # at once after a tap: kept
    finally:
        tab.form.not_a_tap = False
    assert not tab.do(DealTable.bank, "2M")  # a finger's tap still is, within the window of the last tap


@pytest.mark.tap_guard
def test_the_second_tap_of_a_double_tap_on_start_game_records_nothing(tmp_path: Path) -> None:
    """"Start game" opens the play screen, whose first button (Deal: "Ann draws 2") can be drawn under the
    finger: a tap a moment after the start is the double tap's second, not a move."""
    from companion.ui import models
    from companion.ui.hub import HUB
    from companion.ui.models import AppState

    HUB.configure(str(tmp_path))
    tab = AppState(session_key="tab-start")
    tab.new_game()
    tab.chosen_game = "monopoly_deal"
    tab.form.names[:2] = ["Ann", "Bob"]
    tab.start_game()
    game = tab.game
    assert tab.error == "" and game is not None
    assert not tab.do(DealTable.draw)  # 0 ms after Start game: dropped, nothing said
    assert [e.type for e in game.log.events] == ["start"] and tab.error == ""
    time.sleep(models.TAP_REPEAT_SECONDS)
    drawn(tab)
    time.sleep(models.TAP_SETTLE_SECONDS)
    assert tab.do(DealTable.draw) and [e.type for e in game.log.events] == ["start", "draw"]  # a deliberate tap
