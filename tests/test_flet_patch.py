"""The app's patch of Flet's internals (`companion/ui/flet_patch.py`) fails here, by name, when a Flet
upgrade changes what it relies on: the installed version against the one it was written for, and every
attribute and signature it touches. Also that the app installs it, and that `install` refuses a Flet
that lacks those internals instead of patching blindly."""

from __future__ import annotations

import flet
import pytest
from flet.components.component import Component

import companion.ui.main  # noqa: F401  (importing the app installs the patch)
from companion.ui import flet_patch


def test_flet_is_the_version_the_patch_was_written_for() -> None:
    assert flet.__version__ == flet_patch.WRITTEN_FOR, (
        f"Flet is now {flet.__version__}; companion/ui/flet_patch.py (Component.update and "
        f"Component._schedule_update wrapped) was written for {flet_patch.WRITTEN_FOR}: check its INTERNALS "
        "against the new Flet, whether Flet now offers a supported way (an update error hook, de-duplicated "
        "updates), run the browser tests, then update WRITTEN_FOR")


def test_the_flet_internals_the_patch_relies_on_are_there() -> None:
    problems = flet_patch.missing_internals()
    assert not problems, "companion/ui/flet_patch.py relies on Flet internals that changed: " + "; ".join(problems)


def test_the_app_runs_with_the_patch_installed() -> None:
    assert flet_patch.installed()
    assert Component.update.__module__ == "companion.ui.flet_patch"


def test_install_refuses_a_flet_without_the_internals(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Flet whose Component lost an attribute the patch walks (what an upgrade could do).
    monkeypatch.setattr(flet_patch, "INTERNALS", (*flet_patch.INTERNALS, (Component, "_gone", "a test's")))
    monkeypatch.setattr(Component.update, "_companion_hardened", False)
    with pytest.raises(RuntimeError, match=r"flet_patch \(written for Flet 1.0.5\) cannot patch Flet .*"
                                           r"Component._gone is gone"):
        flet_patch.install(hold=lambda key, later: False, drawn=lambda key: None)
