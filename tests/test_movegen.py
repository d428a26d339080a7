"""The move generator against the oracle (every position of both files), the rules core's scorer,
the `companion moves` command, `has_any_play` / `best_plays`, and other tile sets."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rules import Board, load_layout, load_tileset, parse_play, score_play, validate_placement
from lexicon import movegen
from lexicon.movegen import RackError, best_plays, generate_moves, has_any_play
from lexicon.store import Lexicon, load_lexicon
from tests.conftest import shared_path

EMPTY = ["." * 15] * 15


def _oracle() -> list[dict[str, Any]]:
    folder = shared_path("gcg", "oracle")
    with gzip.open(folder / "movegen_enable15_positions.jsonl.gz", "rt", encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh]
    with (folder / "anchors_macondo_boards_enable15.jsonl").open(encoding="utf-8") as fh:
        records += [json.loads(line) for line in fh]
    return records


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return load_lexicon()


@pytest.fixture(scope="module")
def oracle() -> list[dict[str, Any]]:
    return _oracle()


def test_every_oracle_position_matches_exactly(enable: Lexicon, oracle: list[dict[str, Any]]) -> None:
    assert len(oracle) == 212
    for record in oracle:
        moves = generate_moves(Board.from_rows(record["board"]), record["rack"], enable)
        got = [m.notation for m in moves]
        assert len(got) == len(set(got)), f"{record.get('source', record.get('name'))}: a move listed twice"
        assert set(got) == set(record["moves"]), record.get("source", record.get("name"))
        scores = [m.score for m in moves]
        assert scores == sorted(scores, reverse=True)


def test_python_fallback_equals_default_engine(enable: Lexicon, oracle: list[dict[str, Any]]) -> None:
    """When the C extension is built the pure-Python generator must give identical lists (sampled)."""
    sample = [r for r in oracle if r["rack"].count("?") == 1][:3] + oracle[:12:3]
    for record in sample:
        board = Board.from_rows(record["board"])
        assert generate_moves(board, record["rack"], enable, engine="python") == \
            generate_moves(board, record["rack"], enable)


def test_scores_equal_the_rules_core_scorer(enable: Lexicon, oracle: list[dict[str, Any]]) -> None:
    """The generator's own scorer against `score_play` on a sample of every position's moves
    (`benchmarks/lexicon.py --prove-scores` checks all of them)."""
    layout, tileset = load_layout("standard"), load_tileset("en")
    rng = random.Random(3)
    for record in oracle:
        board = Board.from_rows(record["board"])
        moves = generate_moves(board, record["rack"], enable, layout, tileset)
        for move in moves[:5] + rng.sample(moves, min(10, len(moves))):
            tiles = parse_play(move.position, move.word, board)
            assert tiles == move.tiles()
            validate_placement(board, tiles, layout, tileset, rack=record["rack"])
            assert score_play(board, tiles, layout, tileset).total == move.score, move.notation


def test_has_any_play_and_best_plays(enable: Lexicon, oracle: list[dict[str, Any]]) -> None:
    record = oracle[0]
    board = Board.from_rows(record["board"])
    assert has_any_play(board, record["rack"], enable)
    best = best_plays(board, record["rack"], 3, enable)
    assert [m.notation for m in best] == ["E3 HUGE 35", "J6 HA. 32", "E4 UGH 31"]
    assert not has_any_play(Board.from_rows(EMPTY), "QQQ", enable)
    assert not has_any_play(board, "", enable)
    assert best_plays(Board.from_rows(EMPTY), "VV", 5, enable) == []


def test_empty_board_openings_are_across_and_cover_the_centre(enable: Lexicon) -> None:
    moves = generate_moves(Board.from_rows(EMPTY), "QUIZ", enable)
    assert moves[0].notation == "8D QUIZ 44" or moves[0].notation.startswith("8")
    for m in moves:
        assert not m.down and m.row == 7 and m.col <= 7 < m.col + len(m.word)


def test_romanian_tile_set_has_no_k_and_blanks_never_stand_for_it(tmp_path: Path) -> None:
    words = tmp_path / "ro.txt"
    words.write_text("KA\nAM\nMA\nAC\n", encoding="utf-8")
    lex = load_lexicon(str(words))
    ro = load_tileset("ro")
    empty = Board.from_rows(EMPTY)
    moves = generate_moves(empty, "A?", lex, tileset=ro)
    assert {m.word for m in moves} == {"Am", "Ac", "mA"}  # never "kA": the ro set has no K
    with pytest.raises(RackError, match="not a tile of the ro set"):
        generate_moves(empty, "KA", lex, tileset=ro)


def test_engines_agree_with_a_small_list_on_random_boards(tmp_path: Path) -> None:
    """Fallback and default engine on boards built from random plays, with blanks on the board."""
    lex = load_lexicon()
    layout, tileset = load_layout("standard"), load_tileset("en")
    rng = random.Random(11)
    board = Board.from_rows(EMPTY)
    letters = "AEIOUSTRNLDGBCMPHKWYFVXJQZ"
    for _ in range(8):
        rack = "".join(rng.choice(letters[:18]) for _ in range(6)) + "?"
        moves = generate_moves(board, rack, lex)
        assert moves == generate_moves(board, rack, lex, engine="python")
        for move in moves[:: max(1, len(moves) // 40)]:  # each listed move is legal, all words valid
            tiles = move.tiles()
            validate_placement(board, tiles, layout, tileset, rack=rack)
            scored = score_play(board, tiles, layout, tileset)
            assert all(w in lex for w in scored.word_texts) and scored.total == move.score, move.notation
        if not moves:
            break
        board.push(moves[rng.randrange(min(5, len(moves)))].tiles())


def _board_file(tmp_path: Path, rows: list[str]) -> str:
    path = tmp_path / f"board{len(list(tmp_path.glob('board*')))}.txt"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def test_cli_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path, oracle: list[dict[str, Any]]) -> None:
    record = oracle[0]
    board = _board_file(tmp_path, record["board"])
    assert main(["moves", "--board", board, "--rack", record["rack"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(lines) == set(record["moves"]) and lines[0] == "E3 HUGE 35"
    assert main(["moves", "--board", board, "--rack", record["rack"], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == len(record["moves"]) and data["moves"] == lines
    for bad_rows, message in ((record["board"][:14], "has 14 lines"),
                              (record["board"][:14] + ["..3" + "." * 12], "has '3'")):
        assert main(["moves", "--board", _board_file(tmp_path, bad_rows), "--rack", "AB"]) == 2
        assert message in capsys.readouterr().err
    assert main(["moves", "--board", board, "--rack", "A1"]) == 2
    assert "not a tile" in capsys.readouterr().err
    assert main(["moves", "--board", str(tmp_path / "none.txt"), "--rack", "A"]) == 2


def test_generator_module_has_a_pure_python_path() -> None:
    assert callable(movegen._generate_python)


def test_c_search_refuses_a_damaged_graph_and_falls_back(enable: Lexicon) -> None:
    fast = movegen._fast_module()
    if fast is None:
        pytest.skip("the C extension is not built here (pip install -e . builds it); the Python path is tested")
    assert fast.check_graph(enable.arcs)
    import array

    broken = array.array("I", enable.arcs)
    broken[5] = (len(broken) + 10) << 8 | 1  # a child index past the end
    assert not fast.check_graph(broken)
    damaged = Lexicon("BROKEN", enable.alphabet, broken, enable.root, 1, "")
    board = Board.from_rows(EMPTY)
    # never walked by C: the Python search runs (and may simply find nothing or fail cleanly)
    try:
        movegen.generate_moves(board, "AB", damaged)
    except IndexError:
        pass
    assert damaged.checked is False
