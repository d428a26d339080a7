"""Saved games written by the release before the game registry (commit 8c68107) still open unchanged.

The old code is taken from git into a temporary folder and run there: it writes a games.sqlite the way
the old app did (a classic game and a Monopoly Scrabble game, through its GameStore). The current code
then opens that file without changing its format, reads every event, folds each game to the same
summary the old code printed, exports the same logs, and resumes the open game at the table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.store import Store
from companion.ui.persist import GameStore
from tests.conftest import REPO

OLD_RELEASE = "8c68107"

OLD_APP = r"""
import json, sys
from companion.commands.replay import _classic_summary
from companion.store import Store
from companion.ui.monopoly_adapter import new_monopoly
from companion.ui.persist import GameStore
from companion.ui.table import PlayerInfo, TableGame

data = sys.argv[1]
store = GameStore(data)
players = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]
m = new_monopoly(players, "Ann")
m.play("8H", "PUNCT")
m.challenge("Bob")
m.play("8E", "HOTEL")
store.save(m)
c = TableGame.new_classic(players, preset="club")
c.play("8H", "HOTEL")
store.save(c)
c.pass_turn()
c.undo()
c.exchange(3)
store.save(c)
with Store(store.path) as db:
    out = {g.id: {"variant": g.variant, "log": db.export_json(g.id), "version": db._conn.execute(
        "PRAGMA user_version").fetchone()[0]} for g in db.games()}
out[m.id]["summary"] = m.engine.state.summary()
out[c.id]["summary"] = _classic_summary(c.engine.state)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def old_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The previous release's code, checked out from git (skip when the history is not there)."""
    found = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{OLD_RELEASE}^{{commit}}"],
                           capture_output=True, check=False)
    if found.returncode != 0:
        pytest.skip(f"the old release {OLD_RELEASE} is not in this checkout's git history")
    folder = tmp_path_factory.mktemp("old-release")
    archive = subprocess.run(["git", "-C", str(REPO), "archive", OLD_RELEASE, "companion", "assets/profiles",
                              "assets/rules", "assets/layouts", "assets/tilesets"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def test_a_games_file_written_by_the_old_release_opens_unchanged(old_release: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = subprocess.run([sys.executable, "-c", OLD_APP, str(data)], cwd=old_release, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    old = json.loads(done.stdout)
    path = data / "games.sqlite"
    before = path.read_bytes()

    with Store(path) as db:
        games = {g.id: g for g in db.games()}
        assert {g.variant for g in games.values()} == {"classic", "monopoly"}
        for game_id, was in old.items():
            assert db._conn.execute("PRAGMA user_version").fetchone()[0] == was["version"]
            assert json.loads(db.export_json(game_id)) == json.loads(was["log"])
            spec = GAMES.get(was["variant"])
            assert spec.summary(db.fold(game_id)) == was["summary"]
    # Reading changed nothing in the file: the format is the same, so no migration (and no backup) was made.
    assert path.read_bytes() == before
    assert sorted(p.name for p in data.iterdir() if "games.sqlite" in p.name) == ["games.sqlite"]

    table, note = GameStore(data).resume()
    assert table is not None and table.kind == "classic"
    assert note.startswith("Resumed the open game of Ann, Bob (5 events).")
    assert table.scores() == {"Ann": 18, "Bob": 0} and table.current_player == "Ann"
