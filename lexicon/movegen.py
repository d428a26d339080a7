"""Every legal tile placement for a board and a rack, with its score: the move generator.

Algorithm: Appel & Jacobson (1988) over the word graph. For each direction the board is read as lines;
each empty square gets a cross-check (the set of letters that make a valid word with the tiles above
and below it) and a cross-sum (the value of those tiles). Anchors are empty squares next to a tile (the
centre on an empty board). From each anchor a left part is grown over the empty, non-anchor squares to
its left (or read off the tiles already there), then extended right through the graph; each move is
found exactly once per direction.

Counting follows the oracle in `../shared/data/gcg/README.md`: a move is a set of new tiles, so a
one-tile play forming words both ways is counted once (as across, the direction the rules core's
`play_direction` gives it); on an empty board only across openings are listed; a blank standing for
each letter is a separate move; passes and exchanges are not moves.

Scores are computed inside the generator (premiums under new tiles only, letter before word
multipliers, cross words, bingo bonus for the tile set's bingo sizes). `tests/test_movegen.py` and
`benchmarks/lexicon.py` check this scorer against `companion.rules.scoring.score_play` on oracle
moves; the C extension `lexicon._movegen` runs the same algorithm and must give identical lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.rules.board import (
    COLUMNS,
    Board,
    Direction,
    Layout,
    PlacedTile,
    Position,
    Square,
    Tile,
    load_layout,
)
from companion.rules.tiles import BLANK, TileSet, load_tileset
from lexicon.graph import ACCEPTS, CODE_MASK, LAST, find_arc
from lexicon.store import UNKNOWN_CODE, Lexicon, LexiconError, load_lexicon

BLANK_BIT = 0x40  # on a square or a word letter: the tile is a blank
NEW_BIT = 0x80  # on a word letter: placed by this move


class RackError(ValueError):
    """A rack or board the generator cannot use; the message is one sentence for the user."""


class Move(NamedTuple):
    """One placement. Lists of moves come sorted by score (highest first), then row, column, across
    before down, then word; the tuple's own order is by position, so sort lists with `Move.sort_key`."""

    row: int
    col: int
    down: bool
    word: str  # GCG: '.' for a tile already on the board, lower case for a blank
    score: int

    @property
    def sort_key(self) -> tuple[int, int, int, int, str]:
        return (-self.score, self.row, self.col, int(self.down), self.word)

    @property
    def position(self) -> Position:
        return Position(Square(self.row, self.col), Direction.DOWN if self.down else Direction.ACROSS)

    @property
    def notation(self) -> str:
        return f"{self.position.notation} {self.word} {self.score}"

    def __str__(self) -> str:
        return self.notation

    def tiles(self) -> list[PlacedTile]:
        """The new tiles of this move, as the rules core takes them."""
        out = []
        dr, dc = (1, 0) if self.down else (0, 1)
        for i, ch in enumerate(self.word):
            if ch != ".":
                out.append(PlacedTile(Square(self.row + dr * i, self.col + dc * i),
                                      Tile(ch.upper(), blank=ch.islower())))
        return out


@dataclass
class Position_:
    """A board and rack encoded for the generator (shared by the Python and C paths)."""

    size: int
    cells: list[int]  # size*size: 0 empty, else code | BLANK_BIT
    letter_mult: list[int]
    word_mult: list[int]
    values: list[int]  # by code; 0 for codes the tile set lacks
    rack: list[int]  # count by code
    blanks: int
    blank_codes: list[int]  # codes a blank may stand for (the tile set's letters that the list uses)
    centre: int
    rack_size: int
    bingo_bonus: int
    bingo_sizes: frozenset[int]
    upper: str  # 64 characters: the letter of each code ('?' where none)
    lower: str  # the same as written for a blank


def encode_position(board: Board, rack: str, lexicon: Lexicon, layout: Layout, tileset: TileSet) -> Position_:
    size = board.size
    if layout.size != size:
        raise RackError(f"the board is {size}x{size} but the {layout.name} layout is {layout.size}x{layout.size}")
    codes = lexicon.codes
    values = [0] * 64
    for letter, code in codes.items():
        if tileset.has_letter(letter):
            values[code] = tileset.values[letter]
    cells = [0] * (size * size)
    for placed in board.tiles():
        letter = placed.tile.letter
        if not tileset.has_letter(letter):
            raise RackError(f"the board has '{letter}' on {placed.square}, which the {tileset.name} tile set does not have")
        code = codes.get(letter, UNKNOWN_CODE)
        cells[placed.square.row * size + placed.square.col] = code | (BLANK_BIT if placed.tile.blank else 0)
    counts = [0] * 64
    blanks = 0
    for ch in rack:
        if ch == BLANK:
            blanks += 1
            continue
        letter = ch.upper()
        if not (letter.isalpha() and tileset.has_letter(letter)):
            raise RackError(f"the rack '{rack}' has '{ch}', which is not a tile of the {tileset.name} set "
                            "(use letters, '?' for a blank)")
        known = codes.get(letter)
        if known is not None:
            counts[known] += 1
        # a letter the word list never uses can be on the rack but never played
    if len(rack) > max(tileset.rack_size, 20):
        raise RackError(f"the rack '{rack}' has {len(rack)} tiles; a rack holds at most {tileset.rack_size}")
    blank_codes = [codes[ch] for ch in lexicon.alphabet if tileset.has_letter(ch)]
    lm = [0] * (size * size)
    wm = [0] * (size * size)
    for r in range(size):
        for c in range(size):
            p = layout.premiums[r][c]
            lm[r * size + c] = p.letter_multiplier
            wm[r * size + c] = p.word_multiplier
    upper = "?" + lexicon.alphabet + "?" * (63 - len(lexicon.alphabet))
    # a blank is written in lower case; a letter whose lower case is not one character stays as it is
    lower = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in upper)
    return Position_(size, cells, lm, wm, values, counts, blanks, blank_codes,
                     layout.centre.row * size + layout.centre.col, tileset.rack_size,
                     tileset.bingo_bonus, tileset.bingo_sizes, upper, lower)


def _cross_checks(arcs: Any, root: int, cells: list[int], size: int, values: list[int],
                  transpose: bool) -> tuple[list[int], list[int]]:
    """Per square (in line order for this direction): allowed-letter mask and cross-sum (-1: no cross word)."""
    full = (1 << 64) - 1
    masks = [full] * (size * size)
    sums = [-1] * (size * size)

    def at(line: int, i: int) -> int:
        return cells[i * size + line] if transpose else cells[line * size + i]

    for line in range(size):
        for i in range(size):
            if at(line, i):
                masks[line * size + i] = 0
                continue
            # the perpendicular of square (line, i) runs along index `line` of the other lines
            lo = line
            while lo > 0 and (cells[i * size + lo - 1] if transpose else cells[(lo - 1) * size + i]):
                lo -= 1
            hi = line
            while hi < size - 1 and (cells[i * size + hi + 1] if transpose else cells[(hi + 1) * size + i]):
                hi += 1
            if lo == line and hi == line:
                continue
            prefix = [(cells[i * size + k] if transpose else cells[k * size + i]) for k in range(lo, line)]
            suffix = [(cells[i * size + k] if transpose else cells[k * size + i]) for k in range(line + 1, hi + 1)]
            total = 0
            for t in prefix + suffix:
                if not t & BLANK_BIT:
                    total += values[t & CODE_MASK]
            sums[line * size + i] = total
            node = root
            ok = True
            for t in prefix:
                arc = find_arc(arcs, node, t & CODE_MASK)
                if not arc:
                    ok = False
                    break
                node = arc >> 8
            mask = 0
            if ok and node:
                j = node
                while True:
                    arc = arcs[j]
                    if suffix:
                        n = arc >> 8
                        a = 0
                        for t in suffix:
                            a = find_arc(arcs, n, t & CODE_MASK)
                            if not a:
                                break
                            n = a >> 8
                        good = bool(a & ACCEPTS)
                    else:
                        good = bool(arc & ACCEPTS)
                    if good:
                        mask |= 1 << (arc & CODE_MASK)
                    if arc & LAST:
                        break
                    j += 1
            masks[line * size + i] = mask
    return masks, sums


class _Found(Exception):
    """Raised to stop the search at the first move (for `has_any_play`)."""


def _generate_python(pos: Position_, arcs: Any, root: int, limit_one: bool = False) -> list[tuple[int, int, int, str, int]]:
    """Moves as (row, col, down, word, score), in no particular order. Pure Python."""
    size = pos.size
    cells = pos.cells
    out: list[tuple[int, int, int, str, int]] = []
    if sum(pos.rack) + pos.blanks == 0:
        return out
    empty_board = not any(cells)
    state = _Search(pos, arcs, root, limit_one, out)
    try:
        for down in (False, True):
            if down and empty_board:
                break  # openings are counted across only
            if down:
                line_cells = [cells[c * size + r] for r in range(size) for c in range(size)]
                lm = [pos.letter_mult[c * size + r] for r in range(size) for c in range(size)]
                wm = [pos.word_mult[c * size + r] for r in range(size) for c in range(size)]
            else:
                line_cells, lm, wm = cells, pos.letter_mult, pos.word_mult
            masks, sums = _cross_checks(arcs, root, cells, size, pos.values, down)
            for line in range(size):
                if empty_board and line != pos.centre // size:
                    continue
                state.line(down, line, line_cells, lm, wm, masks, sums, empty_board)
    except _Found:
        pass
    return out


class _Search:
    """Appel-Jacobson search over one line at a time; rack state is shared across lines."""

    def __init__(self, pos: Position_, arcs: Any, root: int, limit_one: bool,
                 out: list[tuple[int, int, int, str, int]]) -> None:
        self.pos = pos
        self.arcs = arcs
        self.root = root
        self.limit_one = limit_one
        self.out = out
        self.rack = list(pos.rack)
        self.blanks = pos.blanks
        self.blank_ok = [False] * 64
        for code in pos.blank_codes:
            self.blank_ok[code] = True
        self.ntiles = sum(pos.rack) + pos.blanks

    def line(self, down: bool, line: int, line_cells: list[int], lm: list[int], wm: list[int],
             masks: list[int], sums: list[int], empty_board: bool) -> None:
        pos = self.pos
        size = pos.size
        arcs = self.arcs
        root = self.root
        rack = self.rack
        blank_ok = self.blank_ok
        values = pos.values
        upper = pos.upper
        lower = pos.lower
        bingo = pos.bingo_bonus
        bingo_sizes = pos.bingo_sizes
        out = self.out
        limit_one = self.limit_one
        base = line * size
        row = line_cells[base:base + size]
        if empty_board:
            is_anchor = [i == pos.centre % size for i in range(size)]
        else:
            is_anchor = [False] * size
            for i in range(size):
                if not row[i] and ((i > 0 and row[i - 1]) or (i < size - 1 and row[i + 1]) or sums[base + i] >= 0):
                    is_anchor[i] = True
        word: list[int] = []

        def record(end: int) -> None:
            start = end - len(word)
            if len(word) < 2:
                return  # a lone tile forms no word along this line
            main = 0
            mult = 1
            cross = 0
            placed = 0
            last_new = -1
            text = []
            for k, t in enumerate(word):
                sq = base + start + k
                code = t & CODE_MASK
                v = 0 if t & BLANK_BIT else values[code]
                if t & NEW_BIT:
                    placed += 1
                    last_new = start + k
                    lmul = lm[sq]
                    wmul = wm[sq]
                    main += v * lmul
                    mult *= wmul
                    if sums[sq] >= 0:
                        cross += (sums[sq] + v * lmul) * wmul
                    text.append(lower[code] if t & BLANK_BIT else upper[code])
                else:
                    main += v
                    text.append(".")
            if down and placed == 1 and sums[base + last_new] >= 0:
                return  # a one-tile play that also forms an across word is counted as across
            score = main * mult + cross + (bingo if placed in bingo_sizes else 0)
            if down:
                out.append((start, line, 1, "".join(text), score))
            else:
                out.append((line, start, 0, "".join(text), score))
            if limit_one:
                raise _Found

        def extend_right(node: int, i: int, accepts: int, anchor: int) -> None:
            if i == size or not row[i]:
                if accepts and i > anchor:
                    record(i)
                if i == size or not node:
                    return
                mask = masks[base + i]
                j = node
                while True:
                    arc = arcs[j]
                    code = arc & CODE_MASK
                    if (mask >> code) & 1:
                        if rack[code]:
                            rack[code] -= 1
                            word.append(code | NEW_BIT)
                            extend_right(arc >> 8, i + 1, arc & ACCEPTS, anchor)
                            word.pop()
                            rack[code] += 1
                        if self.blanks and blank_ok[code]:
                            self.blanks -= 1
                            word.append(code | NEW_BIT | BLANK_BIT)
                            extend_right(arc >> 8, i + 1, arc & ACCEPTS, anchor)
                            word.pop()
                            self.blanks += 1
                    if arc & LAST:
                        break
                    j += 1
            else:
                t = row[i]
                arc = find_arc(arcs, node, t & CODE_MASK)
                if arc:
                    word.append(t)
                    extend_right(arc >> 8, i + 1, arc & ACCEPTS, anchor)
                    word.pop()

        def left_part(node: int, limit: int, anchor: int) -> None:
            extend_right(node, anchor, 0, anchor)
            if limit <= 0 or not node:
                return
            j = node
            while True:
                arc = arcs[j]
                code = arc & CODE_MASK
                child = arc >> 8
                if child:
                    if rack[code]:
                        rack[code] -= 1
                        word.append(code | NEW_BIT)
                        left_part(child, limit - 1, anchor)
                        word.pop()
                        rack[code] += 1
                    if self.blanks and blank_ok[code]:
                        self.blanks -= 1
                        word.append(code | NEW_BIT | BLANK_BIT)
                        left_part(child, limit - 1, anchor)
                        word.pop()
                        self.blanks += 1
                if arc & LAST:
                    break
                j += 1

        for a in range(size):
            if not is_anchor[a]:
                continue
            if a > 0 and row[a - 1]:
                # the left part is the tiles already there: read them off the graph
                s = a - 1
                while s > 0 and row[s - 1]:
                    s -= 1
                node = root
                for i in range(s, a):
                    arc = find_arc(arcs, node, row[i] & CODE_MASK)
                    if not arc:
                        node = 0
                        break
                    node = arc >> 8
                if node:
                    word[:] = row[s:a]
                    extend_right(node, a, 0, a)
                    word.clear()
            else:
                limit = 0
                i = a - 1
                while i >= 0 and not row[i] and not is_anchor[i]:
                    limit += 1
                    i -= 1
                left_part(root, min(limit, self.ntiles - 1), a)


_DEFAULTS: dict[str, Any] = {}


def _defaults(lexicon: Lexicon | None, layout: Layout | None, tileset: TileSet | None) -> tuple[Lexicon, Layout, TileSet]:
    if lexicon is None:
        lexicon = load_lexicon()
    if layout is None:
        layout = _DEFAULTS.get("layout") or _DEFAULTS.setdefault("layout", load_layout("standard"))
    if tileset is None:
        tileset = _DEFAULTS.get("tileset") or _DEFAULTS.setdefault("tileset", load_tileset("en"))
    return lexicon, layout, tileset


def _sort_key(m: tuple[int, int, int, str, int]) -> tuple[int, int, int, int, str]:
    return (-m[4], m[0], m[1], m[2], m[3])


def _raw_moves(board: Board, rack: str, lexicon: Lexicon, layout: Layout, tileset: TileSet,
               limit_one: bool, engine: str) -> list[tuple[int, int, int, str, int]]:
    """(row, col, down, word, score) tuples sorted best first (score, then row, column, across first, word)."""
    pos = encode_position(board, rack, lexicon, layout, tileset)
    fast = _fast_module() if engine in ("c", "auto") else None
    if engine == "c" and fast is None:
        raise RuntimeError("the C move generator (lexicon._movegen) is not built: run pip install -e .")
    if fast is not None and _graph_safe(fast, lexicon):
        result: list[tuple[int, int, int, str, int]] = fast.generate(
            pos.size, bytes(pos.cells), bytes(pos.letter_mult), bytes(pos.word_mult), pos.values, pos.rack,
            pos.blanks, bytes(pos.blank_codes), pos.centre, pos.bingo_bonus, tuple(pos.bingo_sizes),
            pos.upper, pos.lower, lexicon.arcs, lexicon.root, limit_one)
        return result
    try:
        raw = _generate_python(pos, lexicon.arcs, lexicon.root, limit_one)
    except IndexError:
        # Only a graph the C check refused can point past its end: the cache is damaged, not the position.
        if lexicon.checked is not False:
            raise
        raise LexiconError(f"the word list {lexicon.name} is damaged (its compiled graph points past its end): "
                           "delete the cached copy so that it is compiled again") from None
    raw.sort(key=_sort_key)
    return raw


def _graph_safe(fast: Any, lexicon: Lexicon) -> bool:
    """Check a graph once before C walks it (a damaged cache must not crash the process)."""
    if lexicon.checked is None:
        lexicon.checked = bool(fast.check_graph(lexicon.arcs))
    return lexicon.checked


def _fast_module() -> Any:
    if "fast" not in _DEFAULTS:
        try:
            from lexicon import _movegen  # type: ignore[attr-defined]
        except ImportError:
            _movegen = None
        _DEFAULTS["fast"] = _movegen
    return _DEFAULTS["fast"]


def generate_moves(board: Board, rack: str, lexicon: Lexicon | None = None, layout: Layout | None = None,
                   tileset: TileSet | None = None, engine: str = "auto") -> list[Move]:
    """Every legal placement, sorted best first. `engine`: "auto" (C when built), "c" or "python"."""
    lexicon, layout, tileset = _defaults(lexicon, layout, tileset)
    raw = _raw_moves(board, rack, lexicon, layout, tileset, False, engine)
    return [Move(r, c, bool(d), w, s) for r, c, d, w, s in raw]


def has_any_play(board: Board, rack: str, lexicon: Lexicon | None = None, layout: Layout | None = None,
                 tileset: TileSet | None = None) -> bool:
    """Does this rack have any legal tile placement on this board? (Stops at the first one found.)"""
    lexicon, layout, tileset = _defaults(lexicon, layout, tileset)
    return bool(_raw_moves(board, rack, lexicon, layout, tileset, True, "auto"))


def best_plays(board: Board, rack: str, n: int = 10, lexicon: Lexicon | None = None,
               layout: Layout | None = None, tileset: TileSet | None = None) -> list[Move]:
    """The `n` highest-scoring placements (ties broken by position, then word)."""
    return generate_moves(board, rack, lexicon, layout, tileset)[:max(0, n)]


def board_from_rows(rows: Sequence[str]) -> Board:
    """A board from 15 strings as in the oracle (`.` empty, upper case tile, lower case blank)."""
    return Board.from_rows(list(rows))


__all__ = ["COLUMNS", "Move", "RackError", "best_plays", "board_from_rows", "generate_moves", "has_any_play"]
