"""Crash safety, for real: a separate process appends turns to a real game file and is killed with SIGKILL.

After each kill the file is reopened and must hold every turn the process reported as confirmed,
each turn whole (all its events or none), every game must fold through the classic rules, and a new
process must carry on appending. The turns are legal games made by play (`tests/games/classic_play.py`:
the move generator and the shipped word list, folded through the rules), cut into turns of 1 to 4 events. Each kill comes a random number of confirmed turns (1-40) plus a random
0-4 ms after the driver started appending (the driver sends SIGKILL to itself then, from a timer thread,
while its main thread appends).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion.events import GameLog
from companion.games.classic.rules import new_state
from companion.store import Store
from tests.conftest import REPO
from tests.games.classic_play import self_play

KILLS = 15


def _script(rng: random.Random, unique: int = 8, copies: int = 8) -> dict[str, Any]:
    logs = []
    for seed in rng.sample(range(1000), unique):
        events = self_play(seed)
        logs.append([e.model_dump(mode="json", exclude_none=True) for e in events])
    games = []
    for copy in range(copies):
        for i, dumped in enumerate(logs):
            turns, k = [], 0
            while k < len(dumped):
                n = rng.randint(1, 4)
                turns.append(dumped[k:k + n])
                k += n
            games.append({"id": f"g{copy:02d}-{i}", "variant": "classic", "settings": dumped[0]["settings"],
                          "turns": turns})
    return {"games": games}


class Driver:
    """The driver process, its stdout read line by line on a thread."""

    def __init__(self, db: Path, script: Path, kill: tuple[int, float] | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        then = [str(kill[0]), f"{kill[1]:.3f}"] if kill else []
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.store_driver", str(db), str(script), *then],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        self.lines: list[str] = []
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())
            if line.startswith("READY"):
                self.ready.set()
        self.ready.set()

    def finish(self) -> list[str]:
        self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        return self.lines


def _check(db: Path, script: dict[str, Any], confirmed: dict[str, int], fold: set[str]) -> int:
    """Everything confirmed is stored, every stored turn is whole and scripted; returns turns stored."""
    total = 0
    with Store(db) as store:
        stored = {g.id: g.last_seq for g in store.games()}
        for game_id, seq in confirmed.items():
            assert stored.get(game_id, 0) >= seq, f"confirmed turn lost: {game_id} seq {seq}"
        for game in script["games"]:
            if game["id"] not in stored:
                continue
            turns = store.turns(game["id"])
            expected = game["turns"][:len(turns)]
            assert [len(t) for t in turns] == [len(t) for t in expected], f"half-applied turn in {game['id']}"
            events = [e.model_dump(mode="json", exclude_none=True) for e in store.events(game["id"])]
            assert events == [e for turn in expected for e in turn]
            if game["id"] in fold and events:
                GameLog(new_state, store.events(game["id"]))  # raises if the rules refuse any event
            total += len(turns)
    return total


def test_sigkill_at_random_points_loses_no_confirmed_turn_and_half_applies_none(tmp_path: Path) -> None:
    rng = random.Random(2024)
    script = _script(rng)
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script), encoding="utf-8")
    db = tmp_path / "games.db"
    confirmed: dict[str, int] = {}
    kill_points: list[int] = []
    reported = 0  # turns the driver processes reported as confirmed, over all runs
    unreported = 0  # kills after a commit and before its report: stored, never confirmed, still whole
    started, cpu = time.monotonic(), time.process_time()
    for _ in range(KILLS):
        # SIGKILL a random number of confirmed turns plus a random few milliseconds after the driver started
        # appending, so the kill lands at a different point each time (often inside a transaction) whatever
        # the machine's speed: the driver kills itself then (`store_driver`), as this process, watching its
        # output, lagged by hundreds of turns on a loaded machine.
        driver = Driver(db, script_path, kill=(rng.randint(1, 40), rng.uniform(0.0, 4.0)))
        assert driver.ready.wait(timeout=30), "the driver did not start"
        lines = driver.finish()
        assert driver.proc.returncode == -signal.SIGKILL, (driver.proc.returncode, lines[-3:], kill_points)
        assert "DONE" not in lines, "the driver finished before the kill: give it a longer script"
        latest = None
        for line in lines:
            if line.startswith("CONFIRMED"):
                _, game_id, seq = line.split()
                confirmed[game_id] = int(seq)
                latest = game_id
                reported += 1
        fold = {latest} if latest else set()
        kill_points.append(_check(db, script, confirmed, fold))
        assert kill_points[-1] - reported in (0, 1)  # at most the turn being reported when killed
        unreported += kill_points[-1] - reported
        reported = kill_points[-1]
    # the kills landed at many different points of the script
    assert len(set(kill_points)) >= KILLS - 2, kill_points
    assert kill_points == sorted(kill_points)
    # and a new process carries on to the end
    driver = Driver(db, script_path)
    lines = driver.finish()
    assert driver.proc.returncode == 0 and lines[-1] == "DONE", (lines[-3:], driver.proc.stderr)
    all_games = {g["id"] for g in script["games"]}
    assert _check(db, script, confirmed, set(rng.sample(sorted(all_games), 10))) == sum(
        len(g["turns"]) for g in script["games"])
    print(f"\n{KILLS} kills, turns stored at each kill: {kill_points}; "
          f"{unreported} kills between a commit and its report; {time.monotonic() - started:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s CPU in the test process")
