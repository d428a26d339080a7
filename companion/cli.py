"""The `companion` command: one entry point, one subcommand module each.

Each module in `companion.commands` exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable taking the parsed arguments and returning the exit status. Errors meant for the
user are raised as `CommandError` and printed as one plain sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("app", "games", "gcg", "judge", "moves", "read", "replay")


class CommandError(Exception):
    """A problem with the user's input: printed as one sentence, exit status 2 unless given."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints usage plus a message; we keep the single-sentence convention.
        sys.stderr.write(f"{self.prog}: {message}. See '{self.prog} --help'.\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="companion",
        description="Referee for physical Monopoly Scrabble and Scrabble games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"companion.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except CommandError as exc:
        sys.stderr.write(f"companion {args.command}: {exc}\n")
        return exc.status
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    raise SystemExit(main())
