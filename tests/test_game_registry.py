"""The game registry: games are found by id, loaded lazily, one broken game leaves the others working,
and a game written only in the tests (tests/games/counter_game.py) plugs in: it registers, starts, is
saved to a real SQLite store, resumes, exports, imports and replays with `companion replay`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games import GAMES, UnknownGame
from companion.games.spec import RESERVED_SCREEN_KEYS, GameUI, Screen
from companion.store import Store, StoreError
from companion.ui.components import app, tools
from companion.ui.persist import GameStore
from companion.ui.table import PlayerInfo, TableError
from tests.conftest import REPO
from tests.games import counter_game

PLUG_IN = "tests.games.counter_game:GAME"


@pytest.fixture
def counter() -> Iterator[None]:
    GAMES.register(counter_game.GAME, replace=True)
    try:
        yield
    finally:
        GAMES.unregister(counter_game.VARIANT)


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})}, check=False)


def test_the_stored_ids_of_the_shipped_games_stay_as_saved_games_have_them() -> None:
    assert GAMES.ids()[:2] == ["monopoly", "classic"]
    assert [GAMES.get(i).label for i in ("monopoly", "classic")] == ["Monopoly Scrabble", "Classic Scrabble"]
    for spec in GAMES.available():
        assert spec.rules.VARIANT == spec.id
        assert spec.load_ui().screens  # every shipped game has screens


def test_importing_the_registry_imports_no_game() -> None:
    code = ("import sys, companion.games; "
            "print(any(m.startswith(('companion.games.classic', 'companion.games.monopoly_scrabble', 'flet')) "
            "for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess': the games are monopoly, classic"):
        GAMES.get("chess")


def test_a_broken_game_is_reported_and_leaves_the_others_working() -> None:
    GAMES.lines["broken"] = "tests.games.no_such_module:GAME"
    try:
        with pytest.raises(UnknownGame, match="could not be loaded"):
            GAMES.get("broken")
        assert [s.id for s in GAMES.available()][:2] == ["monopoly", "classic"]
        assert "broken" in GAMES.problems
    finally:
        GAMES.unregister("broken")
        GAMES.problems.pop("broken", None)


def test_registering_an_id_twice_is_refused(counter: None) -> None:
    with pytest.raises(ValueError, match="already registered"):
        GAMES.register(counter_game.GAME)


def test_a_game_written_in_a_test_starts_saves_resumes_and_replays(counter: None, tmp_path: Path) -> None:
    players = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]
    game = counter_game.start(None, players)
    store = GameStore(tmp_path)
    store.save(game)
    game.tap()
    game.tap()
    with pytest.raises(TableError, match="It is Ann's tap, not Bob's."):
        game.push(counter_game.Tap(player="Bob"))
    game.tap()
    game.undo()
    store.save(game)
    assert store.error == ""

    again, note = GameStore(tmp_path).resume()
    assert note == "Resumed the open game of Ann, Bob (5 events)."
    assert isinstance(again, counter_game.CounterTable) and again.id == game.id
    assert again.state.counts == {"Ann": 1, "Bob": 1} and again.current_player == "Ann"
    assert [again.colour(p) for p in again.players] == ["red", "blue"]
    again.tap()
    again.tap()
    again.tap()
    assert again.finished and again.winner() == ["Ann"]

    with Store(tmp_path / "games.sqlite") as db:
        (info,) = db.games()
        assert info.variant == "counter" and info.settings["table"]["kind"] == "counter"
        exported = db.export_json(game.id)
        copy = db.import_json(exported)
        assert db.export_json(copy) == exported
        with pytest.raises(StoreError, match="only classic games export as GCG and this is a counter game"):
            db.export_gcg(game.id)
    log = tmp_path / "counter.json"
    log.write_text(exported, encoding="utf-8")

    done = _cli("replay", str(log), "--json", env={"COMPANION_GAMES": PLUG_IN})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"variant": "counter", "counts": {"Ann": 1, "Bob": 1}, "finished": False,
                                       "winner": None}
    # A broken plug-in named beside it is reported and changes nothing for the others.
    done = _cli("replay", str(log), env={"COMPANION_GAMES": "tests.games.no_such_module:GAME," + PLUG_IN})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Counter: Ann 1, Bob 1"
    # Without the plug-in the app does not know the game and says so.
    done = _cli("replay", str(log))
    assert done.returncode == 2 and 'it must be "monopoly" or "classic"' in done.stderr


def test_a_game_screen_with_a_shell_key_is_refused_when_the_game_is_built() -> None:
    ui = counter_game.UI
    with pytest.raises(ValueError, match="'join' are the app shell's own screens"):
        GameUI(setup_form=ui.setup_form, start=ui.start, rebuild=ui.rebuild, follower=ui.follower,
               screens=(Screen("count", "Count", ui.screens[0].view), Screen("join", "Join", ui.screens[0].view)))
    with pytest.raises(ValueError, match="'count' are used by more than one"):
        GameUI(setup_form=ui.setup_form, start=ui.start, rebuild=ui.rebuild, follower=ui.follower,
               screens=(ui.screens[0], ui.screens[0]))
    with pytest.raises(ValueError, match="end_screen 'over' is not one of the game's screens"):
        GameUI(setup_form=ui.setup_form, start=ui.start, rebuild=ui.rebuild, follower=ui.follower,
               screens=ui.screens, end_screen="over")
    assert "rack" in RESERVED_SCREEN_KEYS


def test_the_reserved_screen_keys_are_the_shells_screens() -> None:
    """The one list (`RESERVED_SCREEN_KEYS`) holds every screen the shell draws by key: its own screens and
    its tools' (`companion/ui/components/tools.py`), so a game cannot shadow a screen added to the shell."""
    drawn_by_the_shell = {"home", "setup", "follow", "verdict", "join", *tools.SCREENS, *tools.FULL_SCREENS}
    assert drawn_by_the_shell == set(RESERVED_SCREEN_KEYS)
    assert app.SHELL_SCREENS == RESERVED_SCREEN_KEYS
    for spec in GAMES.available():
        assert not RESERVED_SCREEN_KEYS & {s.key for s in spec.load_ui().screens}
