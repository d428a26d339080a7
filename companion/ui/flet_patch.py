"""The app's one patch of Flet's internals: how a component's scheduled update runs (`install`).

Flet 1.0.5 offers no supported way to do what the app needs here (checked: `page.on_error` reports the
client's errors, not a failing re-render; `ft.memo` skips a component whose props did not change, but
not one scheduled by an observable it was given; the session's update scheduler,
`Session.__updates_scheduler`, has no hook before or after an update and no error handler). So the
patch wraps two methods of `flet.components.component.Component`:

- A failing re-render must not stop the tab: Flet's update scheduler dies on the first exception,
  after which the tab silently stops changing. The failure is logged, the tab goes on.
- Each component is drawn once per change: a change to a tab's `AppState` (an observable) schedules
  every component that was given it (the root `App`, the navigation, the screen, the players...), and
  Flet updates each of them, in no set order, although the root's update already draws them all again
  (a component given the observable is redrawn, not memo-skipped). A scheduled component whose
  ancestor is scheduled too leaves its drawing to that ancestor. On a referee's tap this halved the
  components drawn (measured with benchmarks/load.py).
- No tab draws a change before it is saved: `hold(session_id, draw_later)` (the app passes `Hub.hold`)
  says the game the tab watches has a save on its way to disk; the redraw then waits until
  `draw_later` is called.

It relies on the Flet internals listed in `INTERNALS`, written for `WRITTEN_FOR`;
`tests/test_flet_patch.py` fails, naming this patch, when an upgrade changes them, and `install` refuses
to patch a Flet that lacks them (a clear error at start-up instead of a tab that silently stops).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable

import flet
from flet.components.component import Component, _ComponentState
from flet.controls.context import context
from flet.messaging.session import Session

LOG = logging.getLogger("companion.ui")

WRITTEN_FOR = "1.0.5"  # the Flet version whose internals this patch was written against and tested with

# What the patch touches: (owner, attribute, how it is used). Checked by `missing_internals`.
INTERNALS: tuple[tuple[type, str, str], ...] = (
    (Component, "update", "method (self) -> None: wrapped; draws the component and patches the session"),
    (Component, "_schedule_update", "method (self) -> None: wrapped; marks the state dirty and queues it"),
    (Component, "_parent_component", "weakref to the parent component or None: walked to find ancestors"),
    (Component, "_stale", "bool: a component whose state moved to a newer instance"),
    (Component, "_state", "_ComponentState: kept across a component's instances"),
    (Component, "memoized", "bool: the component is wrapped in ft.memo"),
    (_ComponentState, "is_dirty", "bool: the component waits for an update"),
    (_ComponentState, "mounted", "bool: the component is on the page"),
    (Session, "schedule_update", "method (self, control) -> None: queues an update (dropped when disconnected)"),
    (Session, "connection", "property: None once the tab's connection dropped"),
    (Session, "expires_at", "property: set while a disconnected session may still come back"),
    (Session, "id", "property: the session's id, the key of `hold` and `drawn`"),
)

# Flet's own methods, as this module found them (before `install` replaced them): checked and wrapped.
_FLET_METHODS: dict[str, object] = {name: getattr(Component, name, None) for name in ("update", "_schedule_update")}

_WAITING = "_companion_waiting"  # set on a component's state (kept across its instances) while it waits
_HARDENED = "_companion_hardened"  # set on the installed `update`, so installing twice patches once


def _attribute_exists(owner: type, name: str) -> bool:
    if hasattr(owner, name):
        return True
    fields = getattr(owner, "__dataclass_fields__", {})  # dataclass fields with a default factory
    return name in fields


def missing_internals() -> list[str]:
    """What this Flet lacks of what the patch relies on: one sentence each (empty when all is there)."""
    problems = []
    for owner, name, use in INTERNALS:
        if not _attribute_exists(owner, name):
            problems.append(f"{owner.__module__}.{owner.__qualname__}.{name} is gone ({use})")
    for name, method in _FLET_METHODS.items():
        if callable(method) and list(inspect.signature(method).parameters) != ["self"]:
            problems.append(f"Component.{name} now takes {inspect.signature(method)}, the patch calls it as (self)")
    method = getattr(Session, "schedule_update", None)
    if callable(method) and list(inspect.signature(method).parameters) != ["self", "control"]:
        problems.append(f"Session.schedule_update now takes {inspect.signature(method)}, the patch calls it "
                        "as (self, control)")
    return problems


def _connected(session: Session) -> bool:
    # Flet drops the update of a disconnected session (`Session.schedule_update`).
    return not (session.connection is None and session.expires_at is not None)


def _ancestor_pending(component: Component) -> bool:
    """Whether an ancestor waits for its update, and that update will draw `component` again: no memoized
    component in between that may be skipped (unchanged and not waiting itself)."""
    ref = component._parent_component
    while ref is not None:
        parent = ref()
        if parent is None or parent._stale or not parent._state.mounted:
            return False
        if getattr(parent._state, _WAITING, False):
            return True
        if parent.memoized and not parent._state.is_dirty:
            return False
        ref = parent._parent_component
    return False


def install(hold: Callable[[str, Callable[[], None]], bool], drawn: Callable[[str], None]) -> None:
    """Patch Flet's `Component` (once per process).

    `hold(session_id, draw_later)`: True when the tab's redraw must wait (its game's save is on its way);
    it then calls `draw_later()` once the wait is over. `drawn(session_id)`: called after each update a
    tab drew (the double-tap guard's "new screen drawn")."""
    if getattr(Component.update, _HARDENED, False):
        return
    problems = missing_internals()
    if problems:
        raise RuntimeError(f"companion.ui.flet_patch (written for Flet {WRITTEN_FOR}) cannot patch Flet "
                           f"{flet.__version__}: " + "; ".join(problems))
    # Flet's own methods are unannotated: typed here as the patch calls them.
    original_update: Callable[[Component], None] = Component.update
    original_schedule: Callable[[Component], None] = Component._schedule_update

    def schedule(self: Component) -> None:
        original_schedule(self)
        session = context.page.session
        if self._state.is_dirty and _connected(session):
            setattr(self._state, _WAITING, True)

    def draw_later(component: Component, session: Session) -> None:
        """Schedule `component` again (its tab's game is saved now): on the event loop, any context."""
        if component._stale or not component._state.mounted:
            return
        component._state.is_dirty = True
        if _connected(session):
            setattr(component._state, _WAITING, True)
        session.schedule_update(component)

    def update(self: Component) -> None:
        setattr(self._state, _WAITING, False)
        if self._state.is_dirty and _ancestor_pending(self):
            return  # the ancestor's update draws this one (still dirty: it is not memo-skipped)
        session = context.page.session
        if hold(session.id, lambda: draw_later(self, session)):
            # The game this tab shows has a change on its way to disk: drawn once saved, so no tab shows
            # a change a crash could still lose. Still dirty, and waiting: a descendant scheduled
            # meanwhile leaves its drawing to it.
            setattr(self._state, _WAITING, _connected(session))
            return
        try:
            original_update(self)
        except Exception:
            LOG.exception("re-render of %s failed", self)
        drawn(session.id)

    setattr(update, _HARDENED, True)
    # The patch itself: Flet's methods replaced by the wrappers above (mypy rightly objects to assigning
    # to a method; that is what this module is for).
    Component.update = update  # type: ignore[method-assign]
    Component._schedule_update = schedule  # type: ignore[method-assign]


def installed() -> bool:
    return bool(getattr(Component.update, _HARDENED, False))

