"""A small driver that appends scripted turns to a real game file, for the crash test.

`python -m companion.store_driver DB SCRIPT.json [KILL_AFTER DELAY_MS]` opens (or creates) the store `DB` and appends the turns
of `SCRIPT.json` that are not stored yet, one transaction per turn, printing `CONFIRMED <game> <seq>` on
stdout after each commit (flushed, so a parent process knows exactly what was confirmed before it kills
this one). It prints `READY` once the store is open. Run it again after a crash and it carries on where
the file says it stopped; it refuses (exit 3) a log that does not end exactly at a turn boundary of the
script, which would mean a half-applied turn.

With KILL_AFTER and DELAY_MS it kills itself with SIGKILL DELAY_MS milliseconds after its KILL_AFTER-th
confirmed turn, while it goes on appending: the kill lands at a point of the append the test cannot choose
(often inside a transaction) however busy the machine is. A parent that watched the output and killed it
instead lagged on a loaded machine (CI, load average 20) by up to 600 turns, and the script ran out.

The script: `{"games": [{"id": ..., "variant": ..., "settings": {...}, "turns": [[event, ...], ...]}]}`
with events in the JSON form of `dump_events`.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from companion.store import Store, StoreError, variants


def _kill_self_in(delay_ms: float) -> None:
    timer = threading.Timer(delay_ms / 1000, lambda: os.kill(os.getpid(), signal.SIGKILL))
    timer.daemon = True
    timer.start()


def run(db: Path, script: dict[str, Any], kill_after: int | None = None, delay_ms: float = 0.0) -> int:
    known = variants()
    games = [(game, [[known[game["variant"]].adapter.validate_python(e) for e in turn] for turn in game["turns"]])
             for game in script["games"]]
    store = Store(db)
    print("READY", flush=True)  # from here on the process does nothing but append
    confirmed = 0
    for game, turns in games:
        if game["id"] not in {g.id for g in store.games()}:
            store.create_game(game["variant"], game.get("settings") or {}, game_id=game["id"])
        seq = store.last_seq(game["id"])
        done, stored = 0, 0
        while stored < seq:
            stored += len(turns[done])
            done += 1
        if stored != seq:
            print(f"HALF-APPLIED {game['id']} {seq}", flush=True)
            return 3
        for turn in turns[done:]:
            seq = store.append(game["id"], turn, seq, device="driver")
            print(f"CONFIRMED {game['id']} {seq}", flush=True)
            confirmed += 1
            if confirmed == kill_after:
                _kill_self_in(delay_ms)
    print("DONE", flush=True)
    store.close()
    return 0


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 4):
        sys.stderr.write("usage: python -m companion.store_driver DB SCRIPT.json [KILL_AFTER DELAY_MS]\n")
        return 2
    kill_after, delay_ms = (int(argv[2]), float(argv[3])) if len(argv) == 4 else (None, 0.0)
    try:
        return run(Path(argv[0]), json.loads(Path(argv[1]).read_text(encoding="utf-8")), kill_after, delay_ms)
    except StoreError as exc:
        sys.stderr.write(f"store_driver: {exc}\n")
        return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
