"""Hostile input: random and damaged bytes fed to every loader a user can reach.

Each loader must either read the input or refuse it with its own one-sentence error; no other
exception may escape (the app and the CLI print those errors as they are), and nothing changes.
Damaged inputs start from real files (a real GCG game, the shipped board profile and tile sets) so the
damage lands deep inside otherwise valid data, where parsers usually break.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.monopoly_scrabble.profile import (
    load_profile,
    save_profile,
    validate_profile,
)
from companion.gcg import GcgError, parse_gcg_bytes
from companion.gcg_replay import FindingKind, verify_file
from companion.rules.board import load_layout
from companion.rules.errors import RulesDataError
from companion.rules.sourced import profile_path
from companion.rules.tiles import load_tileset
from tests.conftest import REPO, SHARED_DATA

EN = load_tileset("en")
LAYOUT = load_layout("standard")
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])


def _real_gcg() -> bytes:
    path = SHARED_DATA / "gcg" / "human" / "domino14+macondo" / "gcgio" / "testdata" / "noah_vs_peter.gcg"
    if path.exists():
        return path.read_bytes()
    return b"#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>b: QU 9H QU +26 26\n"


def damage(data: bytes, rnd: random.Random, edits: int) -> bytes:
    """Flip, delete, duplicate or insert bytes and whole lines at random."""
    out = bytearray(data)
    for _ in range(edits):
        if not out:
            out += bytes([rnd.randrange(256)])
            continue
        i = rnd.randrange(len(out))
        kind = rnd.randrange(5)
        if kind == 0:
            out[i] = rnd.randrange(256)
        elif kind == 1:
            del out[i: i + rnd.randrange(1, 20)]
        elif kind == 2:
            out[i:i] = out[i: i + rnd.randrange(1, 40)]
        elif kind == 3:
            out[i:i] = rnd.choice([b"\n", b"+", b"-", b"#note ", b">", b"(", b"--", b"?", b"\xff", b"0" * 30])
        else:
            lines = bytes(out).split(b"\n")
            rnd.shuffle(lines) if rnd.random() < 0.2 else lines.insert(rnd.randrange(len(lines) + 1),
                                                                       rnd.choice(lines))
            out = bytearray(b"\n".join(lines))
    return bytes(out)


@FUZZ
@given(st.binary(max_size=2000))
def test_gcg_random_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        parse_gcg_bytes(data)
    except GcgError as exc:
        assert str(exc)


@FUZZ
@given(st.randoms(use_true_random=False), st.integers(1, 12))
def test_damaged_real_gcg_is_verified_or_refused(rnd: random.Random, edits: int) -> None:
    data = damage(_real_gcg(), rnd, edits)
    folder = Path(tempfile.mkdtemp())
    path = folder / "damaged.gcg"
    path.write_bytes(data)
    report = verify_file(path, EN, LAYOUT)  # must not raise
    for finding in report.findings:
        assert finding.render(str(path))
        if finding.kind is FindingKind.ERROR:
            assert finding.message and "Traceback" not in finding.message


def _profile_json() -> dict[str, object]:
    data = json.loads(profile_path("monopoly_scrabble").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _mutate_json(value: object, rnd: random.Random) -> object:
    """Change one node somewhere in a JSON tree: delete it, retype it, or give it an odd value."""
    odd = [None, True, -1, 0, 10**12, "", "Z99", [], {}, 3.5, "x" * 200]
    if isinstance(value, dict) and value and rnd.random() < 0.8:
        key = rnd.choice(list(value))
        copy = dict(value)
        if rnd.random() < 0.2:
            del copy[key]
        else:
            copy[key] = _mutate_json(copy[key], rnd)
        return copy
    if isinstance(value, list) and value and rnd.random() < 0.8:
        copy_list = list(value)
        i = rnd.randrange(len(copy_list))
        r = rnd.random()
        if r < 0.2:
            del copy_list[i]
        elif r < 0.3:
            copy_list.append(copy_list[i])
        else:
            copy_list[i] = _mutate_json(copy_list[i], rnd)
        return copy_list
    return rnd.choice(odd)


@FUZZ
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_damaged_profile_is_loaded_or_refused(rnd: random.Random, edits: int) -> None:
    data: object = _profile_json()
    for _ in range(edits):
        data = _mutate_json(data, rnd)
    try:
        profile = validate_profile(data)
    except RulesDataError as exc:
        assert str(exc).startswith("the board profile") and "\n" not in str(exc)
        return
    # Accepted (the edit left a consistent profile): it is whole, saves, and loads back the same.
    saved = save_profile(profile, Path(tempfile.mkdtemp()) / "profile.json")
    assert load_profile(saved) == profile
    profile.load_layout()


@FUZZ
@given(st.binary(max_size=3000))
def test_profile_and_tileset_files_of_random_bytes_are_refused(data: bytes) -> None:
    folder = Path(tempfile.mkdtemp())
    for name, loader in (("profile.json", load_profile), ("tiles.json", load_tileset)):
        path = folder / name
        path.write_bytes(data)
        with pytest.raises(RulesDataError) as refused:
            loader(path)
        assert str(refused.value) and "\n" not in str(refused.value)


def test_damaged_profile_file_on_disk_is_refused_and_left_alone(tmp_path: Path) -> None:
    raw = (REPO / "assets" / "profiles" / "monopoly_scrabble.json").read_bytes()
    rnd = random.Random(3)
    refused = 0
    for i in range(40):
        path = tmp_path / f"p{i}.json"
        data = damage(raw, rnd, 1 + i % 5)
        path.write_bytes(data)
        try:
            profile = load_profile(path)
        except RulesDataError as exc:
            refused += 1
            assert str(exc).startswith(f"board profile {path} ") and "\n" not in str(exc)  # names the file
        else:  # the damage left a valid profile (a changed digit, a duplicated line): it is read as written
            assert profile == validate_profile(json.loads(data))
        assert path.read_bytes() == data
    assert refused >= 35  # of 40 (seeded: 38 refused; the other 2 damaged only a value)
