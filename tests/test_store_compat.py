"""Saved games written by the release before the game registry (commit 8c68107) still open unchanged.

The old code, run from git into a temporary folder, wrote a games.sqlite the way the old app did (a
classic game and a Monopoly Scrabble game, through its GameStore: `OLD_APP`). That folder is kept in
`tests/data/store_compat_8c68107/` (the file, its clocks, and what the old code printed: logs, summaries,
the format version), so the check runs in any checkout, a shallow one too. The current code opens a copy
of that file without changing its format, reads every event, folds each game to the same summary the
old code printed, exports the same logs, and resumes the open game at the table.

Where the git history holds the old release, a second test runs the old code again and checks that the
kept files are what it writes (`python -m tests.test_store_compat` writes them anew).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.store import Store
from companion.ui.persist import GameStore
from tests.conftest import REPO

OLD_RELEASE = "8c68107"
KEPT = REPO / "tests" / "data" / f"store_compat_{OLD_RELEASE}"

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


def _old_release_code(into: Path) -> bool:
    """The previous release's code, checked out from git into `into`; False when the history lacks it."""
    found = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{OLD_RELEASE}^{{commit}}"],
                           capture_output=True, check=False)
    if found.returncode != 0:
        return False
    archive = subprocess.run(["git", "-C", str(REPO), "archive", OLD_RELEASE, "companion", "assets/profiles",
                              "assets/rules", "assets/layouts", "assets/tilesets"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return True


def _run_old_app(code: Path, data: Path) -> dict[str, dict[str, object]]:
    """Run `OLD_APP` with the old code: it writes `data`/games.sqlite and prints what it wrote."""
    done = subprocess.run([sys.executable, "-c", OLD_APP, str(data)], cwd=code, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_games_file_written_by_the_old_release_opens_unchanged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(KEPT, data)  # a copy: the kept file must stay as the old release wrote it
    old = json.loads((data / "old_release.json").read_text(encoding="utf-8"))
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


def test_the_kept_file_is_what_the_old_release_writes(tmp_path: Path) -> None:
    code = tmp_path / "old-release"
    code.mkdir()
    if not _old_release_code(code):
        pytest.skip(f"the old release {OLD_RELEASE} is not in this checkout's git history (a shallow clone): "
                    f"the kept file in {KEPT.relative_to(REPO)} was checked where it is")
    again = _run_old_app(code, tmp_path / "data")
    kept = json.loads((KEPT / "old_release.json").read_text(encoding="utf-8"))
    # Game ids are random: compare the games by variant.
    assert sorted((g["variant"], g["log"], json.dumps(g["summary"], sort_keys=True), g["version"]) for g in again.values()) == \
        sorted((g["variant"], g["log"], json.dumps(g["summary"], sort_keys=True), g["version"]) for g in kept.values())


if __name__ == "__main__":  # write the kept files anew with the old release's code
    with tempfile.TemporaryDirectory() as tmp:
        if not _old_release_code(Path(tmp)):
            sys.exit(f"the old release {OLD_RELEASE} is not in this checkout's git history")
        shutil.rmtree(KEPT, ignore_errors=True)
        written = _run_old_app(Path(tmp), KEPT)
        (KEPT / "old_release.json").write_text(json.dumps(written, indent=1, sort_keys=True), encoding="utf-8")
        print(f"wrote {KEPT}")
