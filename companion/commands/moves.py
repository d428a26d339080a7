"""`companion moves`: not yet built."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("moves", help="(not yet available)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise CommandError("this command is not built yet")
