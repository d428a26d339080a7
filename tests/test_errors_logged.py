"""No fault is swallowed: each place that turns an unexpected exception into a sentence for the user (or
into a dropped tab) logs it with its traceback through the project's logger (`companion.ui`,
`companion.games`), and the user sees the same one sentence as before.

Each test injects a real fault where one can be made (a game module that does not import, a tab whose
redraw raises) and otherwise makes a function of the code path raise (the board reader, the move
generator, the store), then checks both the log record (its traceback is that exception) and the sentence.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.classic.table import new_classic
from companion.ui.table import PlayerInfo


def _logged(caplog: pytest.LogCaptureFixture, logger: str, exc_type: type[BaseException]) -> logging.LogRecord:
    """The one record of `logger` carrying a traceback of `exc_type`."""
    records = [r for r in caplog.records if r.name == logger and r.exc_info and r.exc_info[0] is exc_type]
    assert len(records) == 1, [(r.name, r.getMessage(), r.exc_info) for r in caplog.records]
    assert records[0].levelno >= logging.WARNING
    assert exc_type.__name__ in caplog.text and "Traceback" in caplog.text  # printed with its traceback
    return records[0]


@pytest.fixture
def hub_game(tmp_path: Path) -> Iterator[object]:
    """A classic game on the hub's table, saved to a real SQLite file in `tmp_path`."""
    from companion.ui.hub import HUB

    HUB.configure(str(tmp_path))
    try:
        game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
        HUB.set_game(game)
        yield game
    finally:
        HUB.configure(None)


def _photo() -> bytes:
    """Any JPEG: a board-coloured square drawn in memory."""
    image = np.full((240, 240, 3), (90, 160, 200), np.uint8)
    cv2.rectangle(image, (20, 20), (220, 220), (30, 60, 30), 3)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def test_a_fault_in_the_board_reader_is_logged_and_the_photo_refused_as_before(
        hub_game: object, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import vision.read
    from companion.ui.models import AppState

    def broken_reader(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")  # a bug in vision/, not a bad photo

    monkeypatch.setattr(vision.read, "read_board", broken_reader)
    tab = AppState(table=hub_game.id, session_key="tab-a")  # type: ignore[attr-defined]
    asyncio.run(tab.read_photo(_photo()))
    assert tab.error == ("The board could not be read from this photo (division by zero). "
                         "Try again or enter the play by hand.")
    assert "board reader" in _logged(caplog, "companion.ui", ZeroDivisionError).getMessage()


def test_a_fault_in_a_table_action_is_logged_and_the_game_left_as_it_was(
        hub_game: object, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from companion.ui.models import AppState

    def pass_turn(self: object) -> None:  # named as the method it replaces: the log names the action
        raise KeyError("turn")

    # on the class: the tab passes the table's method (`type(game).pass_turn`), not its name
    monkeypatch.setattr(type(hub_game), "pass_turn", pass_turn)
    tab = AppState(table=hub_game.id, session_key="tab-a")  # type: ignore[attr-defined]
    events = len(hub_game.log.events)  # type: ignore[attr-defined]
    tab.pass_turn()
    assert tab.error == "Something went wrong (KeyError: 'turn'). The game was not changed."
    assert len(hub_game.log.events) == events  # type: ignore[attr-defined]
    assert "pass_turn" in _logged(caplog, "companion.ui", KeyError).getMessage()


def test_a_tab_whose_redraw_fails_is_logged_and_dropped_while_the_others_redraw(
        caplog: pytest.LogCaptureFixture) -> None:
    from companion.ui.hub import Hub

    hub = Hub()
    drawn: list[str] = []

    class ClosedPage:  # what a tab's callback meets once its connection is gone (Flet's session.connection)
        connection = None

    def closed_tab() -> None:
        drawn.append(ClosedPage.connection.loop)  # type: ignore[attr-defined]

    hub.subscribe("tab-gone", closed_tab)
    hub.subscribe("tab-live", lambda: drawn.append("live"))
    hub.publish(None)
    assert drawn == ["live"] and hub.watchers == 1
    assert "tab-gone" in _logged(caplog, "companion.ui", AttributeError).getMessage()


def test_a_fault_in_the_move_generator_is_logged_and_the_review_says_it_could_not_be_made(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import companion.rack_check
    from companion.ui.components.review import review_lines

    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    game.play_with_rack("8H", "QUIZ", "QUIZAEI")
    assert review_lines(game)[0].startswith("1. Ann (QUIZAEI): played 8H QUIZ 44;")  # the review as it works

    def broken_search(*args: object, **kwargs: object) -> None:
        raise IndexError("array index out of range")

    monkeypatch.setattr(companion.rack_check, "best_plays", broken_search)
    game.play_with_rack("8G", "A...", "AEIRST?")  # a new play: the review is made again
    assert review_lines(game) == ["The review could not be made (IndexError: array index out of range)."]
    assert "review" in _logged(caplog, "companion.ui", IndexError).getMessage()


def test_a_fault_while_exporting_is_logged_and_said_in_the_same_sentence_as_a_store_error(
        hub_game: object, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from companion.store import Store
    from companion.ui.components.home import export_text
    from companion.ui.hub import HUB
    from companion.ui.models import AppState

    game_id = hub_game.id  # type: ignore[attr-defined]
    HUB.store.save(hub_game)
    tab = AppState(session_key="tab-a")
    assert '"variant": "classic"' in (export_text(tab, game_id) or "")
    assert export_text(tab, "no-such-game") is None  # a store error: said, not logged as a fault
    assert tab.error.startswith("The game could not be exported (") and not caplog.records

    def broken_export(self: Store, game_id: str) -> str:
        raise TypeError("export_json() got an unexpected keyword")

    monkeypatch.setattr(Store, "export_json", broken_export)
    assert export_text(tab, game_id) is None
    assert tab.error == "The game could not be exported (export_json() got an unexpected keyword)."
    assert game_id in _logged(caplog, "companion.ui", TypeError).getMessage()


def test_a_fault_in_the_store_writer_is_logged_and_shown_and_the_waiting_tabs_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from companion.ui.persist import GameStore

    store = GameStore(str(tmp_path))
    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])

    def broken_save(games: list[object]) -> None:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(store, "_save_all", broken_save)
    store.save_soon(game).result(timeout=30)  # the waiting tab is told, not left hanging
    assert store.error == "The game could not be saved (the disk went away)."
    assert "saving" in _logged(caplog, "companion.ui", RuntimeError).getMessage()


def test_the_store_writer_lets_an_exit_through_after_telling_the_waiting_tabs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`BaseException` is caught only to clean up: the writer tells the waiting tabs and stops, the exit
    going on up (to the thread's hook); it is not turned into an error line (a shutdown is no failed save)."""
    from companion.ui.persist import GameStore

    went_up: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", went_up.append)

    store = GameStore(str(tmp_path))
    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])

    def exiting_save(games: list[object]) -> None:
        raise SystemExit(0)

    monkeypatch.setattr(store, "_save_all", exiting_save)
    store.save_soon(game).result(timeout=30)
    assert store._writer_thread is not None
    store._writer_thread.join(timeout=30)
    assert not store._writer_thread.is_alive() and store.error == ""
    assert [a.exc_type for a in went_up] == [SystemExit]


def test_a_game_module_that_does_not_import_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    from companion.games import GAMES, UnknownGame

    GAMES.lines["broken"] = "tests.games.no_such_module:GAME"  # a real import failure
    try:
        with pytest.raises(UnknownGame, match="could not be loaded"):
            GAMES.get("broken")
    finally:
        GAMES.unregister("broken")
        GAMES.problems.pop("broken", None)
    assert "broken" in _logged(caplog, "companion.games", ModuleNotFoundError).getMessage()


def test_a_camera_that_cannot_start_or_shoot_is_logged_and_the_upload_offered(
        caplog: pytest.LogCaptureFixture) -> None:
    """A real flet-camera control used before it is on a page (the fault a reused control met: see
    `CameraPanel`) fails as a camera does; the line under it offers the upload, the error line says it."""
    import flet_camera as fc

    from companion.ui.components.camera import start_camera, take_photo
    from companion.ui.models import AppState

    tab = AppState(session_key="tab-a")
    camera = fc.Camera(width=320, height=240, preview_enabled=True)
    ready, line = asyncio.run(start_camera(camera, tab, fc.ResolutionPreset.VERY_HIGH))
    assert not ready
    assert re.fullmatch(r"The camera could not start \(Camera\(.*\) Control must be added to the page first\)\. "
                        r"Use Upload photo instead\.", line)
    assert "camera could not start" in _logged(caplog, "companion.ui", RuntimeError).getMessage()
    caplog.clear()
    assert asyncio.run(take_photo(camera, tab)) is None
    assert re.fullmatch(r"The photo could not be taken \(Camera\(.*\) Control must be added to the page first\)\.",
                        tab.error)
    assert "take the photo" in _logged(caplog, "companion.ui", RuntimeError).getMessage()
