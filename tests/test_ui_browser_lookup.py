"""Word lookup with no game, and "can anyone still play?" on real positions, through the browser.

The lookup runs on a fresh server with no game: ENABLE and a second installed list (a user's own list in
the XDG data folder, as a family would install one), ACCEPTABLE / UNACCEPTABLE naming the list, and a
word with a digit answered with a sentence.

The rack check runs on a real game: a Quackle self-play record (`../shared/data/gcg`) imported into the
app's store with `companion games import`, cut just before New_Player_1, holding RRV on a bag-empty
board, passed. A follower's tab asks: RRV has no play, Quackle's ?N has one, and "Show my best play"
gives the move `companion moves` lists first. The referee then passes for RRV, types Quackle's next
play with the rack it came from, ends the game and reviews the best play of each turn (the record's
plays carry their racks, and so does the typed one).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import LAPTOP, REPO, failure_shot
from conftest import shared_path

pytestmark = pytest.mark.browser
ENDGAME = ("gcg", "quackle_selfplay", "traditional", "traditional117.gcg")


def ruling(verdict: str) -> re.Pattern[str]:
    """The ruling panel's text (Flutter merges the panel's lines into one node): it starts with the verdict."""
    return re.compile("^" + verdict + r"\b")


def lists_env(tmp_path: Path) -> dict[str, str]:
    """A user's own word list FAMILY (with QI and ZA, which ENABLE lacks) and a private cache."""
    folder = tmp_path / "xdg" / "table-referee" / "lexicons"
    folder.mkdir(parents=True)
    (folder / "FAMILY.txt").write_text("# our house list\nqi\nza\nquiz\n", encoding="utf-8")
    return {"XDG_DATA_HOME": str(tmp_path / "xdg"), "COMPANION_CACHE_DIR": str(tmp_path / "cache")}


def test_word_lookup_from_home_with_no_game(tmp_path, playwright_instance):  # noqa: F811
    data = tmp_path / "data"
    data.mkdir()
    with app_server(data, lists_env(tmp_path)) as url:
        browser = launch(playwright_instance)
        tab = new_tab(browser, url)
        try:
            tab.text("New game", place="role:button")
            tab.click("Look up a word")
            tab.fill("Words", "QUIZ")
            tab.click("Judge")
            tab.wait_ident("verdict")
            tab.text(ruling("ACCEPTABLE"), place="verdict", contains=True)
            tab.text("Word list: ENABLE", place="verdict", contains=True)
            tab.text("Looked up: no game was changed.", place="verdict", contains=True)
            tab.shot("l01-lookup-acceptable")
            tab.tap_ident("verdict")

            # QI is not in ENABLE: the ruling says so and names the list.
            tab.fill("Words", "QI")
            tab.click("Judge")
            tab.text(ruling("UNACCEPTABLE"), place="verdict", contains=True)
            tab.text("Word list: ENABLE", place="verdict", contains=True)
            tab.shot("l02-lookup-unacceptable")
            tab.tap_ident("verdict")

            # The family's own list has QI and ZA: every installed list is offered.
            tab.click("FAMILY")
            tab.fill("Words", "qi za")
            tab.click("Judge")
            tab.text(ruling("ACCEPTABLE"), place="verdict", contains=True)
            tab.text("QI ZA", place="verdict", contains=True)
            tab.text("Word list: FAMILY", place="verdict", contains=True)
            tab.tap_ident("verdict")

            # Several words are one play: one bad word makes the play unacceptable.
            tab.click("ENABLE")
            tab.fill("Words", "QUIZ, QI")
            tab.click("Judge")
            tab.text(ruling("UNACCEPTABLE"), place="verdict", contains=True)
            tab.text("QUIZ QI", place="verdict", contains=True)
            tab.tap_ident("verdict")

            # Digits and symbols: a sentence, not a crash; the field stays for another try.
            tab.fill("Words", "QU1Z")
            tab.click("Judge")
            tab.wait_ident("lookup-error")
            tab.text("'QU1Z' is not a word: use letters only (no digits, spaces or punctuation).", place="lookup-error")
            tab.shot("l03-lookup-not-a-word")
            tab.fill("Words", "Z@P!")
            tab.click("Judge")
            tab.text("'Z@P!' is not a word: use letters only (no digits, spaces or punctuation).", place="lookup-error")
            tab.click("Back")
            tab.text("New game", place="role:button")
        except Exception:
            failure_shot(tab, "lookup")
            raise
        browser.close()


def _cli_best(tmp_path: Path, rows: list[str], rack: str) -> str:
    board = tmp_path / "board.txt"
    board.write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "moves", "--board", str(board), "--rack", rack,
                           "--limit", "1"], cwd=REPO, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_rack_check_yes_and_no_on_a_real_endgame_and_the_best_play_review(tmp_path, playwright_instance):  # noqa: F811
    from companion.games.classic.gcg import classic_events_from_record
    from companion.games.classic.table import rebuild
    from companion.gcg import parse_gcg

    lines = shared_path(*ENDGAME).read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith(">New_Player_1: RRV -"))
    record = tmp_path / "endgame.gcg"
    record.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    subprocess.run([sys.executable, "-m", "companion", "games", "import", str(record), "--data", str(data)],
                   cwd=REPO, check=True, capture_output=True, timeout=120)
    rows = rebuild("x", {}, classic_events_from_record(parse_gcg(record.read_text()))).board.rows()
    pos, word, score = _cli_best(tmp_path, rows, "?N").split()
    with app_server(data) as url:
        browser = launch(playwright_instance)
        tab = new_tab(browser, url)
        try:
            # A phone that only watches asks: nothing in the game changes.
            tab.text("Watching (read-only)")
            tab.click("Can anyone still play?")
            tab.fill("Rack", "rrv")
            tab.click("Can I play?")
            tab.wait_ident("rack-answer")
            tab.text("No: RRV has no play on this board (ENABLE).", place="rack-answer")
            assert tab.button("Show my best play").count() == 0
            tab.shot("l04-rack-check-no")

            tab.fill("Rack", "?N")
            tab.click("Can I play?")
            tab.text("Yes: ?N has a play on this board (ENABLE).", place="rack-answer")
            assert tab.page.get_by_text("Best play:").count() == 0, "the play stays hidden until asked"
            tab.click("Show my best play")
            tab.wait_ident("best-play")
            way = "down" if pos[0].isalpha() else "across"
            tab.text(re.compile(re.escape(f"Best play: {pos} {word} ({way}") + ".*" + re.escape(f", {score} points.")), place="best-play")
            tab.shot("l05-rack-check-best-play")

            tab.fill("Rack", "QQQ")
            tab.click("Can I play?")
            tab.text("The rack has 3 Qs but every Q is on the board: check the rack.", place="rack-error")

            # The referee: look a word up from the game's screen, then end the game and review it.
            tab.click("Home")
            tab.click("Open")  # the home screen lists the table; its page offers to referee it
            tab.click("Referee this game")
            # Wait for the referee's own screen (its Pass button): the follower's page also says whose turn
            # it is, and its navigation row's third button ('Look up a word') becomes 'End' in the
            # referee's row, so a tap found on the old row would land on 'End'.
            tab.button("Pass").first.wait_for(timeout=25_000)
            tab.text("New_Player_1 to play")
            tab.click("Look up a word")
            tab.fill("Words", "RAJA")
            tab.click("Judge")
            tab.text(ruling("ACCEPTABLE"), place="verdict", contains=True)
            tab.tap_ident("verdict")
            tab.click("Back")
            tab.text("New_Player_1 to play")
            # New_Player_1 passes (RRV has no play); Quackle's play is typed with the rack it came from.
            tab.click("Pass")
            tab.text("New_Player_1 passed.", place="info")
            tab.fill("Rack (optional)", "?N")
            tab.fill("Word", "WEN")
            tab.fill("Square", "A8")
            tab.click("Down")
            tab.click("Confirm play")
            tab.text("Quackle played WEN at A8: 6 points.", place="info")
            tab.click("End game by agreement")
            tab.fill("New_Player_1 rack", "RRV")
            tab.fill("Quackle rack", "?")
            tab.click("Finish and show the winner")
            tab.wait_ident("winner")
            tab.click("Show the best play of each turn")
            tab.wait_ident("play-review")
            tab.text("1. New_Player_1 (AAEJLOR): played 8G RAJA 22; the best play.", place="play-review", contains=True)
            tab.text(re.compile(r"3\. New_Player_1 \(ELNOPPS\): played 9F PELO\. 24; best \S+ \S+ 25 \(\+1\)\."), place="play-review", contains=True)
            tab.text("14. Quackle (EEITTVW): played 8A WEET 32 (not in the word list); best in the list 3B TWE.VE 26.", place="play-review", contains=True)
            tab.text(f"25. Quackle (?N): played A8 WEN 6; best {pos} {word} {score} (+{int(score) - 6}).", place="play-review", contains=True)
            tab.page.set_viewport_size(LAPTOP)
            tab.page.mouse.wheel(0, 2000)
            tab.shot("l06-best-play-review")
        except Exception:
            failure_shot(tab, "rack-check")
            raise
        browser.close()
