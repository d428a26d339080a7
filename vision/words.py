"""The words on a board: letters one photo leaves unclear, decided by the word list.

Every line of two or more tiles on a board in play is a word the table accepted, so when the letter
network hesitates between two letters and only one of them makes the words through its square words, the
word list has seen what the photo could not: a blurred E whose arms are faint reads as I, a squarish O as
D, a K whose point number touches its leg as X (jheidel's photos, left out of training). This module owns
that decision, and its limits:

- a line that is not a word costs the reading `NOT_A_WORD_COST` (a line of a board in play is a word about
  99 times in 100); a change of unsure letters is taken when the lines it makes words pay for the letters'
  lost probability, so a faint alternative needs more lines behind it than a close second;
- only a letter the network read below `CHANGE_BELOW` is changed, only to one it found plausible (at least
  `PLAUSIBLE_FROM`), and only on a board whose lines mostly read as words (`WORDS_SHARE_FROM`): a name-art
  board or a game in another language is read by the photo alone;
- a letter the words decided is never sure (`SETTLED_AT_MOST`): a board can hold a name, a word of
  another list or a phony nobody challenged, so it stays a square to check, and the reading's warnings
  name it;
- it is used on a board read on its own (`companion read PHOTO`), never on a move read against the board
  the game holds (the app's turns, `--previous`): there the new word may be a phony about to be
  challenged, and the referee must see the letters the photo shows.

It also owns the missed tile the words need (`fill_by_words`, issue 27): a square read empty whose mark the
letter network reads plainly as one letter is a tile when every line through it is then a word.

`settle_by_words(grid, options, is_word, alphabet)` is pure: the caller (`vision.read.read_board`) gives
the letters read, each unsure square's letters with their probabilities and the word list's membership
test, and applies the changes it returns. The limits were chosen on the leave-one-set-out readings of
`benchmarks/vision_styles.py` (English boards read with the shipped ENABLE list). jheidel's letters
2302 -> 2313 right of 2335: 12 mended, 7 wrong letters changed to other wrong ones, 1 made wrong (TE, which
the list lacks, became TO); with `CHANGE_BELOW` 0.98 two more were made wrong (ROME's R, read at 0.96-0.97,
became POME's P). umich 3000 of 3029 either way (1 mended, 1 made wrong); the other sets unchanged.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.rules.board import Square

SIZE = 15
EMPTY = "."
BLANK = "?"
# What a line of two or more tiles that is not a word of the list costs a reading, in the same units as
# the letters' log-probabilities: a change of letters is taken when the lines it makes words pay for the
# letters' lower probabilities. 4.6 = log(100): a line of a board in play is a word about 99 times in 100.
NOT_A_WORD_COST = 4.6
# A letter read with at least this probability is the photo's, whatever the list says.
CHANGE_BELOW = 0.95
# An alternative the network gave less than this is not the photo's letter, whatever the words would like.
PLAUSIBLE_FROM = 0.005
# The letters tried per unsure square (the network's most probable few) and the squares of one line
# changed together at most (a blurred photo misreads two or three letters of one word).
TRIED_PER_SQUARE = 6
AT_ONCE = 3
# The least sure squares of one line that are tried (keeps a long line of an unfamiliar font to at most
# C(8, 3) x 5^3 trials).
SQUARES_PER_LINE = 8
# The list describes a board only when at least this share of its lines read as words: most of umich's
# boards of names read 0-15%, radosz's letter grids 0-15%; jheidel's game 60-100%, but its blurred photo
# (170003) 36% and the one taken sideways (170032) 38%, which are the photos the words help most.
WORDS_SHARE_FROM = 0.3
# How sure a letter the words decided may be (below vision.confidence.SURE): the list is strong evidence,
# not proof (names, other lists, unchallenged phonies).
SETTLED_AT_MOST = 0.95
# A square read empty whose mark (where the tiles around show their letters) the letter network reads as one letter
# at least this surely, "not a letter" at most `vision.stages.RESCUE_NOT_LETTER_AT_MOST`, is a tile when every line
# through it is then a word (`fill_by_words`). Jheidel, left out (docs/reader-real-letters.md): thin tiles the
# occupancy network missed read I 0.946, O 0.946 and Z 0.781 (WIPE, IGLOO, ZERO); the rescue of a mark without the
# words asks 0.95.
FILL_LETTER_FROM = 0.75

Cell = tuple[int, int]  # (row, col)


@dataclass(frozen=True)
class Settled:
    """One square the words decided: `read` is what the photo read there (the network's letter, or EMPTY for a
    square read empty that `fill_by_words` takes as a tile, with `p_read` 0), `letter` the one taken."""

    row: int
    col: int
    read: str
    letter: str
    p_read: float
    p_letter: float

    @property
    def square(self) -> str:
        return Square(self.row, self.col).name


def lines_of(grid: Sequence[Sequence[str]]) -> list[list[Cell]]:
    """Every run of two or more tiles in a row or a column, as its squares in reading order."""
    out: list[list[Cell]] = []
    for across in (True, False):
        for a in range(SIZE):
            run: list[Cell] = []
            for b in range(SIZE + 1):
                r, c = (a, b) if across else (b, a)
                if b < SIZE and grid[r][c] != EMPTY:
                    run.append((r, c))
                    continue
                if len(run) >= 2:
                    out.append(run)
                run = []
    return out


def _is_word_with_blanks(text: str, is_word: Callable[[str], bool], alphabet: str) -> bool:
    """A line with blank tiles (`?`) is a word when some letters for its blanks make it one."""
    if BLANK not in text:
        return is_word(text)
    at = text.index(BLANK)
    return any(_is_word_with_blanks(text[:at] + ch + text[at + 1:], is_word, alphabet) for ch in alphabet)


def settle_by_words(
    grid: Sequence[Sequence[str]],
    options: Mapping[Cell, Sequence[tuple[str, float]]],
    is_word: Callable[[str], bool],
    alphabet: str,
) -> list[Settled]:
    """The squares whose letter the words decide, and the letters they take.

    `grid` holds the letters read (`.` empty, `?` blank); `options` gives, for the squares read as letters,
    the network's letters with their probabilities, most probable first (the read letter among them); only
    those read below `CHANGE_BELOW` may change.
    Each line that is not a word is offered the changes of at most `AT_ONCE` of its unsure squares; the
    change that gains most (lines made words x `NOT_A_WORD_COST`, less the letters' lost log-probability)
    is taken when it gains anything, and the board is gone over again until nothing gains.
    """
    board = [list(row) for row in grid]
    lines = lines_of(board)
    if not lines:
        return []
    p_of = {sq: dict(opts) for sq, opts in options.items()}
    tried = {sq: [ch for ch, p in list(opts)[:TRIED_PER_SQUARE] if ch.isalpha() and p >= PLAUSIBLE_FROM]
             for sq, opts in options.items()}
    through: dict[Cell, list[int]] = {}
    for k, line in enumerate(lines):
        for sq in line:
            through.setdefault(sq, []).append(k)

    def word_ok(k: int) -> bool:
        return _is_word_with_blanks("".join(board[r][c] for r, c in lines[k]), is_word, alphabet)

    valid = [word_ok(k) for k in range(len(lines))]
    if sum(valid) < WORDS_SHARE_FROM * len(lines):
        return []

    def log_p(sq: Cell, ch: str) -> float:
        return math.log(p_of[sq].get(ch, 0.0) + 1e-9)

    for _pass in range(4):
        changed = False
        for k in range(len(lines)):
            if valid[k]:
                continue
            unsure = sorted((sq for sq in lines[k] if sq in p_of
                             and p_of[sq].get(grid[sq[0]][sq[1]], 0.0) < CHANGE_BELOW),
                            key=lambda sq: p_of[sq].get(grid[sq[0]][sq[1]], 0.0))[:SQUARES_PER_LINE]
            best: tuple[float, tuple[tuple[Cell, str], ...]] = (1e-6, ())
            for n in range(1, min(AT_ONCE, len(unsure)) + 1):
                for squares in itertools.combinations(unsure, n):
                    affected = sorted({j for sq in squares for j in through[sq]})
                    invalid_before = sum(not valid[j] for j in affected)
                    now = [board[r][c] for r, c in squares]
                    choices = [[ch for ch in tried[sq] if ch != board[sq[0]][sq[1]]] for sq in squares]
                    for letters in itertools.product(*choices):
                        lost = sum(log_p(sq, old) - log_p(sq, ch) for sq, old, ch in zip(squares, now, letters))
                        if invalid_before * NOT_A_WORD_COST - lost <= best[0]:
                            continue  # even making every line here a word would not beat the best
                        for (r, c), ch in zip(squares, letters):
                            board[r][c] = ch
                        gain = (invalid_before - sum(not word_ok(j) for j in affected)) * NOT_A_WORD_COST - lost
                        if gain > best[0]:
                            best = (gain, tuple(zip(squares, letters)))
                        for (r, c), ch in zip(squares, now):
                            board[r][c] = ch
            for (r, c), ch in best[1]:
                board[r][c] = ch
                changed = True
            for sq, _ in best[1]:
                for j in through[sq]:
                    valid[j] = word_ok(j)
        if not changed:
            break
    return [Settled(r, c, grid[r][c], board[r][c], p_of[(r, c)].get(grid[r][c], 0.0), p_of[(r, c)][board[r][c]])
            for r in range(SIZE) for c in range(SIZE) if board[r][c] != grid[r][c]]


def fill_by_words(grid: Sequence[Sequence[str]], marks: Mapping[Cell, tuple[str, float]],
                  is_word: Callable[[str], bool], alphabet: str) -> list[Settled]:
    """Squares read empty (`.` in `grid`) taken as tiles: `marks` gives, for squares whose mark the letter network
    read, its letter and probability; one read at least FILL_LETTER_FROM is a tile when it touches a tile and every
    line through it is then a word, on a board whose lines mostly read as words (`WORDS_SHARE_FROM`). Each square
    is judged on the board as read (the others' marks not taken)."""
    board = [list(row) for row in grid]
    lines = lines_of(board)
    if not lines or sum(_is_word_with_blanks("".join(board[r][c] for r, c in ln), is_word, alphabet)
                        for ln in lines) < WORDS_SHARE_FROM * len(lines):
        return []
    out = []
    for (r, c), (letter, p) in sorted(marks.items()):
        if board[r][c] != EMPTY or p < FILL_LETTER_FROM or not letter.isalpha():
            continue
        board[r][c] = letter
        through = [ln for ln in lines_of(board) if (r, c) in ln]
        if through and all(_is_word_with_blanks("".join(board[y][x] for y, x in ln), is_word, alphabet)
                           for ln in through):
            out.append(Settled(r, c, EMPTY, letter, 0.0, p))
        board[r][c] = EMPTY
    return out
