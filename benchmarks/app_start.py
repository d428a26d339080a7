"""How long the app takes from its process starting to its port answering: what `tests/browser/harness.py`
waits for (`START_SECONDS`) before a browser test can open a tab.

    PYTHONPATH=. .venv/bin/python benchmarks/app_start.py [--runs 5]

Each run starts `python -m companion app` on a fresh data folder through the harness's `app_server` (the
same command, environment and readiness check the browser tests use), times it until the port answers,
and stops it. Prints each start, the median and the maximum, and the load average beside each (the machine
is shared: the figures move with it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.harness import app_server  # (the tests' folder is on the path: just above)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    seconds = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="app-start-") as data:
            started = time.monotonic()
            with app_server(Path(data)):
                seconds.append(time.monotonic() - started)
        load = Path("/proc/loadavg").read_text().split()[0]
        print(f"start {run + 1}: {seconds[-1]:.1f} s (load average {load})", flush=True)
    print(f"app start to its port answering, {args.runs} starts: median {statistics.median(seconds):.1f} s, "
          f"max {max(seconds):.1f} s")


if __name__ == "__main__":
    main()
