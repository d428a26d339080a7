"""One tap, one action (issue #26): every tap that records an event goes through the one guarded path.

The double-tap guard lives in one place, `AppState._act` (companion/ui/models.py): a tap that records an
event passes the table's method itself, as `app.do(DealTable.bank, card)` or
`self._act(game, type(game).play, ...)`, and `_act` drops
the second tap of a double tap before `game.act` runs the table's method. A screen that called the
table's method itself (`game.bank(card)`, `game.push(event)`, `game.log.push(...)`) would record a
double tap twice. `tests/test_ui_browser_double_tap.py` double-clicks buttons in a real browser; this
test covers every button at once, from the source:

- the recording methods are found, not listed: every method of the table layer (`companion/ui/table.py`,
  `companion/ui/word_table.py`, each game's `table.py`) that pushes an event (`self.push`,
  `self.log.push`, `self._do`, `self.log.undo`), or calls such a method on `self`, transitively;
- the screen modules are every module under `companion/` that imports flet (what draws a button and
  runs its click handler): any code in them is treated as reachable from a click;
- in a screen module, a call of a recording method on anything but the tab's `AppState` (`app`, or
  `self` inside `AppState`), a call of `push`/`_do`/`act`/`log.*` (except `game.act` inside
  `AppState._act` itself), or a `not_a_tap = True` outside the watcher's recording is a finding;
- and `_act` itself still holds the guard (raises `RepeatedTap`) and `AppState.do` still goes through it;
- a button whose click handler opens a screen calls `app.open_screen`, which passes the same guard, never
  `app.go`, `app.new_game` or `app.go_home` itself.

Run `python -m pytest tests/test_one_tap_path.py -q`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPANION = ROOT / "companion"
TABLE_MODULES = [COMPANION / "ui" / "table.py", COMPANION / "ui" / "word_table.py",
                 *sorted(COMPANION.glob("games/*/table.py"))]
PUSHING = {"push", "_do", "undo"}  # what a table method calls on self / self.log to record an event
ALWAYS_FLAGGED = {"push", "_do", "act"}  # in a screen module, these are never called but by `_act`
APP_NAMES = {"app", "state", "tab"}  # how screens name the tab's AppState
# the only places allowed to set `not_a_tap = True`: the watcher records a move no finger tapped
NOT_A_TAP_ALLOWED = {("companion/ui/word_drafts.py", "record_watched")}
# The tab's state: the shell's `AppState` (companion/ui/models.py) with the word-board turn's drafts and
# actions mixed in (`WordBoardTurn`, companion/ui/word_drafts.py). Their methods run in click handlers
# whether or not their module imports flet; `self` inside them is the tab's AppState.
APP_STATE_CLASSES = {"AppState": COMPANION / "ui" / "models.py", "WordBoardTurn": COMPANION / "ui" / "word_drafts.py"}


def _self_calls(fn: ast.FunctionDef) -> tuple[bool, set[str]]:
    """Whether `fn` pushes an event itself, and the names of the `self.` methods it calls."""
    pushes, calls = False, set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if isinstance(target, ast.Name) and target.id == "self":
                calls.add(node.func.attr)
                if node.func.attr in PUSHING - {"undo"}:
                    pushes = True
            elif (isinstance(target, ast.Attribute) and target.attr == "log"
                  and isinstance(target.value, ast.Name) and target.value.id == "self"
                  and node.func.attr in PUSHING):
                pushes = True
    return pushes, calls


def recording_methods(modules: list[Path] = TABLE_MODULES) -> set[str]:
    """Every table-layer method name that records an event, directly or through another `self.` method."""
    direct: set[str] = set()
    calls: dict[str, set[str]] = {}
    for path in modules:
        for cls in ast.walk(ast.parse(path.read_text())):
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef):
                    pushes, called = _self_calls(fn)
                    calls.setdefault(fn.name, set()).update(called)
                    if pushes:
                        direct.add(fn.name)
    found = set(direct)
    while True:
        more = {name for name, called in calls.items() if name not in found and called & found}
        if not more:
            return found
        found |= more


def screen_modules() -> list[Path]:
    """The modules that draw controls (import flet): their code runs in click handlers."""
    out = []
    for path in sorted(COMPANION.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "flet" or n.startswith("flet.") for n in names):
                out.append(path)
                break
    return sorted(set(out) | set(APP_STATE_CLASSES.values()))


def _app_state_methods() -> set[str]:
    methods: set[str] = set()
    for name, path in APP_STATE_CLASSES.items():
        classes = [c for c in ast.walk(ast.parse(path.read_text())) if isinstance(c, ast.ClassDef) and c.name == name]
        if not classes:
            raise AssertionError(f"{path.relative_to(ROOT)} has no class {name}")
        methods |= {fn.name for fn in classes[0].body if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return methods


def _is_app(node: ast.expr, in_app_state: bool) -> bool:
    """Whether `node` is the tab's AppState: `app`, or `self` inside class AppState."""
    return isinstance(node, ast.Name) and (node.id in APP_NAMES or (in_app_state and node.id == "self"))


def unguarded_calls(path: Path, recording: set[str], app_methods: set[str], source: str | None = None) -> list[str]:
    """Each call in `path` that records an event without passing `AppState._act`: 'file:line: why'."""
    rel = path.relative_to(ROOT).as_posix()
    tree = ast.parse(source if source is not None else path.read_text())
    findings: list[str] = []

    def visit(node: ast.AST, cls: str | None, fn: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name, fn)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, cls, child.name if fn is None or cls is not None else fn)
                continue
            check(child, cls, fn)
            visit(child, cls, fn)

    def check(node: ast.AST, cls: str | None, fn: str | None) -> None:
        in_app_state = cls in APP_STATE_CLASSES
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "not_a_tap"
                                                for t in node.targets):
            if (isinstance(node.value, ast.Constant) and node.value.value is True
                    and (rel, fn) not in NOT_A_TAP_ALLOWED):
                findings.append(f"{rel}:{node.lineno}: sets not_a_tap (skips the double-tap guard) in {fn}")
            return
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return
        name, receiver = node.func.attr, node.func.value
        where = f"{rel}:{node.lineno}: {ast.unparse(node.func)}(...) in {fn or 'module level'}"
        if name == "act" and in_app_state and fn == "_act":
            return  # the guarded path itself
        if name == "__init__" and ast.unparse(receiver) == "super()":
            return  # a class building itself (the tab's Form from its word-board part), no table's
        if isinstance(receiver, ast.Attribute) and receiver.attr == "log":
            findings.append(f"{where} changes the game's log directly")
        elif name in ALWAYS_FLAGGED:
            if not (name == "push" and not _looks_like_game(receiver)):
                findings.append(f"{where} records an event without AppState._act")
        elif (name in recording and not _is_app(receiver, in_app_state)
              and (name not in app_methods or _looks_like_game(receiver))):
            findings.append(f"{where} calls the table's recording method {name} without AppState._act")

    visit(tree, None, None)
    return findings


def _looks_like_game(receiver: ast.expr) -> bool:
    """A receiver that is a game table: `game`, `g`, `self.game`, `app.game`, `HUB.game(...)`..., or a table
    class, whose method a screen now holds by reference (`DealTable.bank(game, card)` calls it unguarded)."""
    text = ast.unparse(receiver)
    return text in {"g", "table"} or "game" in text.lower() or text.endswith(("Table", "TableBase"))


def test_the_recording_methods_are_found() -> None:
    """The walk finds the tables' recording methods (a walk that found none would pass everything)."""
    found = recording_methods()
    for name in ("push", "undo", "bank", "draw", "pay", "discard", "end_turn", "forced_deal", "deal_breaker",
                 "build", "debt_collector", "bid", "mortgage", "roll", "pass_turn", "exchange", "challenge"):
        assert name in found, f"{name} not found among the tables' recording methods: {sorted(found)}"
    assert "offered" not in found and "can_undo" not in found  # questions, not actions


def test_the_screen_modules_include_every_games_screens() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in screen_modules()}
    for want in ("companion/ui/models.py", "companion/ui/word_drafts.py", "companion/games/monopoly_deal/turn.py",
                 "companion/games/monopoly_builder/bank.py", "companion/games/monopoly_builder/trades.py",
                 "companion/games/monopoly_scrabble/steps.py", "companion/games/classic/ui.py"):
        assert want in names
    assert not any(n.endswith(("/table.py", "/rules.py", "/legal.py")) for n in names)


def test_every_tap_that_records_an_event_goes_through_the_guard() -> None:
    recording, app_methods = recording_methods(), _app_state_methods()
    findings = [f for path in screen_modules() for f in unguarded_calls(path, recording, app_methods)]
    assert not findings, "calls that record an event without AppState._act (a double tap would record "\
        "twice): pass the table's method to the app, app.do(DealTable.bank, *args):\n" + "\n".join(findings)


def test_the_guarded_path_holds_the_guard() -> None:
    """`AppState._act` drops a repeated tap (raises RepeatedTap) before `game.act`; `do` goes through it."""
    tree = ast.parse((COMPANION / "ui" / "models.py").read_text())
    methods = {fn.name: fn for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) and cls.name == "AppState"
               for fn in cls.body if isinstance(fn, ast.FunctionDef)}
    act = ast.unparse(methods["_act"])
    assert "raise RepeatedTap" in act and act.index("raise RepeatedTap") < act.index("game.act(")
    assert "self._act(game, action" in ast.unparse(methods["do"])


def test_an_unguarded_handler_is_found() -> None:
    """The check fails on a screen that records an event itself: a Deal button calling the table's `bank`,
    a Builder one pushing an event, an AppState method calling `game.undo()`."""
    recording, app_methods = recording_methods(), _app_state_methods()
    deal = COMPANION / "games" / "monopoly_deal" / "turn.py"
    bad = deal.read_text() + (
        "\n\ndef _bad_bank_button(app, face):\n"
        "    return ft.FilledButton(face, on_click=lambda e: app.game.bank(app.game.current_player, face))\n"
        "\n\ndef _bad_push(app, event):\n"
        "    game = app.game\n"
        "    game.push(event)\n"
        "\n\ndef _bad_reference(app, face):\n"
        "    return ft.FilledButton(face, on_click=lambda e: DealTable.bank(app.game, face))\n")
    found = unguarded_calls(deal, recording, app_methods, bad)
    assert any("app.game.bank(...)" in f for f in found), found
    assert any("game.push(...)" in f for f in found), found
    assert any("DealTable.bank(...)" in f for f in found), found
    models = COMPANION / "ui" / "models.py"
    bad_models = models.read_text().replace(
        "    def undo(self) -> None:\n        if self.do(TableBase.undo):",
        "    def undo(self) -> None:\n        self.game.undo()\n        if self.do(TableBase.undo):")
    assert bad_models != models.read_text()
    assert any("self.game.undo(...)" in f for f in unguarded_calls(models, recording, app_methods, bad_models))
    bad_models = models.read_text().replace(
        "    def undo(self) -> None:\n        if self.do(TableBase.undo):",
        "    def undo(self) -> None:\n        TableBase.undo(self.game)\n        if self.do(TableBase.undo):")
    assert any("TableBase.undo(...)" in f for f in unguarded_calls(models, recording, app_methods, bad_models))
    # ... and a word-board action of the tab (`WordBoardTurn`, mixed into AppState) calling the table itself
    drafts = COMPANION / "ui" / "word_drafts.py"
    bad_drafts = drafts.read_text().replace(
        "        if self.do(type(game).pass_turn):",
        "        self.game.pass_turn()\n        if self.do(type(game).pass_turn):")
    assert bad_drafts != drafts.read_text()
    assert any("self.game.pass_turn(...)" in f for f in unguarded_calls(drafts, recording, app_methods, bad_drafts))


SCREEN_OPENERS = {"go", "new_game", "go_home"}  # `AppState` methods that change the screen without the guard


def unguarded_openers(path: Path, source: str | None = None) -> list[str]:
    """Buttons in a screen module whose click handler is a lambda calling `app.go(...)`, `app.new_game()` or
    `app.go_home()` itself: a tap that opens a screen must pass the guard (`AppState.open_screen`)."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.keyword) or node.arg != "on_click" or not isinstance(node.value, ast.Lambda):
            continue
        body = node.value.body
        if (isinstance(body, ast.Call) and isinstance(body.func, ast.Attribute)
                and body.func.attr in SCREEN_OPENERS and _is_app(body.func.value, False)):
            found.append(f"{path.relative_to(ROOT) if path.is_absolute() else path}:{node.value.lineno} "
                         f"app.{body.func.attr}")
    return found


def test_every_button_that_opens_a_screen_goes_through_the_guard() -> None:
    """A double tap on "Finish and show the winner" once landed its second tap on the winner screen's "New
    game" (CI, stop 35): every button that opens a screen calls `app.open_screen`, which passes the guard."""
    findings = [f for path in screen_modules() for f in unguarded_openers(path)]
    assert not findings, findings


def test_an_unguarded_opener_is_found() -> None:
    source = 'ft.TextButton("Home", on_click=lambda e: app.go("home"))\n' \
             'ft.TextButton("New", on_click=lambda e: app.open_screen("setup"))\n'
    assert unguarded_openers(Path("screen.py"), source) == ["screen.py:1 app.go"]
