"""`companion replay`: real logs in the documented format, folded through the rules; bad files are one
sentence and exit status 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.events import dump_events
from companion.games.classic import rules as classic
from companion.games.monopoly_scrabble import rules as monopoly


def write(tmp_path: Path, text: str, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def monopoly_log() -> str:
    return dump_events([
        monopoly.Start(settings=monopoly.Settings(players=["Car", "Dog", "Hat"])),
        monopoly.Play(player="Car", position="8H", word="GAME"),
        monopoly.Play(player="Dog", position="I6", word="BO.RD"),
        monopoly.Play(player="Hat", position="K4", word="WINn.R"),
    ], "monopoly")


def test_replay_prints_a_monopoly_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, monopoly_log())]) == 0
    out = capsys.readouterr().out
    assert "Car" in out and "14 Pink" in out and "16 Orange" in out
    assert "Hat: utilities" in out and "Free Parking pot: M500" in out


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, monopoly_log()), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["position"] for p in data["players"]] == [14, 10, 16]
    assert data["owners"]["utilities"] == "Hat" and data["pot"] == 500 and data["winner"] is None


def test_replay_classic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = dump_events([classic.Start(settings=classic.Settings(players=["A", "B"])),
                       classic.Play(player="A", position="8H", word="GAME")], "classic")
    assert main(["replay", write(tmp_path, log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == [{"name": "A", "score": 14}, {"name": "B", "score": 0}]


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ('{"format": 1, "variant": "chess", "events": []}', "must be \"monopoly\" or \"classic\""),
    ('{"format": 1, "variant": "monopoly", "events": []}', "no events"),
    ('{"format": 9, "variant": "monopoly", "events": []}', "newer than this app"),
    ('{"format": 1, "variant": "monopoly", "events": [{"type": "fly"}]}', "event 1 of the game log is invalid"),
    ('{"format": 1, "variant": "monopoly", "events": [{"type": "pass", "player": "A"}]}',
     "event 1 \\(pass\\) is refused by the rules: the game has not started"),
])
def test_bad_files_are_one_sentence_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                               message: str) -> None:
    assert main(["replay", write(tmp_path, text)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err), err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_refused_event_names_the_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(monopoly_log())
    raw["events"][2]["player"] = "Car"  # Car plays twice
    assert main(["replay", write(tmp_path, json.dumps(raw))]) == 2
    assert "event 3 (play) is refused by the rules: it is Dog's turn, not Car's" in capsys.readouterr().err


def test_replay_the_shipped_full_game(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).resolve().parents[1] / "assets" / "examples" / "monopoly_full_game.json"
    assert main(["replay", str(example), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] and data["winner"] == ["Ann"] and data["eliminated"] == ["Cat"]
    assert {p["name"]: p["wealth"] for p in data["players"]} == {"Ann": 17100, "Ben": 13600, "Cat": 0}
    assert main(["replay", str(example)]) == 0
    assert "Winner: Ann" in capsys.readouterr().out
