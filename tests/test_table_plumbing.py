"""The plumbing every game's table shares (`companion/ui/table.py`, `companion/ui/word_table.py`): a game
comes back from the store through the same constructors a new game goes through, so a field added to a
table's or an engine's `__init__` is never skipped by a rebuilt game; what the store gives back is
the game that was saved (id, seats, colours, settings, events); and the end charts, folded again by the
shared `replay_snapshots`, are the ones the per-table code drew."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.events import load_events
from companion.games import GAMES
from companion.games.classic.table import new_classic
from companion.games.monopoly_builder.table import BuilderTable, new_builder
from companion.games.monopoly_deal.table import new_deal
from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
from companion.ui.persist import rebuild
from companion.ui.table import PlayerInfo, StaleView, TableBase
from companion.ui.word_table import WordEngine, WordTable
from tests.conftest import REPO

SEATS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "green")]

NEW_GAMES: dict[str, Callable[[], TableBase]] = {
    "classic": lambda: new_classic(list(SEATS)),
    "monopoly_scrabble": lambda: new_monopoly_scrabble(list(SEATS), banker="Ann"),
    "monopoly_deal": lambda: new_deal(list(SEATS)),
    "monopoly_builder": lambda: new_builder(list(SEATS)),
}


def _stored(game: TableBase) -> tuple[dict[str, Any], list[Any]]:
    """What the store keeps of a game: its table settings as JSON gives them back, and its events."""
    return json.loads(json.dumps(game.table_settings(), sort_keys=True)), list(game.log.events)


def _rebuilt(game: TableBase) -> TableBase:
    table, events = _stored(game)
    return rebuild(game.id, game.kind, table, events)


@pytest.mark.parametrize("name", sorted(NEW_GAMES))
def test_a_rebuilt_game_is_the_saved_game(name: str) -> None:
    game = NEW_GAMES[name]()
    again = _rebuilt(game)
    assert type(again) is type(game)
    assert (again.id, again.kind, again.players) == (game.id, game.kind, game.players)
    assert [p.colour for p in again.player_info] == [p.colour for p in game.player_info]
    assert again.table_settings() == game.table_settings()
    assert again.events_json() == game.events_json()
    # every field the constructor makes, on the table and on a word game's engine
    assert sorted(vars(again)) == sorted(vars(game))
    engine = getattr(game, "engine", None)
    if engine is not None:
        assert sorted(vars(again.engine)) == sorted(vars(engine))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(NEW_GAMES))
def test_a_field_added_to_a_constructor_reaches_a_rebuilt_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table or engine made without its `__init__` (as `Engine.__new__` did) lacks any field added there
    later, and fails only when that field is first read: here every class the rebuilt game is made of
    gains a field in `__init__`, and the rebuilt game must have it."""
    game = NEW_GAMES[name]()
    classes = [type(game)] + ([type(game.engine)] if hasattr(game, "engine") else [])  # type: ignore[attr-defined]
    for cls in classes:
        original = cls.__init__

        def with_new_field(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> None:
            __original(self, *args, **kwargs)
            self.field_added_later = "set in __init__"

        monkeypatch.setattr(cls, "__init__", with_new_field)
    again = _rebuilt(game)
    assert getattr(again, "field_added_later", None) == "set in __init__"
    if hasattr(again, "engine"):
        assert getattr(again.engine, "field_added_later", None) == "set in __init__"


# The end charts of the shipped example games (whole, half, first seven events), as the per-table code
# drew them before the shared `replay_snapshots` (commit b7ad8f1): the shared helper must draw the same.
END_CHARTS = REPO / "tests" / "data" / "end_charts.json"
EXAMPLES = {"monopoly": "monopoly_full_game", "monopoly_builder": "monopoly_builder_game",
            "monopoly_deal": "monopoly_deal_game"}


@pytest.mark.parametrize("variant", sorted(EXAMPLES))
def test_the_end_charts_of_the_shipped_games_are_unchanged(variant: str) -> None:
    expected = json.loads(END_CHARTS.read_text(encoding="utf-8"))
    text = (REPO / "assets" / "examples" / f"{EXAMPLES[variant]}.json").read_text(encoding="utf-8")
    _, events = load_events(text, GAMES.get(variant).rules.EVENT_ADAPTER, None)
    for cut in (len(events), len(events) // 2, 7):
        table = rebuild("chart", variant, {}, events[:cut])
        assert table.history() == expected[f"{variant}:{cut}"], f"{variant}, first {cut} events"
        assert table.history() is table.history()  # kept until the log changes


def test_a_tab_acts_through_the_tables_method_itself() -> None:
    """`TableBase.act` takes the table's method (what the screens pass, so "find usages" and a type
    checker see every caller); a stale tab is refused before the method runs."""
    game = new_builder(list(SEATS))
    mover = game.mover
    seen = (game.id, game.moves)
    game.act(seen, BuilderTable.roll, 3, 4)
    assert game.bstate.last_roll == (3, 4) and game.moves == 1
    with pytest.raises(StaleView):
        game.act(seen, BuilderTable.end_turn)  # another device changed the game since `seen`
    assert game.moves == 1 and game.mover == mover
    other = new_builder(list(SEATS), settings={"dice": "rolled"})  # the app's dice: one method for any roll
    said = other.act((other.id, other.moves), BuilderTable.rolled_by_app, BuilderTable.roll)
    assert other.bstate.last_roll is not None and other.moves == 1
    a, b = other.bstate.last_roll
    assert said.startswith(f"The app rolled {a} + {b} = {a + b}")


def test_a_base_method_the_table_overrides_is_refused() -> None:
    """An unbound method skips overriding: `WordTable.challenge` on a Monopoly Scrabble table would run the
    shared challenge, not the game's own. `act` refuses it (TypeError, nothing recorded); the game's own
    method, or `type(game).challenge` from shared code, runs."""
    game = new_monopoly_scrabble(list(SEATS), banker="Ann")
    seen = (game.id, game.moves)
    with pytest.raises(TypeError, match="overridden by MonopolyScrabbleTable"):
        game.act(seen, WordTable.end_game, {"Ann": "", "Bob": ""}, True)
    assert game.moves == 0 and not game.finished
    game.act(seen, type(game).end_game, {"Ann": "", "Bob": ""}, True)
    assert game.finished


def test_the_builder_turn_screen_names_no_action_by_string() -> None:
    """Every `app.do(...)` of Builder's turn screen passes a method, not its name (nor a name built by
    adding "_app"), so renaming a table method breaks the type check, not a tap at the table."""
    tree = ast.parse((REPO / "companion" / "games" / "monopoly_builder" / "turn.py").read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "do"]
    assert len(calls) >= 18
    named = [ast.unparse(c) for c in calls if c.args and not isinstance(c.args[0], (ast.Attribute, ast.Name))]
    assert named == []
    for call in calls:
        first = call.args[0]
        if isinstance(first, ast.Attribute):
            assert hasattr(BuilderTable, first.attr), ast.unparse(call)


def test_a_word_game_that_leaves_out_a_hook_cannot_be_made() -> None:
    """The hooks the shared word table calls are abstract: a game that forgets one fails when its engine or
    table is made (and under mypy), not when the missing call is first reached at the table."""
    classic = new_classic(list(SEATS))

    class EngineWithoutCheck(WordEngine):  # no check, play, scores, last_play_words, end_reason
        pass

    with pytest.raises(TypeError, match="abstract"):
        EngineWithoutCheck(classic.log)  # type: ignore[abstract]

    class TableWithoutEnd(WordTable):  # no end_game
        pass

    with pytest.raises(TypeError, match="end_game"):
        TableWithoutEnd("classic", list(SEATS), classic.engine)  # type: ignore[abstract]
