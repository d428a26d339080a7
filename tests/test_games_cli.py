"""`companion games`: list, export, import and back up the app's game file, on a real SQLite file."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.classic.rules import Play, Settings, Start
from companion.store import Store, StoreOpenError
from tests.conftest import REPO

SETTINGS = Settings(players=["Ann", "Bob"])


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    with Store(folder / "games.sqlite") as store:
        store.create_game("classic", {"table": {"players": [["Ann", "red"], ["Bob", "blue"]]}}, game_id="g1")
        store.append("g1", [Start(settings=SETTINGS)], 0)
        store.append("g1", [Play(player="Ann", position="8G", word="CAT")], 1)
        store.append("g1", [Play(player="Bob", position="I7", word="AT")], 2)
    return folder


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_list_export_import_gives_an_identical_log(data: Path, tmp_path: Path, capsys) -> None:
    status, out, _ = _run(capsys, "games", "list", "--data", str(data))
    assert status == 0 and out.startswith("g1\tclassic\tactive\t3 events\tAnn, Bob\t")
    exported = tmp_path / "g1.json"
    assert _run(capsys, "games", "--data", str(data), "export", "g1", "-o", str(exported))[0] == 0
    status, out, _ = _run(capsys, "games", "export", "g1", "--data", str(data))
    assert out.rstrip("\n") == exported.read_text()
    other = tmp_path / "other"
    status, out, _ = _run(capsys, "games", "import", str(exported), "--data", str(other))
    assert status == 0 and "3 events" in out
    new_id = out.split()[2]
    with Store(other / "games.sqlite") as copy, Store(data / "games.sqlite") as original:
        assert copy.export_json(new_id) == original.export_json("g1") == exported.read_text()
        assert copy.events(new_id) == original.events("g1")
    # GCG too: export -> import -> export is the same record
    gcg = tmp_path / "g1.gcg"
    assert _run(capsys, "games", "export", "g1", "--gcg", "-o", str(gcg), "--data", str(data))[0] == 0
    status, out, _ = _run(capsys, "games", "import", str(gcg), "--data", str(other))
    assert status == 0
    with Store(other / "games.sqlite") as copy:
        assert copy.export_gcg(out.split()[2]) == gcg.read_text()


@pytest.mark.parametrize(("argv", "message"), [
    (["export", "nope"], "there is no game 'nope'"),
    (["export", "g1", "-o", "/nonexistent/x.json"], "cannot write"),
    (["import", "missing.json"], "does not exist"),
    (["import", "junk.json"], "not valid JSON"),
    (["import", "junk.gcg"], "cannot be imported"),
    (["backup", "exists.sqlite"], "already exists"),
    (["backup", "/nonexistent/b.sqlite"], "does not exist"),
])
def test_errors_are_one_sentence_exit_2_and_change_nothing(data: Path, tmp_path: Path, capsys, argv, message,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "junk.json").write_text('{"variant": "classic", "events": [')
    (tmp_path / "junk.gcg").write_bytes(b"\x00\xff#player1 a\n>zzz")
    (tmp_path / "exists.sqlite").write_text("mine")
    before = hashlib.sha256((data / "games.sqlite").read_bytes()).hexdigest()
    status, _, err = _run(capsys, "games", "--data", str(data), *argv)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert hashlib.sha256((data / "games.sqlite").read_bytes()).hexdigest() == before
    assert (tmp_path / "exists.sqlite").read_text() == "mine"


def test_no_game_file_yet(tmp_path: Path, capsys) -> None:
    status, out, _ = _run(capsys, "games", "list", "--data", str(tmp_path / "empty"))
    assert status == 0 and "no saved games yet" in out
    assert not (tmp_path / "empty").exists()  # listing creates nothing
    status, _, err = _run(capsys, "games", "backup", str(tmp_path / "b.sqlite"), "--data", str(tmp_path / "empty"))
    assert status == 2 and "no game file" in err


def test_a_foreign_file_is_refused_untouched(tmp_path: Path, capsys) -> None:
    (tmp_path / "games.sqlite").write_bytes(b"not a database at all" * 10)
    status, _, err = _run(capsys, "games", "list", "--data", str(tmp_path))
    assert status == 2 and "not a game file" in err
    assert (tmp_path / "games.sqlite").read_bytes() == b"not a database at all" * 10


def test_backup_while_another_process_writes_is_consistent(data: Path, tmp_path: Path, capsys) -> None:
    """A writer process appends turns while backups are taken: every backup is a whole, readable game
    file holding a prefix of the turns (never a torn one), and the last backup after the writer is done
    holds them all."""
    writer = subprocess.Popen([sys.executable, "-c", f"""
import sys
from companion.store import Store
from companion.games.classic.rules import Pass
with Store({str(data / 'games.sqlite')!r}) as s:
    seq = s.last_seq('g1')
    for i in range(60):
        seq = s.append('g1', [Pass(player='Ann' if i % 2 else 'Bob')], seq)
print(seq)
"""], cwd=REPO, stdout=subprocess.PIPE, text=True)
    copies = []
    while writer.poll() is None and len(copies) < 15:
        target = tmp_path / f"backup{len(copies)}.sqlite"
        assert _run(capsys, "games", "backup", str(target), "--data", str(data))[0] == 0
        copies.append(target)
    out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0
    final = tmp_path / "final.sqlite"
    assert _run(capsys, "games", "backup", str(final), "--data", str(data))[0] == 0
    copies.append(final)
    seqs = []
    for copy in copies:
        assert not Path(str(copy) + "-wal").exists()  # one self-contained file
        with Store(copy) as b:
            seqs.append(b.last_seq("g1"))
            assert len(b.events("g1")) == seqs[-1] and b.turns("g1")[-1] == [seqs[-1]]  # every event reads back
    assert seqs == sorted(seqs) and seqs[-1] == int(out) == 63


def test_backup_refuses_a_source_that_is_not_a_game_file(tmp_path: Path) -> None:
    from companion.store import backup_to

    (tmp_path / "x.sqlite").write_text("hello" * 40)
    with pytest.raises(StoreOpenError):
        backup_to(tmp_path / "x.sqlite", tmp_path / "y.sqlite")
    assert not (tmp_path / "y.sqlite").exists()
