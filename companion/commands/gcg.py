"""`companion gcg verify`: replay GCG records on a real board and check every recorded score.

Prints one line per finding (`file:line: recorded X, computed Y (...)` for a mismatch, withdrawn phonies,
warnings, and the reason a record cannot be replayed) and ends with one summary line
`files: N, placements: P, mismatches: M` (`, unreadable: U` when some records could not be replayed).
Exit status 0 when nothing is wrong, 1 when there are mismatches or unreadable records, 2 when it cannot run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.gcg_replay import FindingKind, verify_file
from companion.rules.board import load_layout
from companion.rules.errors import RulesDataError
from companion.rules.tiles import load_tileset


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gcg", help="work with GCG game records",
        description="Work with GCG game records (the format of Quackle, Woogles and cross-tables).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    verify = actions.add_parser(
        "verify", help="replay records and check every score",
        description="Replay each record on a real board, recompute every placement score and running "
                    "total with the rules, and report every difference.")
    verify.add_argument("paths", nargs="+", metavar="PATH", help="GCG files or folders (searched recursively)")
    verify.add_argument("--tiles", default="en", metavar="en|ro|FILE",
                        help="tile values: en, ro, a tile-set JSON file, or FILE.csv:COLUMN (default en)")
    verify.add_argument("--layout", default="standard", metavar="NAME|FILE",
                        help="premium layout (default standard)")
    verify.add_argument("--quiet", action="store_true", help="print only mismatches, errors and the summary")
    verify.set_defaults(func=run_verify)
    parser.set_defaults(func=run_verify)


def _collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for text in paths:
        p = Path(text)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() == ".gcg")
            if not found:
                raise CommandError(f"the folder {p} holds no .gcg files")
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise CommandError(f"{p} does not exist: give GCG files or folders")
    return files


def run_verify(args: argparse.Namespace) -> int:
    try:
        tileset = load_tileset(args.tiles)
        layout = load_layout(args.layout)
    except RulesDataError as exc:
        raise CommandError(str(exc)) from None
    files = _collect(args.paths)
    placements = mismatches = unreadable = 0
    out = sys.stdout
    for path in files:
        report = verify_file(path, tileset, layout)
        placements += report.placements
        for finding in report.findings:
            if args.quiet and finding.kind in (FindingKind.WARNING, FindingKind.WITHDRAWN):
                continue
            out.write(finding.render(str(path)) + "\n")
        mismatches += len(report.mismatches)
        if report.error is not None:
            unreadable += 1
    summary = f"files: {len(files)}, placements: {placements}, mismatches: {mismatches}"
    if unreadable:
        summary += f", unreadable: {unreadable}"
    out.write(summary + "\n")
    return 0 if mismatches == 0 and unreadable == 0 else 1
