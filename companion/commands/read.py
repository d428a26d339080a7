"""`companion read PHOTO`: the grid of letters on a photographed board and, with a previous board, the move.

Prints JSON (`grid`, `confidence`, `corners`; with `--previous`: `new_tiles`, `words`, `score`,
`changed`). `--previous` is a grid file (15 lines or JSON with a `grid`) or the previous photo. A file
that is not an image, an image with no board, or bad corners exit 2 with one sentence.

A board read on its own (no `--previous`) has its unclear letters decided by the words through them
(`vision.words`), with the default word list for English tiles or `--words NAME|FILE`; `--words none` reads
the photo alone. A move read against `--previous` never is: its word may be a phony to challenge.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.rules.errors import RulesDataError
from companion.rules.tiles import load_tileset
from lexicon import LexiconError, load_lexicon
from vision.errors import VisionError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "read", help="read the tiles on a board photo and the move played since a previous board",
        description="Read the letters on a photographed 15x15 board; with --previous, the new tiles, words "
                    "and score.",
    )
    parser.add_argument("photo", type=Path, help="photo of the board (JPEG or PNG)")
    parser.add_argument("--previous", type=Path, metavar="PHOTO|GRIDFILE",
                        help="the board before the turn: a photo, or a grid file (15 lines or JSON 'grid')")
    parser.add_argument("--tiles", default="en", metavar="en|ro|FILE",
                        help="tile set for the score (default en)")
    parser.add_argument("--corners", metavar="x1,y1,...,x4,y4",
                        help="grid corners in the photo: top-left, top-right, bottom-right, bottom-left")
    parser.add_argument("--previous-corners", metavar="x1,y1,...,x4,y4",
                        help="grid corners in the previous photo, when it is a photo")
    parser.add_argument("--json", action="store_true", help="print JSON (the default output; kept for scripts)")
    parser.add_argument("--no-tesseract", action="store_true", help="do not ask Tesseract about unsure tiles")
    parser.add_argument("--words", metavar="NAME|FILE|none",
                        help="word list that decides letters the photo leaves unclear on a board read on its own "
                             "(default: the default list for English tiles, none for other tile sets)")
    parser.set_defaults(func=run)


def _corners(text: str | None, what: str) -> list[float] | None:
    if text is None:
        return None
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise CommandError(f"{what} must be eight numbers x1,y1,...,x4,y4 (TL, TR, BR, BL)") from None
    if len(values) != 8:
        raise CommandError(f"{what} must be eight numbers x1,y1,...,x4,y4 (TL, TR, BR, BL); got {len(values)}")
    return values


def _word_list(spec: str | None, tiles: str) -> Callable[[str], bool] | None:
    """The membership test of the word list that settles unclear letters, or None to read the photo alone."""
    if spec is not None and spec.lower() == "none":
        return None
    if spec is None and tiles != "en":
        return None  # no list ships for other tile sets' languages
    try:
        return load_lexicon(spec).__contains__
    except LexiconError as exc:
        raise CommandError(f"the word list {spec} could not be loaded ({exc}): give a list's name or file, "
                           "or --words none") from None


def run(args: argparse.Namespace) -> int:
    # Lazy: OpenCV and the reader would add ~515 ms to every `companion` command (`--help` included).
    from vision.read import load_previous, read_board


    corners = _corners(args.corners, "--corners")
    prev_corners = _corners(args.previous_corners, "--previous-corners")
    if not args.photo.exists():
        raise CommandError(f"no file at {args.photo}: give the path of a board photo")
    try:
        tileset = load_tileset(args.tiles)
    except RulesDataError as exc:
        raise CommandError(str(exc)) from None
    words = _word_list(args.words, args.tiles)
    try:
        previous = None
        if args.previous is not None:
            if not args.previous.exists():
                raise CommandError(f"no file at {args.previous}: give the previous photo or a grid file")
            previous = load_previous(args.previous, tileset, prev_corners, words=words)
        reading = read_board(args.photo, corners=corners, previous=previous, tiles=tileset,
                             second_opinion=not args.no_tesseract, words=words)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    json.dump(reading.summary(), sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0
