"""`companion app` refuses bad options with one sentence and exit 2, before starting anything."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def app(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "app", *args], cwd=REPO, capture_output=True, check=False,
                          text=True, timeout=timeout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_port_in_use(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = app("--port", str(port), "--data", str(tmp_path))
    assert r.returncode == 2
    assert "port may be in use; choose another with --port" in r.stderr and "Traceback" not in r.stderr


def test_certificate_without_key_and_missing_files(tmp_path):
    r = app("--cert", str(tmp_path / "c.pem"), "--data", str(tmp_path))
    assert r.returncode == 2 and "--cert and --key go together" in r.stderr
    r = app("--cert", str(tmp_path / "c.pem"), "--key", str(tmp_path / "k.pem"), "--data", str(tmp_path))
    assert r.returncode == 2 and "is not a file" in r.stderr


def test_data_file_that_is_not_a_game_file(tmp_path):
    (tmp_path / "games.sqlite").write_text("my shopping list\n")
    # A free port: only the store's check can stop the app (without it the app serves, and the run times out).
    r = app("--data", str(tmp_path), "--port", str(free_port()), timeout=30)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (f"companion app: '{tmp_path / 'games.sqlite'}' is not a game file (it is not an "
                                "SQLite database): choose another file, it was left as it is")
    assert (tmp_path / "games.sqlite").read_text() == "my shopping list\n"  # untouched
