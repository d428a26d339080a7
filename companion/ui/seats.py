"""The referee's seat outlives the referee tab's session: which tab keys have refereed which game, on disk.

A tab is its Flet session; the hub lets a tab change a game when its session id (its key) started the game
or gave the referee PIN (`Hub.authorise`). The browser keeps that id for the tab and presents it when it
connects again; Flet gives the tab back its session only if the session is still there. When it is not
(the tab was away longer than the server keeps a session, FLET_SESSION_TIMEOUT, an hour by default; the
server restarted; or the old connection was not seen closing yet, so Flet would not hand its session to a
new one) the tab gets a new session and, before this module, came back as a follower: the referee had to
find the PIN again, or, in a game without a PIN, tap "Referee this game" again.

Here each key that may referee a game is kept (its SHA-256: the key is a secret only that tab holds, and
the file should not hand it out) in `referee-seats.json` beside the games, so the new session of a tab
that presents a referee's old key gets the seat back (`Hub.reseat`). Nothing is weakened: the old key is
the very credential Flet would have resumed the session with, a follower's tab only ever presents its own
key, and keys are never shown or sent to another tab.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from pathlib import Path

LOG = logging.getLogger("companion.ui")
SEATS_FILE = "referee-seats.json"
# Keys kept per game (each reconnection after a lost session adds one): the newest are kept.
KEYS_PER_GAME = 32


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class RefereeSeats:
    """game id -> digests of the tab keys that may referee it; kept in `path` (None: in memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._seats: dict[str, list[str]] = {}
        if path is not None and path.is_file():
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                self._seats = {str(g): [str(d) for d in ds] for g, ds in raw.items() if isinstance(ds, list)}
            except (OSError, ValueError, AttributeError) as exc:
                # Unreadable: referees whose session was lost give the PIN again; nothing else is affected.
                LOG.warning("the referee seats file %s could not be read (%s): starting without it", path, exc)

    def remember(self, game_id: str, key: str) -> None:
        """The tab `key` may referee `game_id`, also after its session is gone."""
        if not key:
            return
        digest = _digest(key)
        with self._lock:
            kept = self._seats.setdefault(game_id, [])
            if digest in kept:
                return
            kept.append(digest)
            del kept[:-KEYS_PER_GAME]
            self._write()

    def games_of(self, key: str) -> list[str]:
        """The games the tab `key` was a referee of."""
        if not key:
            return []
        digest = _digest(key)
        with self._lock:
            return [game_id for game_id, kept in self._seats.items() if digest in kept]

    def _write(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self._seats), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            # The seat still holds while the session lives; only a later lost session would need the PIN.
            LOG.warning("the referee seats file %s could not be written (%s)", self.path, exc)
