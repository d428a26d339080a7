"""`companion moves --board FILE --rack RACK [--lexicon NAME|PATH] [--json]`: every legal placement.

FILE holds 15 lines of 15 characters (`.` empty, upper case tile, lower case blank); `?` in RACK is a
blank. Moves print best first (score, then position), one a line as `POS WORD SCORE` in GCG notation
(`.` for a tile already on the board); `--json` prints `{"count": N, "moves": [...]}` with the same
strings. `--tiles` and `--layout` pick another tile set or premium layout (for example `--tiles ro`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.commands.judge import load_for_cli
from companion.rules.board import Board, load_layout
from companion.rules.errors import RulesDataError
from companion.rules.tiles import load_tileset
from lexicon.movegen import RackError, generate_moves


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "moves", help="list every legal placement for a board and a rack",
        description="List every legal tile placement with its score, best first.")
    parser.add_argument("--board", required=True, metavar="FILE",
                        help="15 lines of 15 characters: '.' empty, upper case tile, lower case blank")
    parser.add_argument("--rack", required=True, metavar="RACK", help="the rack's letters, '?' for a blank")
    parser.add_argument("--lexicon", metavar="NAME|PATH", default=None,
                        help="a lexicon name (default ENABLE) or a word list file")
    parser.add_argument("--tiles", metavar="SET", default="en", help="tile set: en, ro or a JSON file (default en)")
    parser.add_argument("--layout", metavar="LAYOUT", default="standard", help="premium layout (default standard)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="print only the best N moves")
    parser.add_argument("--json", action="store_true", help='print {"count": N, "moves": [...]}')
    parser.set_defaults(func=run)


def read_board_file(path: Path, size: int = 15) -> list[str]:
    """The board rows of FILE, or a `CommandError` saying what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{path} does not exist: give a board file of {size} lines of {size} characters") from None
    except IsADirectoryError:
        raise CommandError(f"{path} is a folder: give a board file of {size} lines of {size} characters") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a text file: give {size} lines of {size} characters") from None
    rows = [line.strip() for line in text.splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    if len(rows) != size:
        raise CommandError(f"{path} has {len(rows)} lines; a board file has {size} lines of {size} characters")
    for n, row in enumerate(rows, 1):
        if len(row) != size:
            raise CommandError(f"{path} line {n} has {len(row)} characters; each line needs {size}")
        for k, ch in enumerate(row):
            if ch != "." and not (ch.isalpha() and len(ch.upper()) == 1):
                raise CommandError(f"{path} line {n} has '{ch}' in column {k + 1}: use '.', a letter, "
                                   "or a lower-case letter for a blank")
    return rows


def run(args: argparse.Namespace) -> int:
    rack = args.rack.strip()
    if not rack:
        raise CommandError("the rack is empty: give its letters, '?' for a blank")
    try:
        tileset = load_tileset(args.tiles)
        layout = load_layout(args.layout)
    except RulesDataError as exc:
        raise CommandError(str(exc)) from None
    rows = read_board_file(Path(args.board), layout.size)
    board = Board.from_rows(rows)
    lex = load_for_cli(args.lexicon, "moves")
    try:
        moves = generate_moves(board, rack, lex, layout, tileset)
    except RackError as exc:
        raise CommandError(str(exc)) from None
    shown = moves if args.limit is None else moves[:max(0, args.limit)]
    lines = [m.notation for m in shown]
    text = json.dumps({"count": len(moves), "moves": lines}) if args.json else "\n".join(lines)
    try:
        if text:
            print(text)
    except BrokenPipeError:  # `companion moves ... | head`: the reader has all it wanted
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter shutdown from failing again
    return 0
