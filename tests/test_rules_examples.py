"""The worked scoring examples of the rules texts, computed by the rules core.

`001_*.txt` (a Scrabble rules guide) works four plays through with squares that do not fit the
standard layout (FASTEN at 8D "with N on the centre", QUICKLY at E4 "covering two double-word squares").
We do not bend the standard layout to them: each example here is laid out on a one-row or one-column
test layout with the premiums exactly where the text puts them, and the rules core scores it.
`004_*.txt` (another rules page) answers two scoring questions; those fit the standard board.
"""

from __future__ import annotations

from companion.rules.board import Board, Layout, PlacedTile, Premium, Square, Tile, load_layout
from companion.rules.notation import parse_play
from companion.rules.scoring import score_play
from companion.rules.tiles import load_tileset

EN = load_tileset("en")
STANDARD = load_layout("standard")


def strip_layout(marks: str) -> Layout:
    """A 15x15 layout whose row 1 carries `marks` (premium characters as in assets/layouts) from A1 on."""
    rows = [marks.ljust(15, ".")] + ["." * 15] * 14
    return Layout("text-example", 15, Square(0, marks.index("D") if "D" in marks else 0),
                  tuple(tuple(Premium(ch) for ch in row) for row in rows))


def across(word: str, col: int = 0, row: int = 0, blanks: str = "") -> list[PlacedTile]:
    return [PlacedTile(Square(row, col + i), Tile(ch, blank=i in {int(b) for b in blanks}))
            for i, ch in enumerate(word)]


def test_001_fasten_then_fastened() -> None:
    # FASTEN: F on a double letter, N on the (double word) centre: (8+1+1+1+1+1) x 2 = 26.
    # FASTENED: E on a triple letter, D on a triple word: (9 + 3 + 2) x 3 = 42.
    layout = strip_layout("d....DtT")
    assert [p.value for p in layout.premiums[0][:8]] == ["d", ".", ".", ".", ".", "D", "t", "T"]
    board = Board()
    fasten = across("FASTEN")
    assert score_play(board, fasten, layout, EN).total == 26
    board.push(fasten)
    ed = across("ED", col=6)
    scored = score_play(board, ed, layout, EN)
    assert scored.word_texts == ["FASTENED"] and scored.total == 42
    board.push(ed)


def test_001_quickly_two_double_words_is_four_times() -> None:
    # QUICKLY over two double-word squares: 25 x 2 x 2 = 100. Seven letters would be a bingo (+50),
    # which the text leaves out, so one letter (C) is taken as already on the board, as it must be
    # for 100 to be right.
    layout = strip_layout("D.....D")
    board = Board()
    board.place(Square(0, 3), Tile("C"))
    tiles = [p for p in across("QUICKLY") if p.square.col != 3]
    scored = score_play(board, tiles, layout, EN)
    assert scored.word_texts == ["QUICKLY"] and scored.bingo_bonus == 0 and scored.total == 100


def test_001_infolds_arithmetic() -> None:
    # The text's INFOLDS: blank I (0), N, F on a double letter (8), O on a triple letter (3), L, D,
    # main word x2 = 30, cross words 28, bingo 50: 108. Its sum leaves out the S and its cross words
    # (IN, NF, FO, OL, LD) are pairs of the main word's own new letters, which no board can form; what
    # the rules core can check is each step of the arithmetic the text states.
    layout = strip_layout("..dt..D")
    main = across("INFOLDS", blanks="0")
    scored = score_play(Board(), main, layout, EN)
    word = scored.words[0]
    # I(blank)=0, N=1, F=4x2, O=1x3, L=1, D=2, S=1 -> 16; x2 = 32 (the text's 30 drops the S).
    assert word.score == 32
    assert word.score - 2 * EN.value("S") == 30
    assert scored.bingo_bonus == 50 and scored.total == 32 + 50
    # Its cross words, each scored by the rules core with the premiums its letters sit on in INFOLDS (a
    # two-tile play on a strip: the blank I, F on the double letter, O on the triple letter).
    pairs = {"IN": ("..", "0"), "NF": (".d", ""), "FO": ("dt", ""), "OL": ("t.", ""), "LD": ("..", "")}
    cross = {w: score_play(Board(), across(w, blanks=b), strip_layout(marks), EN).total
             for w, (marks, b) in pairs.items()}
    assert cross == {"IN": 1, "NF": 9, "FO": 11, "OL": 4, "LD": 3}  # the text's 28
    assert (word.score - 2 * EN.value("S")) + sum(cross.values()) + scored.bingo_bonus == 108  # the text's total


def test_001_letter_premium_before_word_premium_and_multipliers_multiply() -> None:
    # "(Letter score x 3) -> word score -> x 2": one tile on a triple letter, one on a double word.
    layout = strip_layout("t.D")
    assert score_play(Board(), across("ZAP"), layout, EN).total == (30 + 1 + 3) * 2
    # Two double words make x4; two triple words x9.
    assert score_play(Board(), across("CAT"), strip_layout("D.D"), EN).total == 5 * 4
    assert score_play(Board(), across("CAT"), strip_layout("T.T"), EN).total == 5 * 9


def test_001_blank_on_word_premium_still_multiplies() -> None:
    layout = strip_layout("D.d")
    scored = score_play(Board(), across("CAT", blanks="2"), layout, EN)  # blank T on the double letter
    assert scored.total == (3 + 1 + 0) * 2


def test_001_premiums_only_when_first_covered() -> None:
    board = Board()
    first = parse_play("8G", "CAT", board)
    assert score_play(board, first, STANDARD, EN).total == 10  # (3+1+1) x 2 on the centre
    board.push(first)
    later = parse_play("8G", "...S", board)
    assert score_play(board, later, STANDARD, EN).total == 6  # no centre premium again


def test_004_s_on_triple_word_triples_both_words() -> None:
    # The FAQ: an S on a triple-word square forming two words scores both tripled (60), not 48 + 4.
    board = Board()
    board.push(parse_play("15K", "QUIP", board))
    board.push(parse_play("O12", "OAT", board))
    s = parse_play("15O", "S", board)
    scored = score_play(board, s, STANDARD, EN)
    assert sorted(scored.word_texts) == ["OATS", "QUIPS"]
    assert scored.total == 16 * 3 + 4 * 3 == 60


def test_004_bingo_bonus_is_added_after_the_word_multiplier() -> None:
    # The FAQ: 50 is added to the word's score and never doubled.
    scored = score_play(Board(), parse_play("8B", "RETAINS", Board()), STANDARD, EN)
    assert scored.total == 8 * 2 + 50
