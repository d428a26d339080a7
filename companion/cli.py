"""The `companion` command: one entry point, one subcommand module each.

Each module in `companion.commands` exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable taking the parsed arguments and returning the exit status. Errors meant for the
user are raised as `CommandError` and printed as one plain sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# The numeric work (the board reader's small networks, the move list's arrays) is small matrices, where
# a pool of BLAS threads only spins: on a 2-core machine it added ~40% CPU per photo for no gain in wall
# time (benchmarks/vision.py --single-thread). OpenBLAS reads this once, when numpy is first imported,
# so it is set here, before any subcommand imports numpy; an explicit setting in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

COMMAND_MODULES = ("app", "games", "gcg", "judge", "moves", "read", "replay", "watch")


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
        description="Referee for physical Monopoly-family and word board games.",
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
