"""GCG records: reading every line kind, writing back, and replaying real games with 0 mismatches.

The full replay of all 2,500 records is `python benchmarks/gcg_verify.py`; here a sample of each set
runs, plus every record by human players and every parser fixture.
"""

from __future__ import annotations

import csv
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.gcg import EventKind, GcgError, parse_gcg, parse_gcg_bytes, read_gcg, write_gcg
from companion.gcg_replay import FindingKind, replay, verify_file
from companion.rules.board import load_layout
from companion.rules.tiles import load_tileset
from tests.conftest import REPO, shared_path

EN = load_tileset("en")
LAYOUT = load_layout("standard")

EVERY_KIND = """#character-encoding UTF-8
#player1 ann Ann Smith
#player2 bob Bob Jones
#title A test game
#lexicon NWL2023
#id io.example 42
#description every line kind
#note before the first move
>ann: AEINRST 8D RETAINS +70 70
#note a bingo
spread over two lines
>bob: EIOQUZ? 9H QUIZ +47 47
>ann: ABCDEFG - +0 70
>bob: EIO?LLL -LLL +0 47
>ann: ABCDEFG -3 +0 70
>bob: EIOOPRS H7 S.OOPIER +83 130
>bob: EIOOPRS -- -83 47
>ann: ABCDEFG (challenge) +5 75
>ann: ABCDEFG (time) -10 65
>bob:  (ABCDEFG) +32 79
>ann: ABCDEFG (ABCDEFG) -16 49
#rack1 ABCDEFG
#rack2 EIOOPRS
"""


def test_every_line_kind_is_read() -> None:
    record = parse_gcg(EVERY_KIND)
    assert [p.nick for p in record.players] == ["ann", "bob"]
    assert record.pragmas["title"] == "A test game" and record.lexicon == "NWL2023"
    assert record.notes == ["before the first move"]
    kinds = [e.kind for e in record.events]
    assert kinds == [EventKind.PLAY, EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE, EventKind.EXCHANGE,
                     EventKind.PLAY, EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS, EventKind.TIME_PENALTY,
                     EventKind.END_POINTS, EventKind.RACK_PENALTY]
    assert record.events[0].notes == ["a bingo\nspread over two lines"]
    assert record.events[3].tiles == "LLL" and record.events[4].count == 3
    assert record.events[9].tiles == "ABCDEFG" and record.events[9].amount == 32
    assert record.last_racks == {1: "ABCDEFG", 2: "EIOOPRS"}


def test_writing_reads_back_equal() -> None:
    record = parse_gcg(EVERY_KIND)
    again = parse_gcg(write_gcg(record))
    assert again == record
    assert write_gcg(again) == write_gcg(record)


def test_old_forms_are_read() -> None:
    text = "#player1 a A\n#player2 b B\n>a: CNNTU?? 8b NoCTUrN +70 70\n>b: AFFIABE e8 TAFFIA +24 24  FA, AT\n"
    record = parse_gcg(text)
    assert record.events[0].position == "8b" and record.events[1].comment == "FA, AT"
    report = replay(record, EN, LAYOUT)
    assert report.placements == 2 and not report.mismatches and report.error is None


def test_quackle_negative_leftover_is_read() -> None:
    record = parse_gcg("#player1 a A\n#player2 b B\n>a: U (U) +-1 480\n")
    assert record.events[0].kind is EventKind.RACK_PENALTY and record.events[0].amount == -1


@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 0, "empty"),
    ("#player1 a A\n#player2 b B\n>a: ABC 8D ABC +5\n", 3, "running total"),
    ("#player1 a A\n#player2 b B\n>a: AB3 8D AB +5 5\n", 3, "not a tile"),
    ("#player1 a A\n#player2 b B\n>c: ABC 8D ABC +5 5\n", 3, "not one of the players"),
    (">a: ABC 8D ABC +5 5\n#player1 a A\n", 1, "before the #player"),
    ("#player1 a A\n#player1 b B\n", 2, "given twice"),
    ("#player1 a A\n#player2 b B\nhello\n", 3, "neither"),
    ("#character-encoding KLINGON\n#player1 a A\n", 1, "unknown"),
    ("#player1 a A\n#player2 b B\n#rack1 ABC\n>a: ABC 8D ABC +5 5\n", 4, "last-rack"),
])
def test_unreadable_records_say_where_and_why(text: str, line: int, words: str) -> None:
    with pytest.raises(GcgError) as exc:
        parse_gcg_bytes(text.encode())
    assert exc.value.line == line and words in exc.value.reason


def test_encoding_defaults_to_latin1_and_honours_utf8() -> None:
    latin = "#player1 césar César\n#player2 b B\n".encode("iso-8859-1")
    assert parse_gcg_bytes(latin).players[0].nick == "césar"
    utf = "#character-encoding UTF-8\n#player1 césar César\n#player2 b B\n".encode()
    assert parse_gcg_bytes(utf).players[0].nick == "césar"


def _human_records() -> list[Path]:
    root = shared_path("gcg", "human")
    return sorted(p for p in root.rglob("*.gcg") if "MAGPIE" not in str(p) and p.name != "polish_endgame.gcg")


def test_every_human_game_replays_with_no_mismatch() -> None:
    placements = 0
    for path in _human_records():
        report = verify_file(path, EN, LAYOUT)
        assert report.error is None, (path, report.error)
        assert not report.mismatches, (path, report.mismatches)
        placements += report.placements
    assert placements > 800


def test_withdrawn_phonies_are_reported_not_counted() -> None:
    path = shared_path("gcg", "human", "domino14+macondo", "gcgio", "testdata", "noah_vs_peter.gcg")
    report = verify_file(path, EN, LAYOUT)
    withdrawn = [f for f in report.findings if f.kind is FindingKind.WITHDRAWN]
    assert len(withdrawn) == 2 and not report.mismatches


def test_a_withdrawn_play_with_a_wrong_score_is_not_a_mismatch() -> None:
    text = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +68 68\n>a: AEINRST -- -68 0\n"
    report = replay(parse_gcg(text), EN, LAYOUT)
    assert not report.mismatches
    assert any("recorded 68, computed 66" in f.message for f in report.findings)


def test_a_wrong_score_is_a_mismatch_reported_once() -> None:
    text = ("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +67 67\n>b: QU 9H QU +26 26\n"
            ">a: XI 10H XI +31 98\n")
    report = replay(parse_gcg(text), EN, LAYOUT)
    assert [(f.line, f.recorded, f.computed) for f in report.mismatches] == [(3, 67, 66)]


def _fixture_classes() -> dict[str, str]:
    manifest = shared_path("gcg", "MANIFEST.tsv")
    with manifest.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return {Path(r["local_file"]).name: r["kind"] for r in rows if "MAGPIE" in r["local_file"]}


def test_every_deliberately_broken_fixture_is_caught() -> None:
    folder = shared_path("gcg", "human", "jvc56+MAGPIE-DATA", "testdata", "gcgs")
    broken = [name for name, kind in _fixture_classes().items() if "malformed" in kind]
    assert len(broken) == 23
    for name in broken:
        report = verify_file(folder / name, EN, LAYOUT)
        said = report.error or (report.mismatches[0] if report.mismatches else None)
        if said is None:
            # Three fixtures hold no placement at all: a valid but empty record, said as a warning.
            said = next(f for f in report.findings if f.kind is FindingKind.WARNING and "no placement" in f.message)
        assert said.message, name


def test_fixtures_that_replay_cleanly_score_exactly() -> None:
    folder = shared_path("gcg", "human", "jvc56+MAGPIE-DATA", "testdata", "gcgs")
    clean = [name for name, kind in _fixture_classes().items() if "replays-clean" in kind]
    assert len(clean) == 57
    for name in clean:
        report = verify_file(folder / name, EN, LAYOUT)
        # Some are named for a fault in their racks or end-of-game lines; no placement score is wrong.
        assert not [m for m in report.mismatches if m.message.startswith("score of")], name


def test_sample_of_engine_games_replays_exactly() -> None:
    rng = random.Random(7)
    traditional = sorted(shared_path("gcg", "quackle_selfplay", "traditional").glob("*.gcg"))
    lewis = sorted(shared_path("gcg", "quackle_selfplay", "lewis_values").glob("*.gcg"))
    lewis_tiles = load_tileset(f"{shared_path('gcg', 'quackle_selfplay', 'tile-values.csv')}:lewis")
    for paths, tiles in ((rng.sample(traditional, 100), EN), (rng.sample(lewis, 50), lewis_tiles)):
        for path in paths:
            report = verify_file(path, tiles, LAYOUT)
            assert report.error is None and not report.mismatches, (path, report.findings)


def test_human_records_round_trip() -> None:
    for path in _human_records():
        record = read_gcg(path)
        assert parse_gcg(write_gcg(record)) == record, path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "gcg", "verify", *args],
                          check=False, capture_output=True, text=True, cwd=REPO, timeout=120)


def test_cli_summary_of_recorded_games() -> None:
    folder = shared_path("gcg", "human", "quackle+quackle")
    done = _cli(str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "files: 17, placements: 329, mismatches: 0"


def test_cli_summary_and_exit_status(tmp_path: Path) -> None:
    # Played games (the move generator, the shipped word list) written as GCG by the referee's exporter.
    from companion.games.classic.gcg import record_from_classic
    from companion.games.classic.rules import Play
    from companion.gcg import write_gcg
    from tests.games.classic_play import self_play

    folder = tmp_path / "played"
    folder.mkdir()
    plays = 0
    for seed in range(3):
        events = self_play(seed)
        (folder / f"game{seed}.gcg").write_text(write_gcg(record_from_classic(events)), encoding="utf-8")
        plays += sum(isinstance(e, Play) for e in events)
    done = _cli(str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"files: 3, placements: {plays}, mismatches: 0"

    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +71 71\n>b: FOO BAR\n")
    done = _cli(str(bad))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert f"{bad}:3: recorded 71, computed 66 (score of 8D RETAINS)" in lines
    assert any(line.startswith(f"{bad}:4: ") for line in lines)
    assert lines[-1] == "files: 1, placements: 1, mismatches: 1, unreadable: 1"

    done = _cli(str(tmp_path / "missing.gcg"))
    assert done.returncode == 2 and "does not exist" in done.stderr
    done = _cli("--tiles", "klingon", str(bad))
    assert done.returncode == 2 and "klingon" in done.stderr


def test_recorded_games_load_into_the_referee_and_export_back_exactly() -> None:
    """GCG -> the referee's event log -> the classic fold -> GCG again, replayed: the same game.

    This runs the classic game fold (turns, double and 5-point challenges, going out, leftovers,
    overtime) against real games, not only the scorer."""
    from companion.events import GameLog
    from companion.games.classic.gcg import classic_events_from_record, record_from_classic
    from companion.games.classic.rules import new_state

    rng = random.Random(11)
    traditional = sorted(shared_path("gcg", "quackle_selfplay", "traditional").glob("*.gcg"))
    paths = [*_human_records(), *rng.sample(traditional, 40)]
    for path in paths:
        record = read_gcg(path)
        if len({p.nick for p in record.players}) < len(record.players) or len(record.players) != 2:
            continue
        log = GameLog(new_state, classic_events_from_record(record))
        final = {ev.nick: ev.total for ev in record.events}
        assert log.state.scores == final, path
        exported = parse_gcg(write_gcg(record_from_classic(log.events)))
        report = replay(exported, EN, LAYOUT)
        assert report.error is None and not report.mismatches, (path, report.findings)
        assert {ev.nick: ev.total for ev in exported.events} == final, path
