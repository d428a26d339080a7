"""`companion watch VIDEO|FOLDER`: watch mode on a recorded stream, the same code path as the app.

Reads a y4m video (parsed here, `vision.stream.read_y4m`), another video OpenCV can open (mp4...), or a
folder of frames in time order (times from `--fps`, else from the numbers in the file names, else one a
second), and feeds every frame to `vision.watch.Watcher` as the app's watch mode does. Prints each
committed move (frame time, square, word, score, tiles), each question the watcher asks and why, and the
final board. When the stream ends, the time a standing proposal (or a doubt not asked yet) needs is let
pass (the table would leave the board alone).

A question does not stop the watch (unless `--answer stop`): in the app the referee answers it on the
photo-correction screen; here the answer is made from the reader's own reading of the frame that raised
it (`--answer read`, the default): when the new tiles, as read, are one legal play, that play is taken as
the referee's answer and recorded, marked as answered (not committed by the watcher); otherwise (or with
`--answer skip`) the tiles are taken onto the board as read, unscored, so the watch goes on against what
lies on the table. The same question asked again about the same board is printed once.

With `--game LOG` (a game log as `companion replay` reads it; classic or Monopoly Scrabble) the board
starts as the game's and each move goes through the game's table (`WordTable.check_read` then `play`,
what the app does with a confirmed photo), so Monopoly Scrabble's money, cards and token effects are
printed too. A game's record cannot take unscored tiles: with `--game`, a question the reading cannot
answer with a legal play, a move the table refuses, or a step the game waits for (a card to draw...)
stops the watch there. With `--board FILE` (15 lines of 15 characters, `.` empty) the stream starts on
that board instead of an empty one.

The game's word list is the watcher's evidence, as in the app: a new tile the reader is not sure of,
whose letter is the only one that makes words there, is not asked about. `--words NAME|FILE|none` names
it; by default it is the game's list with `--game` (a classic log's settings name it; a Monopoly Scrabble
log only on its challenges, else ENABLE, the app's default), else ENABLE for English tiles and none for a
tile set without a word list (the Romanian set, a tile file). The list used is printed first.

Exit status: 0 every move was committed by the watcher with no question; 1 the referee would have been
needed (a question was asked, a move refused, or the watch stopped); 2 bad input (no such file, a video
or frame that is not an image, a stream cut off, a video that shows no board, a malformed board file):
one sentence on stderr, nothing printed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

QUESTION_STATUS = 1  # the referee would have been needed
ANSWERS = ("read", "skip", "stop")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "watch", help="watch a recorded stream of a board game and print the moves it would commit",
        description="Watch a video (y4m, or mp4 when OpenCV can open it) or a folder of frames of a word "
                    "board game filmed from above, as the app's watch mode does: print each committed move, "
                    "each question and why, and the final board.",
        epilog="Exit status: 0 every move was committed by the watcher and nothing was asked; 1 the referee would "
               "have been needed (a question, a move the game refused, or the watch stopped); 2 bad input (one "
               "sentence on stderr, nothing printed).")
    parser.add_argument("source", type=Path, metavar="VIDEO|FOLDER", help="a .y4m/.mp4 video or a folder of frames")
    parser.add_argument("--game", type=Path, metavar="LOG",
                        help="the game log the stream continues (classic or monopoly): the board starts as the "
                             "game's and moves go through its table (money and token effects printed)")
    parser.add_argument("--tiles", default="en", metavar="en|ro|FILE", help="tile set without --game (default en)")
    parser.add_argument("--words", default=None, metavar="NAME|FILE|none",
                        help="the word list that vouches for a letter the reader is not sure of (when that "
                             "letter is the only one making words there, the watcher does not ask about it): a "
                             "list's name (ENABLE, or one in your lexicons folder), a word list file, or 'none'. "
                             "Default: the game's list with --game; else ENABLE for --tiles en, and none for a "
                             "tile set without a word list (ro, a FILE): every unsure letter is then asked about")
    parser.add_argument("--settle", type=float, default=None, metavar="S",
                        help="seconds of a still board with no hand before a move is committed")
    parser.add_argument("--fps", type=float, default=None, metavar="F",
                        help="frames per second of a folder of frames (default: times in the file names)")
    parser.add_argument("--board", type=Path, metavar="FILE",
                        help="the board the stream starts on, without --game: 15 lines of 15 characters, "
                             "'.' an empty square, a letter a tile, '?' a blank, a lowercase letter a blank "
                             "standing for it (default: an empty board)")
    parser.add_argument("--answer", choices=ANSWERS, default="read",
                        help="how a question is answered, as the referee would on the app's correction screen: "
                             "'read' (default) takes the reader's reading of the frame that raised it when its "
                             "new tiles are one legal play (the move is printed as answered, not as committed "
                             "by the watcher), else the tiles go on the board as read, unscored, and the watch "
                             "goes on; 'skip' always does the latter; 'stop' stops at the first question. "
                             "With --game a question not answered by a legal play stops the watch. Exit "
                             "status 1 when any question was asked")
    parser.add_argument("--json", action="store_true",
                        help="print JSON lines: one object per move ({\"type\": \"move\"}), per question "
                             "({\"type\": \"question\"}, with its answer) and the final board last "
                             "({\"type\": \"final\"})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Lazy on purpose: the body loads OpenCV and the reader, ~1 s that the parser alone must not cost
    # (see watch_run's docstring).
    from companion.commands import watch_run

    return watch_run.run(args)
