"""`companion judge [--lexicon NAME|PATH] [--each] WORD...`: rule on the words of one play.

Prints exactly `ACCEPTABLE` or `UNACCEPTABLE` for the whole play (never which word failed, as at a
table); `--each` prints `WORD ok` / `WORD not in <lexicon>` per word instead. Exit status 0 when
acceptable, 1 when not, 2 for input that is not words or a lexicon that cannot be loaded.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli import CommandError
from lexicon.judge import NotAWordError, check_word, judge_words
from lexicon.store import Lexicon, LexiconError, load_lexicon
from lexicon.wordlist import MAX_WORD_LENGTH


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge", help="judge the words of a play against a lexicon",
        description="Judge the words one play forms: ACCEPTABLE or UNACCEPTABLE (exit 0 or 1).")
    parser.add_argument("words", nargs="+", metavar="WORD", help="the words the play forms")
    parser.add_argument("--lexicon", metavar="NAME|PATH", default=None,
                        help="a lexicon name (default ENABLE) or a word list file, one word per line")
    parser.add_argument("--each", action="store_true", help="one line per word instead of one verdict")
    parser.set_defaults(func=run)


def load_for_cli(spec: str | None, command: str) -> Lexicon:
    """The lexicon a command asked for, as a `CommandError` when it cannot be loaded."""
    try:
        lex = load_lexicon(spec)
    except LexiconError as exc:
        raise CommandError(str(exc)) from None
    if spec is not None and "skipped" in lex.summary:
        sys.stderr.write(f"companion {command}: note: word list {lex.name}: {lex.summary}\n")
    return lex


def run(args: argparse.Namespace) -> int:
    try:
        words = [check_word(w) for w in args.words]
    except NotAWordError as exc:
        raise CommandError(str(exc)) from None
    lex = load_for_cli(args.lexicon, "judge")
    if any(len(w) > MAX_WORD_LENGTH for w in words):
        sys.stderr.write(f"companion judge: note: words longer than {MAX_WORD_LENGTH} letters cannot be played "
                         "on a 15x15 board, so lexicons do not keep them\n")
    ruling = judge_words(words, lex)
    if args.each:
        print("\n".join(ruling.lines()))
    else:
        print(ruling.verdict)
    return 0 if ruling.acceptable else 1
