"""The board profiles a table edited and keeps, for the games whose box data is an editable profile (the
Monopoly games): saved as `DATA/profiles/FILE`, read back for every new game, the box defaults otherwise.
The game's own profile module validates, loads and saves; this module only knows where the file is and
says what went wrong in one sentence, and holds what every profile editor does with the table's file
(`TableProfileActions`: which profile is edited, save it, back to the box defaults)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from companion.rules.errors import RulesDataError
from companion.ui.hub import HUB
from companion.ui.models import AppState

P = TypeVar("P")


def saved_profile_file(file_name: str) -> Path | None:
    """Where the table keeps its edited profile; None when the app runs without a data folder."""
    return Path(HUB.store.data_dir) / "profiles" / file_name if HUB.store.data_dir else None


def table_profile(app: AppState, file_name: str, load_profile: Callable[..., P]) -> P:
    """The table's saved profile, else the box defaults (a saved file that cannot be played is said)."""
    saved = saved_profile_file(file_name)
    if saved is not None and saved.exists():
        try:
            return load_profile(saved)
        except RulesDataError as exc:
            app.fail(f"The saved board profile cannot be used ({exc}); the box defaults are used.")
    return load_profile()


def save_table_profile(app: AppState, profile: Any, file_name: str,
                       save_profile: Callable[[Any, Path], Path]) -> Path | None:
    """Save the edited profile for the table's next games; the path, or None after saying why not."""
    path = saved_profile_file(file_name)
    if path is None:
        app.fail("The app was started without a data folder: the profile is used for this session only.")
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_profile(profile, path)
    except (OSError, ValueError) as exc:
        app.fail(f"The profile could not be saved ({exc}).")
        return None
    return path


class TableProfileActions(ABC):
    """A profile editor's taps for one tab, the part every game's editor shares: the game's editor
    subclasses it with its `variant`, its `profile_file` and its profile module's `load`/`save` (imported
    when first used), and adds its own editing taps."""

    variant: str
    profile_file: str

    def __init__(self, app: AppState) -> None:
        self.app = app
        self.tab: Any = app.local(self.variant)

    @abstractmethod
    def load(self, path: Path | None = None) -> Any:
        """The game's profile from `path` (None: the box defaults)."""

    @abstractmethod
    def store(self, profile: Any, path: Path) -> Path:
        """Save `profile` at `path`; the path written."""

    def table_profile(self) -> Any:
        """The profile being edited, else the table's saved one, else the box defaults."""
        if self.tab.profile is not None:
            return self.tab.profile
        return table_profile(self.app, self.profile_file, self.load)

    def save(self) -> None:
        path = save_table_profile(self.app, self.tab.profile, self.profile_file, self.store)
        if path is None:
            return
        self.app.say(f"Board profile saved ({path}). New games use it.")

    def reset(self) -> None:
        self.tab.profile = self.load()
        self.after_reset()
        self.app.say("Back to the box defaults (not saved yet).")
        self.app.touch()

    def after_reset(self) -> None:
        """What the game's editor shows again after the box defaults came back (nothing by default)."""
