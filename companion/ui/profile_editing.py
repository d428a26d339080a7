"""What every board profile editor does with the profile it edits, written once for the Monopoly games.

A game's editor (`companion/games/<game>/profile_editor.py`) subclasses `ProfileEditorActions` with its
`variant`, the file its table keeps (`profile_file`) and its profile module's `PROFILE_IO`
(`companion.rules.profile_io.ProfileIO`): loading, saving and the edit API are then the shared ones, and
its taps change the tab's profile through one call, `edit` (any edit function) or `set_values` (values by
path). A refused change says the rules' sentence and changes nothing; an accepted one says so and
reminds the referee to save. Where the table's file lives and the box defaults are
`companion.ui.board_profiles`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from companion.rules.errors import RulesDataError
from companion.rules.profile_io import ProfileIO
from companion.ui.board_profiles import TableProfileActions
from companion.ui.models import AppState, plain

A = TypeVar("A", bound="ProfileEditorActions")


class ProfileEditorActions(TableProfileActions):
    """One tab's profile editor: the shared part of every game's editor taps."""

    profile_io: ClassVar[ProfileIO[Any]]
    editor_screen: ClassVar[str]  # the key of the game's editor screen


    @classmethod
    def of(cls, app: AppState) -> Self:
        """The tab's editor actions, one object per tab (so memoized rows and cells keep the same tap)."""
        tab = app.local(cls.variant)
        if not isinstance(tab.actions, cls) or tab.actions.app is not app:
            tab.actions = cls(app)
        actions: Self = tab.actions
        return actions

    def open(self) -> None:
        """Show the editor with the profile being edited, else the table's saved one, else the box's."""
        self.tab.profile = self.table_profile()
        self.on_open()
        self.app.go(self.editor_screen)

    def on_open(self) -> None:
        """What the game's editor picks before it is shown (nothing by default)."""

    def load(self, path: Path | None = None) -> Any:
        return self.profile_io.load(path)

    def store(self, profile: Any, path: Path) -> Path:
        return self.profile_io.save(profile, path)

    def edit(self, change: Callable[..., Any], *args: Any, said: str = "Changed.", **kwargs: Any) -> bool:
        """Apply `change(profile, *args, **kwargs)` to the tab's profile. Refused (`RulesDataError`, a
        model's `ValueError`): the sentence, and the profile stays as it was. True when it changed."""
        try:
            self.tab.profile = change(self.tab.profile, *args, **kwargs)
        except (RulesDataError, ValueError) as exc:
            self.app.fail(plain(exc) + " Nothing was changed.")
            return False
        self.app.say(said + " Save the profile to keep it for the next games.")
        self.app.touch()
        return True

    def set_values(self, changes: Mapping[str, object], said: str = "Changed.") -> bool:
        """Set values by path (`{"deeds.oriental_avenue.price": 60}`): all of them, or none."""
        return self.edit(self.profile_io.set_values, dict(changes), said=said)


__all__ = ["ProfileEditorActions"]
