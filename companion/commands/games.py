"""`companion games`: the saved games, for users: list, export, import and back up the game file.

The app keeps every game in one SQLite file, `games.sqlite` in the data folder (default
`~/.local/share/table-referee`, or `--data DIR` as given to `companion app`). This command reads and
writes that file through `companion.store`, so the same checks apply: a file that is not a game file is
refused untouched, an import is checked completely by the rules before anything is written, and a
backup is a consistent copy made with SQLite's backup API even while the app is running.

- `companion games list [--data DIR]`: one line per game (id, variant, status, events, players, created).
- `companion games export GAME_ID [--gcg] [-o FILE]`: the game's log as JSON (`docs/event-format.md`), or a
  classic game as GCG, on stdout or into FILE.
- `companion games import FILE`: a new game from an exported JSON log or a GCG record; prints its id.
- `companion games backup FILE`: a copy of the whole game file (open it again with `--data` on its folder
  after renaming it `games.sqlite`, or import games from it).

Errors are one sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.store import Store, StoreError, backup_to

FILE_NAME = "games.sqlite"  # the same name as `companion.ui.persist.FILE_NAME`, without importing the UI


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "table-referee"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games", help="list, export, import and back up saved games",
        description="The games the app saved (games.sqlite in the data folder): list them, export one as JSON "
                    "or GCG, import an exported game, or back up the whole file while the app runs.")
    parser.add_argument("--data", default=None,
                        help="the app's data folder (default ~/.local/share/table-referee)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    actions.add_parser("list", help="one line per saved game")
    export = actions.add_parser("export", help="a game's log as JSON (or GCG)")
    export.add_argument("game_id", metavar="GAME_ID")
    export.add_argument("--gcg", action="store_true", help="a classic game as a GCG record")
    export.add_argument("-o", "--output", type=Path, default=None, help="write to FILE instead of stdout")
    imp = actions.add_parser("import", help="a new game from an exported JSON log or a GCG record")
    imp.add_argument("file", type=Path, metavar="FILE")
    backup = actions.add_parser("backup", help="a consistent copy of the game file, even while the app runs")
    backup.add_argument("file", type=Path, metavar="FILE")
    # the data folder may also be given after the action, as users type it
    for sub in (actions.choices[name] for name in ("list", "export", "import", "backup")):
        sub.add_argument("--data", default=argparse.SUPPRESS, help="the app's data folder")
    parser.set_defaults(func=run)


def _database(args: argparse.Namespace, must_exist: bool) -> Path:
    folder = Path(args.data) if args.data else default_data_dir()
    path = folder / FILE_NAME
    if must_exist and not path.is_file():
        raise CommandError(f"there is no game file {path} yet: play a game first, or give the app's folder with --data")
    return path


def _open(path: Path) -> Any:
    try:
        if not path.parent.is_dir():
            path.parent.mkdir(parents=True)
        return Store(path)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"the data folder {path.parent} cannot be created ({exc.strerror}): "
                           "choose another with --data") from None


def run(args: argparse.Namespace) -> int:
    try:
        return int(ACTIONS[args.action](args))
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def _list(args: argparse.Namespace) -> int:
    path = _database(args, must_exist=False)
    if not path.is_file():
        print(f"no saved games yet ({path} does not exist)")
        return 0
    with _open(path) as store:
        games = store.games()
    if not games:
        print(f"no saved games in {path}")
        return 0
    for g in games:
        players = [str(p[0]) for p in g.settings.get("table", {}).get("players", []) if p]
        if not players:
            players = [str(p) for p in g.settings.get("players", [])]
        print(f"{g.id}\t{g.variant}\t{g.status}\t{g.last_seq} events\t{', '.join(players) or '-'}\t{g.created}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with _open(_database(args, must_exist=True)) as store:
        text = store.export_gcg(args.game_id) if args.gcg else store.export_json(args.game_id)
    if args.output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {args.output} ({exc.strerror}): choose another file with -o") from None
    print(f"exported game {args.game_id} to {args.output}")
    return 0


def _import(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CommandError(f"{path} does not exist: give an exported game file (.json or .gcg)") from None
    except IsADirectoryError:
        raise CommandError(f"{path} is a folder: give an exported game file (.json or .gcg)") from None
    except OSError as exc:
        raise CommandError(f"{path} cannot be read ({exc.strerror}): check the file") from None
    if len(data) > 20 * 1024 * 1024:
        raise CommandError(f"{path} is larger than 20 MB, far more than any game log: give an exported game file")
    looks_json = data.lstrip()[:1] in (b"{", b"[") or path.suffix.lower() == ".json"
    with _open(_database(args, must_exist=False)) as store:
        if looks_json:
            new_id = _import_json(store, data)
        else:
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = data.decode("latin-1")  # older GCG files
            new_id = store.import_gcg(text)
        info = store.game(new_id)
    print(f"imported game {new_id} ({info.variant}, {info.last_seq} events) into {store.path}")
    return 0


def _import_json(store: Any, data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise StoreError("the game log is not UTF-8 text: give the JSON file the app exported") from None
    return str(store.import_json(text))


def _backup(args: argparse.Namespace) -> int:
    source = _database(args, must_exist=True)
    target: Path = args.file
    if target.is_dir():
        raise CommandError(f"{target} is a folder: give the backup's file name, e.g. {target / 'games-backup.sqlite'}")
    if target.exists():
        raise CommandError(f"{target} already exists: choose a new file name (a backup never overwrites a file)")
    if not target.parent.is_dir():
        raise CommandError(f"the folder {target.parent} does not exist: create it or choose another place")
    if target.resolve() == source.resolve():
        raise CommandError("the backup must go to another file than the game file itself")
    backup_to(source, target)
    print(f"backed up {source} to {target}")
    return 0


ACTIONS = {"list": _list, "export": _export, "import": _import, "backup": _backup}
