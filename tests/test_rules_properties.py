"""Property-based tests of the rules core, on positions and plays taken from real recorded games.

Each example draws a real position (the board before a recorded play) and the play itself from 40
Quackle games, then checks a law that must hold for every play: the score is the sum of its words,
transposing the board changes nothing, premiums under old tiles never count, a blank scores nothing,
a refused placement leaves the board as it was, and notation reads back what it wrote.
"""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.gcg import EventKind, read_gcg
from companion.rules.board import (
    Board,
    Direction,
    Layout,
    PlacedTile,
    Position,
    Premium,
    Square,
    Tile,
    load_layout,
    parse_position,
)
from companion.rules.errors import IllegalPlacement
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import load_tileset
from tests.conftest import SHARED_DATA

EN = load_tileset("en")
LAYOUT = load_layout("standard")
Sample = tuple[tuple[str, ...], tuple[PlacedTile, ...], str]


@cache
def real_plays() -> tuple[Sample, ...]:
    """(board rows before the play, the play's tiles, its GCG position) from recorded games."""
    folder = SHARED_DATA / "gcg" / "quackle_selfplay" / "traditional"
    out: list[Sample] = []
    for path in sorted(folder.glob("*.gcg"))[:40]:
        board = Board()
        for ev in read_gcg(path).events:
            if ev.kind is not EventKind.PLAY:
                continue
            tiles = parse_play(ev.position, ev.word, board)
            out.append((tuple(board.rows()), tuple(tiles), ev.position))
            board.push(tiles)
    return tuple(out)


def plays() -> st.SearchStrategy[Sample]:
    samples = real_plays() if (SHARED_DATA / "gcg").exists() else ()
    if not samples:  # without the shared data, hand-made legal positions keep the laws tested
        # QUIZ covers the centre star H8 (a first play must), AQUA hooks through its Q, and the
        # seven-tile ZEALOTRY through its Z, so the bingo bonus is exercised too.
        board = Board()
        first = parse_play("8E", "QUIZ", board)
        board.push(first)
        second = parse_play("E7", "A.UA", board)
        before_second = tuple(board.rows())
        board.push(second)
        third = parse_play("H8", ".EALOTRY", board)
        samples = ((tuple(Board().rows()), tuple(first), "8E"),
                   (before_second, tuple(second), "E7"),
                   (tuple(board.rows()), tuple(third), "H8"))
    return st.sampled_from(samples)


def transpose_rows(rows: tuple[str, ...]) -> list[str]:
    return ["".join(row[c] for row in rows) for c in range(len(rows))]


def t(p: PlacedTile) -> PlacedTile:
    return PlacedTile(Square(p.square.col, p.square.row), p.tile)


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(plays())
def test_score_is_the_sum_of_the_words_plus_bingo(sample: Sample) -> None:
    rows, tiles, _ = sample
    scored = score_play(Board.from_rows(rows), tiles, LAYOUT, EN)
    assert scored.total == sum(w.score for w in scored.words) + scored.bingo_bonus
    assert scored.bingo_bonus == (50 if len(tiles) == 7 else 0)
    # Every new tile is in at least one word, and the main word holds all of them.
    assert {p.square for p in tiles} <= set(scored.words[0].squares)


@FAST
@given(plays())
def test_transposing_board_and_play_keeps_the_score(sample: Sample) -> None:
    rows, tiles, _ = sample
    straight = score_play(Board.from_rows(rows), tiles, LAYOUT, EN)
    flipped = score_play(Board.from_rows(transpose_rows(rows)), [t(p) for p in tiles], LAYOUT, EN)
    assert straight.total == flipped.total
    assert sorted(straight.word_texts) == sorted(flipped.word_texts)


@FAST
@given(plays(), st.randoms(use_true_random=False))
def test_premiums_under_old_tiles_never_count(sample: Sample, rnd: object) -> None:
    rows, tiles, _ = sample
    board = Board.from_rows(rows)
    import random as _random
    assert isinstance(rnd, _random.Random)
    # Rewrite the premium of every covered square at random: the score must not move.
    premiums = [list(r) for r in LAYOUT.premiums]
    for placed in board.tiles():
        premiums[placed.square.row][placed.square.col] = rnd.choice(list(Premium))
    other = Layout("scrambled", 15, LAYOUT.centre, tuple(tuple(r) for r in premiums))
    assert score_play(board, tiles, other, EN).total == score_play(board, tiles, LAYOUT, EN).total


@FAST
@given(plays(), st.data())
def test_a_blank_scores_nothing_but_keeps_word_premiums(sample: Sample, data: st.DataObject) -> None:
    rows, tiles, _ = sample
    board = Board.from_rows(rows)
    i = data.draw(st.integers(0, len(tiles) - 1))
    p = tiles[i]
    if p.tile.blank:
        return
    blanked = list(tiles)
    blanked[i] = PlacedTile(p.square, Tile(p.tile.letter, blank=True))
    before = score_play(board, tiles, LAYOUT, EN)
    after = score_play(board, blanked, LAYOUT, EN)
    premium = LAYOUT.premium(p.square)
    words_through = [w for w in before.words if p.square in w.squares]
    lost = 0
    for w in words_through:
        word_mult = 1
        for sq, new in zip(w.squares, w.new, strict=True):
            if new:
                word_mult *= LAYOUT.premium(sq).word_multiplier
        lost += EN.value(p.tile.letter) * premium.letter_multiplier * word_mult
    assert before.total - after.total == lost


@FAST
@given(plays(), st.data())
def test_a_refused_placement_changes_nothing(sample: Sample, data: st.DataObject) -> None:
    rows, tiles, _ = sample
    board = Board.from_rows(rows)
    # Break the play: move one tile somewhere else at random (off line, onto a tile, or far away).
    i = data.draw(st.integers(0, len(tiles) - 1))
    sq = Square(data.draw(st.integers(0, 14)), data.draw(st.integers(0, 14)))
    broken = list(tiles)
    broken[i] = PlacedTile(sq, tiles[i].tile)
    before = board.rows()
    try:
        validate_placement(board, broken, LAYOUT, EN)
    except IllegalPlacement as exc:
        assert str(exc)
    assert board.rows() == before


@FAST
@given(plays())
def test_recorded_plays_are_legal_and_notation_round_trips(sample: Sample) -> None:
    rows, tiles, position = sample
    board = Board.from_rows(rows)
    validate_placement(board, tiles, LAYOUT, EN)
    scored = score_play(board, tiles, LAYOUT, EN)
    main = scored.words[0]
    if len(tiles) > 1:  # a one-tile play may be written either way; longer ones have one main word
        assert main.position == parse_position(position)
    written = format_play(main.position, list(tiles), board)
    pos, word = written.split()
    assert parse_position(pos) == main.position
    assert sorted(parse_play(pos, word, board), key=lambda p: p.square) == sorted(tiles, key=lambda p: p.square)


@given(st.integers(0, 14), st.integers(0, 14), st.sampled_from(list(Direction)))
def test_position_notation_round_trips(row: int, col: int, direction: Direction) -> None:
    position = Position(Square(row, col), direction)
    assert parse_position(position.notation) == position
    assert parse_position(position.notation.lower()) == position
    assert Square(row, col).name[0] == "ABCDEFGHIJKLMNO"[col]
