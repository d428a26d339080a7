"""Installing for players: the built wheel, in a fresh virtual environment with the runtime dependencies
only (no dev extras), gives a `companion app` that starts and serves the app, from a folder that is not
this checkout (so nothing is imported from here).

Slow (it builds the wheel and installs flet, OpenCV, numpy... from the package index this machine
reaches: about a minute or two with pip's cache warm). Skipped, with the reason printed, when the index
cannot be reached.
"""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OFFLINE_SIGNS = ("Could not find a version", "No matching distribution", "NewConnectionError", "ConnectionError",
                 "Temporary failure in name resolution", "Network is unreachable", "Max retries exceeded")
DEV_ONLY = ("pytest", "playwright", "mypy", "ruff", "hypothesis")

pytestmark = pytest.mark.slow


def _pip(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([str(python), "-m", "pip", *args, "--disable-pip-version-check", "--retries", "2",
                          "--timeout", "60"], check=False, cwd=cwd, capture_output=True, text=True,
                         timeout=900)
    if run.returncode != 0:
        out = run.stdout + run.stderr
        if any(sign in out for sign in OFFLINE_SIGNS):
            pytest.skip("the package index cannot be reached from here: " + out.strip().splitlines()[-1][:200])
        raise AssertionError(f"pip {' '.join(args[:2])} failed:\n{out[-3000:]}")
    return run


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, gzip_ok: bool = False) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_the_wheel_installs_in_a_fresh_venv_and_the_app_starts(tmp_path):
    # The wheel, built from a copy of the sources (the build leaves nothing in the checkout).
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.so", "build", "*.egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache",
        ".hypothesis", "docs", "tests", "benchmarks"))
    wheels = tmp_path / "wheels"
    _pip(Path(sys.executable), "wheel", "--no-deps", "-w", str(wheels), str(src), cwd=tmp_path)
    wheel = next(wheels.glob("table_referee-*.whl"))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _pip(python, "install", str(wheel), cwd=tmp_path)
    installed = _pip(python, "list", "--format=freeze", cwd=tmp_path).stdout.lower()
    assert "flet-web==1.0.5" in installed and "opencv-python-headless" in installed
    assert not [name for name in DEV_ONLY if f"\n{name}==" in "\n" + installed], installed

    # The app, run from an empty folder: what it imports and reads comes from the venv.
    here = tmp_path / "elsewhere"
    here.mkdir()
    script = "import companion, lexicon.store as s; print(companion.__file__); print((s.ASSETS / 'enable.txt').is_file())"
    where = subprocess.run([str(python), "-c", script], check=False, cwd=here, capture_output=True, text=True,
                           timeout=120)
    assert str(venv) in where.stdout and where.stdout.split()[-1] == "True", where.stdout + where.stderr
    companion = venv / ("Scripts/companion.exe" if os.name == "nt" else "bin/companion")
    port = _free_port()
    log = open(tmp_path / "app.log", "w")  # noqa: SIM115 - closed below
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"COMPANION_CACHE_DIR": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1"}
    app = subprocess.Popen([str(companion), "app", "--port", str(port), "--data", str(tmp_path / "data")],
                           cwd=here, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180  # the first start prepares the compressed client
        while True:
            assert app.poll() is None, "the app exited:\n" + (tmp_path / "app.log").read_text()[-3000:]
            try:
                status, headers, page = _get(url + "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the app did not answer within 180 s"
                time.sleep(1)
        assert status == 200 and b"<title>Table referee</title>" in page
        assert headers["cache-control"] == "no-cache"
        # The client it links is served compressed, for a year.
        base = page.split(b'flet.entrypointBaseUrl="', 1)[1].split(b'"', 1)[0].decode()
        status, headers, body = _get(url + base + "main.dart.wasm", gzip_ok=True)
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert "immutable" in headers["cache-control"]
        assert gzip.decompress(body)[:4] == b"\0asm"
        output = (tmp_path / "app.log").read_text()
        assert f"open {url} in a browser" in output
        has_tesseract = shutil.which("tesseract", path=env.get("PATH")) is not None
        assert ("Tesseract is not installed" in output) == (not has_tesseract), output
    finally:
        app.terminate()
        try:
            app.wait(timeout=20)
        except subprocess.TimeoutExpired:
            app.kill()
        log.close()
