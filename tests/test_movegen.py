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
from companion.rules import (
    Board,
    PlacedTile,
    RulesError,
    Square,
    Tile,
    load_layout,
    load_tileset,
    parse_play,
    score_play,
    validate_placement,
)
from lexicon import movegen
from lexicon.movegen import RackError, best_plays, generate_moves, has_any_play
from lexicon.store import Lexicon, LexiconError, load_lexicon
from tests.conftest import REPO, shared_path
from tests.games.classic_play import positions

EMPTY = ["." * 15] * 15
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


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


def test_python_fallback_equals_default_engine(enable: Lexicon) -> None:
    """When the C extension is built the pure-Python generator must give identical lists (positions of a
    played game: the empty board, a blank on the rack, blanks on the board)."""
    sample = [positions(seed=2, count=8)[i] for i in (0, 3, 6)] + positions(seed=9, count=40)[-6::2]
    assert any("?" in rack for _, rack in sample)
    for rows, rack in sample:
        board = Board.from_rows(rows)
        moves = generate_moves(board, rack, enable)
        assert moves and generate_moves(board, rack, enable, engine="python") == moves


def test_scores_equal_the_rules_core_scorer(enable: Lexicon) -> None:
    """The generator's own scorer against `score_play` on a sample of the moves of every position of two
    played games (`benchmarks/lexicon.py --prove-scores` checks the oracle's)."""
    layout, tileset = load_layout("standard"), load_tileset("en")
    rng = random.Random(3)
    checked = 0
    for rows, rack in positions(seed=4, count=40) + positions(seed=6, count=40):
        board = Board.from_rows(rows)
        moves = generate_moves(board, rack, enable, layout, tileset)
        for move in moves[:5] + rng.sample(moves, min(10, len(moves))):
            tiles = parse_play(move.position, move.word, board)
            assert tiles == move.tiles()
            validate_placement(board, tiles, layout, tileset, rack=rack)
            assert score_play(board, tiles, layout, tileset).total == move.score, move.notation
            checked += 1
    assert checked > 200


def test_has_any_play_and_best_plays(enable: Lexicon, word_sets: tuple[frozenset[str], frozenset[str]]) -> None:
    rows, rack = positions(seed=2, count=8)[5]
    board = Board.from_rows(rows)
    assert has_any_play(board, rack, enable)
    best = best_plays(board, rack, 3, enable)
    every = _every_placement(rows, rack, *word_sets)
    assert [m.score for m in best] == sorted(every.values(), reverse=True)[:3]
    assert [m.sort_key for m in best] == sorted(m.sort_key for m in best)
    assert not has_any_play(Board.from_rows(EMPTY), "QQQ", enable)
    assert not has_any_play(board, "", enable)
    assert best_plays(Board.from_rows(EMPTY), "VV", 5, enable) == []


def test_empty_board_openings_are_across_and_cover_the_centre(enable: Lexicon) -> None:
    moves = generate_moves(Board.from_rows(EMPTY), "QUIZ", enable)
    # Each of the four spans through the centre (H8, a double word), none on a double letter (D8, L8):
    # (10 + 1 + 1 + 10) x 2; ties in column order. No down opening, no span missing the centre.
    assert [m.notation for m in moves] == ["8E QUIZ 44", "8F QUIZ 44", "8G QUIZ 44", "8H QUIZ 44"]
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


def test_cli_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path, enable: Lexicon) -> None:
    rows, rack = positions(seed=2, count=8)[5]
    board = _board_file(tmp_path, rows)
    assert main(["moves", "--board", board, "--rack", rack]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [m.notation for m in generate_moves(Board.from_rows(rows), rack, enable)] and len(lines) > 20
    assert main(["moves", "--board", board, "--rack", rack, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == len(lines) and data["moves"] == lines
    for bad_rows, message in ((rows[:14], "has 14 lines"),
                              (rows[:14] + ["..3" + "." * 12], "has '3'")):
        assert main(["moves", "--board", _board_file(tmp_path, bad_rows), "--rack", "AB"]) == 2
        assert message in capsys.readouterr().err
    assert main(["moves", "--board", board, "--rack", "A1"]) == 2
    assert "not a tile" in capsys.readouterr().err
    assert main(["moves", "--board", str(tmp_path / "none.txt"), "--rack", "A"]) == 2


def test_without_the_c_extension_the_python_search_finds_every_move(
        monkeypatch: pytest.MonkeyPatch, enable: Lexicon, word_sets: tuple[frozenset[str], frozenset[str]]) -> None:
    """A clone where `pip install -e .` built nothing: `generate_moves` still lists every legal move."""
    rows, rack = positions(seed=2, count=8)[4]
    monkeypatch.setitem(movegen._DEFAULTS, "fast", None)  # as `_fast_module` finds it when the import fails
    ran: list[int] = []
    real = movegen._generate_python
    monkeypatch.setattr(movegen, "_generate_python", lambda *a: ran.append(1) or real(*a))
    assert _generated(rows, rack, enable) == _every_placement(rows, rack, *word_sets)
    assert ran == [1]


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
    # never walked by C (a crash of the process): the Python search runs, and where it meets the damage
    # the user is told in one sentence what is wrong and what to do
    with pytest.raises(LexiconError, match=r"^the word list BROKEN is damaged .*: delete the cached copy") as err:
        movegen.generate_moves(board, "AB", damaged)
    assert "\n" not in str(err.value)
    assert damaged.checked is False
    assert movegen.generate_moves(board, "ZZ", damaged) == []  # a search that never reaches the damage


# ---------------------------------------------------------------- an oracle any clone can compute
# Every legal placement found the slow way, to check the generator without ../shared: from each square
# of each line, squares are filled left to right (board tiles as they are, empty squares with each rack
# tile, a blank as each letter), cut off as soon as the line's word is no prefix of a word of the plain
# word list file (read here as text, not through the generator's graph); each candidate is then checked
# and scored by the rules core (`validate_placement`, `score_play`), its cross words looked up in the list.

ENABLE_TXT = REPO / "assets" / "lexicon" / "enable.txt"


@pytest.fixture(scope="module")
def word_sets() -> tuple[frozenset[str], frozenset[str]]:
    words = frozenset(w.strip().upper() for w in ENABLE_TXT.read_text(encoding="utf-8").split() if w.strip())
    prefixes = frozenset(w[:i] for w in words for i in range(1, len(w) + 1))
    return words, prefixes


def _every_placement(rows: list[str], rack: str, words: frozenset[str], prefixes: frozenset[str]
                     ) -> dict[frozenset[tuple[int, int, str, bool]], int]:
    """{the new tiles of a legal play: its score}, by brute force (see above)."""
    layout, tileset = load_layout("standard"), load_tileset("en")
    board = Board.from_rows(rows)
    size = 15
    found: dict[frozenset[tuple[int, int, str, bool]], int] = {}

    def at(r: int, c: int) -> str:
        return rows[r][c] if 0 <= r < size and 0 <= c < size else ""

    def candidate(placed: list[tuple[int, int, str, bool]], word: str) -> None:
        key = frozenset(placed)
        if word not in words or key in found:
            return
        tiles = [PlacedTile(Square(r, c), Tile(letter, blank)) for r, c, letter, blank in placed]
        try:
            validate_placement(board, tiles, layout, tileset, rack=rack)
        except RulesError:
            return
        scored = score_play(board, tiles, layout, tileset)
        if all(w in words for w in scored.word_texts):
            found[key] = scored.total

    def grow(square: tuple[int, int], step: tuple[int, int], word: str, placed: list[tuple[int, int, str, bool]],
             left: list[str]) -> None:
        here = at(*square)
        if placed and here in ("", ".") and len(word) >= 2:
            candidate(placed, word)
        if here == "":
            return
        after = (square[0] + step[0], square[1] + step[1])
        if here != ".":
            if word + here.upper() in prefixes:
                grow(after, step, word + here.upper(), placed, left)
            return
        for k, tile in enumerate(left):
            if tile in left[:k]:
                continue  # the same tile twice tries the same fills
            rest = left[:k] + left[k + 1:]
            for letter in (ALPHABET if tile == "?" else tile):
                if word + letter in prefixes:
                    grow(after, step, word + letter, [*placed, (square[0], square[1], letter, tile == "?")], rest)

    empty_board = all(set(r) == {"."} for r in rows)
    for step in (((0, 1),) if empty_board else ((0, 1), (1, 0))):  # on an empty board, across openings only
        for r in range(size):
            for c in range(size):
                if at(r - step[0], c - step[1]) in ("", "."):  # a word starts after the tiles before it
                    grow((r, c), step, "", [], sorted(rack))
    return found


def _generated(rows: list[str], rack: str, lexicon: Lexicon, engine: str = "auto"
               ) -> dict[frozenset[tuple[int, int, str, bool]], int]:
    out = {}
    for move in generate_moves(Board.from_rows(rows), rack, lexicon, engine=engine):
        key = frozenset((t.square.row, t.square.col, t.tile.letter, t.tile.blank) for t in move.tiles())
        assert key not in out, f"{move.notation}: a move listed twice"
        out[key] = move.score
    return out


def test_every_move_of_played_positions_is_found_and_scored_as_brute_force_finds(
        enable: Lexicon, word_sets: tuple[frozenset[str], frozenset[str]]) -> None:
    """Positions of a legal game made by play (the empty board, words, hooks, blanks on the board and on
    the rack): the generator's moves are exactly the legal placements, each with the rules core's score."""
    words, prefixes = word_sets
    checked = blanks = 0
    for rows, rack in positions(seed=2, count=8) + positions(seed=9, count=40)[-6:]:
        expected = _every_placement(rows, rack, words, prefixes)
        got = _generated(rows, rack, enable)
        assert got == expected, (rack, sorted(set(got) ^ set(expected), key=len)[:3])
        checked += 1
        blanks += "?" in rack
    assert checked == 14
