"""Load: several games at once on one server, each with its referee and its followers (default 10 games
x 5 followers); how long until every follower shows each update of its own game.

    python benchmarks/load.py [--games 10] [--followers 5] [--rounds 10] [--spacing 0] [--nice 0]
                              [--followers-as browser|ws|mixed] [--referees-as browser|ws]
                              [--ws-processes 1] [--server-nice 0] [--profile FILE] [--out FILE]

The games (classic, two players, no PIN) are written to a fresh store with the app's own `GameStore`,
then `companion app --port <free> --data <tmp>` is started as a subprocess and resumes them all. For
each game a referee tab opens the game's address (`/table/<id>`) and takes it over ('Referee this
game'), and N follower pages open the same address, in headless Chromium (one browser, one context per
page, as separate phones are) and wait until they show "Watching (read-only)". Then, each round, every
referee taps once, one game after another as fast as the script can (the busiest case: all tables
change at once; `--spacing S` puts S seconds between the tables' taps instead, as at a real club where
turns end at different moments), alternating "Pass" and "Undo last action" (each changes whose turn it is and is saved
to the store; passes alone would end a game after six scoreless turns), and for each update the time
from that game's tap to each of its followers showing the new "<player> to play" is measured.

How it is timed without busy polling: each follower page carries a MutationObserver that stamps
`Date.now()` when the player it shows to play changes; the script waits on each page with a 100 ms
`wait_for_function` poll and reads the stamps afterwards, so the wait order does not bias the figure.
The browser and Python share the system clock. Each page also stamps the arrival of every websocket
message, so the wait splits into the server's part (tap -> the follower's browser has the update) and
the drawing of the page, which here runs for every page on this machine's shared cores (at a real
table each phone draws on its own).

Who follows (`--followers-as`). `browser` (the default): every follower is a Chromium page as above.
`ws`: every follower is a Python client of Flet's own websocket protocol (`benchmarks/flet_follower.py`:
it registers on `/table/<id>` as the Flet web client does, so the server makes it a session like any
tab's and the app subscribes it to the table, keeps the control tree from the patches the server sends,
and stamps `time.time()` when its "follow-status" line changes); it draws nothing, as a phone draws on
its own device, so the server's cores carry only the server and the 10 referee pages. The clients run
in `--ws-processes` processes (default 1) at this script's priority (nice 0). `mixed`: one Chromium
follower page per game and the rest Python clients, to show a real page's drawing is not hurt.

Who referees (`--referees-as`). `browser` (the default): each referee is a Chromium page, tapped through
Playwright; a referee page's redraw costs Chromium about 200 ms of CPU (175-256 ms measured; a follower
page's about 30 ms), so ten tables changing at once put about 2 s of drawing on the server's two cores
beside the server's own 0.15 s (at a club each phone draws on its own). `ws`: each referee is a Python client of the same protocol (`flet_follower.py`, a route
written `+/table/<id>`, in one process of its own): it opens the table as any tab, taps 'Referee this
game', and each round, once it shows the last update and the button, sends the click event a browser
sends for that button (the button found by its text in the patched control tree); the tap's time is
when its click was sent. Both modes check the same things (every follower shows exactly its table's
updates, in order). Checks that the Python followers are real followers,
printed with the figures: the home screen, as a fresh client reads it, lists each table as watched by
its referee and all its followers; every follower, browser or Python, shows exactly its table's updates
("<player> to play") in the same order; after the rounds each Python follower's patched screen shows
the same texts as a fresh client's whole screen.

Then the same measure at the hub level (no browser): the same games and subscribers on
`companion.ui.hub.Hub` with the real store; the time from `publish()` (which saves the turn first)
until each watching subscriber's callback ran.

Prints min / median / p90 / p99 / max and the share within 1 s, the app process's CPU time during the
rounds (from /proc: divided by the updates, the server's cost of one update of one table with its
watching tabs, the figure least disturbed by a busy machine), the bytes a follower's page receives
per update, the CPU the Chromium processes spent meanwhile (what the phones would spend, each on its
own; their idle cost, measured for 5 s before the rounds, set apart), and the load average before and after (the machine is shared, so wall times are noisy).

Measuring honestly on one machine: at a real table each phone draws on its own device, but here all
the pages (60 by default) draw on the same cores as the server. `--nice 19` sets every Chromium
process this script started (browser, GPU process, each page's renderer: found as its descendants in
/proc) to nice 19 once the pages are open, and again before each round (run as root, Chromium sets its
own processes' priorities, so a `nice` launcher alone left the GPU process at -8 and the renderers at
0 or 5), so the server is served first, as it would be with real phones;
what is measured is unchanged (the tap on the referee's page until the follower's page shows the new
"<player> to play"), and the drawing still happens on the same two cores, after the server. Report
both figures (`--nice 0`, the default, and `--nice 19`). `--server-nice N` (e.g. -5, as root) puts the
app ahead of the machine's other work (other sessions share this machine; a club's laptop serves only
the tables); what is measured is unchanged. The load average and the CPU pressure during the rounds are
printed with the figures. `--profile FILE` samples the server's Python
stacks during the rounds with py-spy (`pip install py-spy`; not a project dependency) in its raw
collapsed format.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from browser.harness import (
    BASE_ARGS,
    CHROMIUM,
    PHONE,
    Tab,
    app_server,
    block_outside,
    cpu_seconds,
    server_pid,
)

OBSERVER = """() => {
  window.__state = null; window.__since = 0; window.__history = [];
  const look = () => {
    const m = (document.body.textContent || "").match(/(Ann|Bob) to play/);
    const s = m ? m[1] : null;
    if (s !== null && s !== window.__state) {
      window.__state = s; window.__since = Date.now(); window.__history.push(m[0]);
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true,
                                                     attributes: true});
  look();
}"""


# Stamps the arrival of every websocket message (before Flutter draws it), so the wait splits into the
# server's part (tap -> the follower's browser has the update) and the page's drawing on this machine.
MESSAGES = """(() => {
  const Native = window.WebSocket; window.__messages = []; window.__sent = []; window.__bytes = 0;
  function Stamped(...args) {
    const socket = new Native(...args);
    socket.addEventListener("message", (e) => {
      window.__messages.push(Date.now());
      window.__bytes += e.data.byteLength ?? e.data.size ?? e.data.length ?? 0;
    });
    const send = socket.send.bind(socket);
    socket.send = (data) => { window.__sent.push(Date.now()); return send(data); };
    return socket;
  }
  Stamped.prototype = Native.prototype;
  Object.assign(Stamped, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Stamped;
})()"""


def make_games(data: Path, games: int) -> list[str]:
    """`games` classic games (Ann and Bob, no PIN) in a fresh store, as the app saves them."""
    from companion.games.classic.table import new_classic
    from companion.ui.persist import GameStore
    from companion.ui.table import PlayerInfo

    store = GameStore(data)
    ids = []
    for _ in range(games):
        game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
        store.save(game)
        ids.append(game.id)
    return ids


def distribution(values: list[float]) -> str:
    v = sorted(values)

    def pct(p: float) -> float:
        return v[min(len(v) - 1, round(p * (len(v) - 1)))]

    within = sum(1 for x in v if x <= 1.0) / len(v)
    return (f"n={len(v)} min {v[0]:.3f} s, median {statistics.median(v):.3f} s, p90 {pct(0.9):.3f} s, "
            f"p99 {pct(0.99):.3f} s, max {v[-1]:.3f} s; within 1 s: {within:.1%}")


def browser_pids() -> list[int]:
    """The Chromium processes this script started (its descendants)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue  # a process that ended meanwhile
    ours: set[int] = set()
    todo = [os.getpid()]
    while todo:
        pid = todo.pop()
        kids = [p for p, parent in parents.items() if parent == pid and p not in ours]
        ours.update(kids)
        todo += kids
    found = []
    for pid in ours:
        try:
            if b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def browser_cpu() -> float:
    """CPU seconds used so far by the Chromium processes this script started."""
    total = 0.0
    for pid in browser_pids():
        try:
            total += cpu_seconds(pid)
        except (OSError, ValueError, IndexError):
            continue
    return total


def renice_browsers(nice: int) -> list[int]:
    """Set every Chromium process of this script to `nice` (a launcher's `nice` is not enough: run as
    root, Chromium sets its own processes' priorities, the GPU process's to -8); their nice values after."""
    values = []
    for pid in browser_pids():
        try:
            os.setpriority(os.PRIO_PROCESS, pid, nice)
            values.append(os.getpriority(os.PRIO_PROCESS, pid))
        except OSError:
            continue  # ended meanwhile
    return values


class WsFollowers:
    """The Python followers (`benchmarks/flet_follower.py`) in `processes` separate processes at this
    script's own priority (nice 0 unless it was started otherwise), each process a share of the games."""

    def __init__(self, url: str, per_game: dict[str, int], processes: int, referees: bool = False) -> None:
        import subprocess

        # "+/table/<id>": a referee's client, which takes the table over (flet_follower.Swarm).
        routes = [f"{'+' if referees else ''}/table/{g}:{n}" for g, n in per_game.items() if n]
        shares = [routes[k::processes] for k in range(processes) if routes[k::processes]]
        script = str(REPO / "benchmarks" / "flet_follower.py")
        self.procs = [subprocess.Popen([sys.executable, script, url, *share], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True) for share in shares]
        self.started = [json.loads(p.stdout.readline() or "{}") for p in self.procs]  # type: ignore[union-attr]

    def ask(self, cmd: dict[str, Any]) -> list[dict[str, Any]]:
        """Send a command to every process, then read every answer (they work meanwhile)."""
        for p in self.procs:
            p.stdin.write(json.dumps(cmd) + "\n")  # type: ignore[union-attr]
            p.stdin.flush()  # type: ignore[union-attr]
        return [json.loads(p.stdout.readline()) for p in self.procs]  # type: ignore[union-attr]

    def merged(self, cmd: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for answer in self.ask(cmd):
            for key, value in answer.items():
                if isinstance(value, dict) and isinstance(out.get(key), dict):
                    out[key].update(value)
                else:
                    out[key] = value
        return out

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.procs if p.poll() is None)

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.stdin.write('{"cmd": "quit"}\n')  # type: ignore[union-attr]
                p.stdin.flush()  # type: ignore[union-attr]
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except Exception:  # noqa: BLE001 - one that does not quit is ended
                p.kill()


class MachineLoad:
    """The machine's load while the rounds run, sampled every second: the 1-minute load average and the
    share of time some process waited for a CPU (Linux's /proc/pressure/cpu, 10 s average). Other
    sessions share this machine, in other containers: their processes do not show in this one's
    process list, but they take the same two cores."""

    def __init__(self) -> None:
        import threading

        self.loads: list[float] = []
        self.pressures: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(1.0):
            self.loads.append(os.getloadavg()[0])
            try:
                some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
                self.pressures.append(float(some.split("avg10=")[1].split()[0]))
            except (OSError, IndexError, ValueError):
                pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        if not self.loads:
            return "not sampled"
        text = (f"load average (1 min) {min(self.loads):.1f}-{max(self.loads):.1f}, "
                f"mean {statistics.mean(self.loads):.1f}")
        if self.pressures:
            text += (f"; some process waiting for a CPU {statistics.mean(self.pressures):.0f}% of the time "
                     "(/proc/pressure/cpu)")
        return text


def renice_threads(pid: int, nice: int) -> list[int]:
    """Set every thread of the process `pid` to `nice` (Linux's priorities are per thread); their values after."""
    values = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.setpriority(os.PRIO_PROCESS, int(task.name), nice)
            values.append(os.getpriority(os.PRIO_PROCESS, int(task.name)))
        except OSError:
            continue  # ended meanwhile
    return values


def browser_load(games: int, followers: int, rounds: int, out: list[str], spacing: float = 0.0,
                 profile: Path | None = None, nice: int = 0, followers_as: str = "browser",
                 ws_processes: int = 1, server_nice: int = 0, referees_as: str = "browser") -> None:
    import subprocess

    from playwright.sync_api import sync_playwright

    browsers_per_game = {"browser": followers, "ws": 0, "mixed": min(1, followers)}[followers_as]
    ws_per_game = followers - browsers_per_game
    with tempfile.TemporaryDirectory() as tmp:
        ids = make_games(Path(tmp), games)
        with app_server(Path(tmp)) as url, sync_playwright() as p:
            pid = server_pid(url)
            if server_nice:
                values = renice_threads(pid, server_nice)
                out.append(f"the app's {len(values)} threads at nice {sorted(set(values))} (--server-nice)")
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BASE_ARGS)

            def tab(game_id: str) -> Tab:
                ctx = browser.new_context(viewport=PHONE)
                block_outside(ctx)
                ctx.add_init_script(MESSAGES)
                t = Tab(ctx.new_page(), f"{url}/table/{game_id}")
                t.open(timeout=180_000)
                return t

            t_open = time.perf_counter()
            refs: dict[str, Tab] = {}
            watchers: dict[str, list[Any]] = {}
            ws_refs = WsFollowers(url, dict.fromkeys(ids, 1), 1, referees=True) if referees_as == "ws" else None
            if ws_refs is not None:
                ready = sum(s.get("ready", 0) for s in ws_refs.started)
                errors = {k: v for s in ws_refs.started for k, v in s.get("errors", {}).items()}
                out.append(f"Python websocket referees: {ready} of {games} refereeing their table"
                           + (f"; errors: {errors}" if errors else ""))
            for game_id in ids:
                if ws_refs is None:
                    ref = tab(game_id)
                    ref.click("Referee this game", timeout=180_000)
                    ref.button("Pass").first.wait_for(timeout=180_000)
                    refs[game_id] = ref
                watchers[game_id] = [tab(game_id).page for _ in range(browsers_per_game)]
            for pages in watchers.values():
                for page in pages:
                    page.get_by_text("Watching (read-only)").first.wait_for(timeout=180_000)
                    page.evaluate(OBSERVER)
            ws = WsFollowers(url, {g: ws_per_game for g in ids}, ws_processes) if ws_per_game else None
            if ws is not None:
                ready = sum(s.get("ready", 0) for s in ws.started)
                errors = {k: v for s in ws.started for k, v in s.get("errors", {}).items()}
                out.append(f"Python websocket followers: {ready} of {games * ws_per_game} showing the table in "
                           f"{len(ws.procs)} process(es) at nice {os.getpriority(os.PRIO_PROCESS, 0)}"
                           + (f"; errors: {errors}" if errors else ""))
            kinds = f"{browsers_per_game} browser" + (f" + {ws_per_game} websocket" if ws_per_game else "")
            referees = "Python websocket referees" if ws_refs is not None else "referee pages"
            out.append(f"{games} games x {followers} followers ({kinds} per game), {games} {referees}, open and "
                       f"watching in {time.perf_counter() - t_open:.1f} s wall")
            if ws is not None:
                # The app counts every follower as a watcher: the home screen, as a fresh client sees it.
                home = " ".join(ws.merged({"cmd": "home"})["/"])
                counts = re.findall(r"to play \((\d+) watching\)", home)
                out.append(f"  the home screen lists the tables as watched by {sorted(set(counts))} tabs each "
                           f"(expected {followers + 1}: the referee and {followers} followers)")
            spy = None
            if profile is not None:  # sample the app's Python stacks during the rounds only (py-spy, if installed)
                spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid),
                                        "--format", "raw", "--rate", "200", "--nonblocking", "-o", str(profile)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            followers_pages = [page for pages in watchers.values() for page in pages]
            bytes0 = sum(float(page.evaluate("window.__bytes")) for page in followers_pages)
            if nice:
                values = renice_browsers(nice)
                out.append(f"browsers reniced: {len(values)} Chromium processes at nice {sorted(set(values))}")
            # What the pages cost with nothing happening (Flutter's idle frames, timers), to set apart
            # from what drawing the updates costs.
            idle0, idle_t0 = browser_cpu(), time.perf_counter()
            time.sleep(5)
            idle_rate = (browser_cpu() - idle0) / (time.perf_counter() - idle_t0)
            cpu0, drawing0, rounds_t0 = cpu_seconds(pid), browser_cpu(), time.perf_counter()
            machine = MachineLoad()
            ws_cpu0 = (ws.cpu() if ws is not None else 0.0) + (ws_refs.cpu() if ws_refs is not None else 0.0)
            latencies: dict[str, list[float]] = {"browser": [], "ws": []}
            arrivals: list[float] = []
            sends: list[float] = []
            server_part: list[float] = []  # the referee's browser sent the tap -> a follower has the update
            per_update: list[float] = []
            rounds_of: list[int] = []  # the round of each entry of per_update
            expected: list[str] = []
            missed = 0
            for k in range(rounds):
                name, expect = ("Pass", "Bob") if k % 2 == 0 else ("Undo last action", "Ann")
                before = expected[-1] if expected else "Ann to play"
                expected.append(f"{expect} to play")
                tapped: dict[str, float] = {}
                sent_at: dict[str, float] = {}
                if ws_refs is not None:
                    # The referees' clients tap (send the click a browser sends) once each shows the last
                    # update and the button; the tap's time is when its click was sent.
                    if nice:
                        renice_browsers(nice)
                    answer = ws_refs.merged({"cmd": "tap", "label": {f"/table/{g}": name for g in ids},
                                             "shows": {f"/table/{g}": before for g in ids}, "spacing": spacing})
                    for g in ids:
                        when = answer["sent"].get(f"/table/{g}")
                        if when is None:
                            raise RuntimeError(f"the referee of {g} found no {name!r} button")
                        tapped[g] = float(when) * 1000
                        sent_at[g] = float(when)
                else:
                    buttons = {g: refs[g].button(name).first for g in ids}
                    for btn in buttons.values():
                        btn.wait_for(timeout=60_000)
                    refs[ids[-1]].page.wait_for_timeout(300)  # let the referees' semantics trees settle
                    if nice:
                        renice_browsers(nice)  # Chromium may have changed a priority (or started a process)
                    for i, g in enumerate(ids):  # every table changes at (nearly) the same moment, or spaced
                        if spacing and i:
                            time.sleep(spacing)
                        tapped[g] = time.time() * 1000
                        Tab.tap(buttons[g])
                worst = dict.fromkeys(ids, 0.0)
                for g in ids:
                    ref = refs.get(g)
                    sent = ref.page.evaluate(f"window.__sent.find(t => t >= {tapped[g]}) ?? null") if ref else None
                    if sent is not None:
                        sends.append((float(sent) - tapped[g]) / 1000)
                        sent_at[g] = float(sent) / 1000
                    for page in watchers[g]:
                        try:
                            page.wait_for_function(f"window.__state === '{expect}'", polling=100, timeout=30_000)
                        except Exception:  # noqa: BLE001 - a follower that never showed it is counted, not fatal
                            missed += 1
                            continue
                        seen = (float(page.evaluate("window.__since")) - tapped[g]) / 1000
                        first = page.evaluate(f"window.__messages.find(t => t >= {tapped[g]}) ?? null")
                        if first is not None:
                            arrivals.append((float(first) - tapped[g]) / 1000)
                            if g in sent_at:
                                server_part.append(float(first) / 1000 - sent_at[g])
                        latencies["browser"].append(seen)
                        worst[g] = max(worst[g], seen)
                if ws is not None:
                    answer = ws.merged({"cmd": "wait", "expect": {f"/table/{g}": f"{expect} to play" for g in ids},
                                        "since": {f"/table/{g}": tapped[g] for g in ids}, "timeout": 30})
                    for who, when in answer["seen"].items():
                        g = who.split("#")[0].removeprefix("/table/")
                        if when is None:
                            missed += 1
                            continue
                        latencies["ws"].append(when - tapped[g] / 1000)
                        if g in sent_at:
                            server_part.append(when - sent_at[g])
                        worst[g] = max(worst[g], when - tapped[g] / 1000)
                per_update += worst.values()
                rounds_of += [k + 1] * len(worst)
                for ref in refs.values():
                    ref.text(f"{expect} to play", timeout=60_000)
            cpu, drawing = cpu_seconds(pid) - cpu0, browser_cpu() - drawing0
            machine.stop()
            ws_cpu = (ws.cpu() if ws is not None else 0.0) + (ws_refs.cpu() if ws_refs is not None else 0.0) - ws_cpu0
            idle = idle_rate * (time.perf_counter() - rounds_t0)
            received = sum(float(page.evaluate("window.__bytes")) for page in followers_pages) - bytes0
            if spy is not None:
                spy.send_signal(2)  # py-spy writes its file on SIGINT
                spy.wait(timeout=60)
            updates = rounds * games
            when = f"taps {spacing:g} s apart" if spacing else "all tables at once"
            if nice:
                when += f", browsers at nice {nice}"
            everyone = latencies["browser"] + latencies["ws"]
            out.append(f"{kinds} followers per game, {games} games, {rounds} rounds (every table changes "
                       f"each round, {when}: {updates} updates): tap -> follower shows it: "
                       + distribution(everyone))
            if latencies["browser"] and latencies["ws"]:
                out.append("  browser followers (drawing on this machine): " + distribution(latencies["browser"]))
                out.append("  websocket followers (drawing nothing): " + distribution(latencies["ws"]))
            slowest = sorted(range(len(per_update)), key=lambda n: -per_update[n])[:5]
            out.append("  slowest follower per update: " + distribution(per_update) + "; the 5 slowest in rounds "
                       + ", ".join(f"{rounds_of[n]} ({per_update[n]:.2f} s)" for n in slowest))
            if sends:
                out.append("  tap -> the referee's browser sends it (the tap through a loaded page): "
                           + distribution(sends))
            if server_part:
                out.append("  the server's part: the referee's browser sent the tap -> the follower has the update "
                           "(a browser follower's websocket message, a Python follower's status change): "
                           + distribution(server_part))
            if arrivals:
                out.append("  tap -> a browser follower receives the update (server + network, before "
                           "drawing): " + distribution(arrivals))
            out.append(f"  the machine during the rounds: {machine.summary()}")
            out.append(f"  follower updates never shown within 30 s: {missed}; app CPU during the rounds "
                       f"{cpu:.2f} s ({cpu / updates * 1000:.0f} ms per update)"
                       + (f"; a browser follower receives {received / (updates * browsers_per_game):.0f} "
                          "bytes per update" if followers_pages else ""))
            per_game = browsers_per_game + (1 if refs else 0)  # the pages an update of one table redraws
            if per_game:
                out.append(f"  the browsers' CPU during the rounds ({games * per_game} pages drawing, on "
                           f"the server's cores): {drawing:.2f} s, of which {idle:.2f} s idle ({idle_rate:.2f} CPU "
                           f"s/s measured for 5 s before the rounds); the rest, "
                           f"{(drawing - idle) / (updates * per_game) * 1000:.0f} ms per page update"
                           + (" (the referee's page included)" if refs else ""))
            # Every follower, browser or not, saw exactly the updates of its game, in order.
            histories: dict[str, list[str]] = {}
            for g, pages in watchers.items():
                for n, page in enumerate(pages):
                    histories[f"/table/{g}#browser{n}"] = list(page.evaluate("window.__history"))[-(rounds + 1):]
            if ws_refs is not None:
                ws_refs.close()
            if ws is not None:
                out.append(f"  websocket clients' CPU during the rounds: {ws_cpu:.2f} s "
                           f"({ws_cpu / (updates * ws_per_game) * 1000:.2f} ms per follower update"
                           + (", the referees' clients included)" if ws_refs is not None else ")"))
                report = ws.merged({"cmd": "report"})
                for who, seen in report.items():
                    histories[who] = [status for _, status in seen["history"]][-(rounds + 1):]
                errors = {who: seen["errors"] for who, seen in report.items() if seen["errors"]}
                if errors:
                    out.append(f"  websocket followers' errors: {errors}")
                verify = ws.merged({"cmd": "verify"})
                differ = [who for answers in verify.values() for who, same in answers.items() if same != "same"]
                out.append(f"  after the rounds, every websocket follower's patched screen shows the same texts as a "
                           f"fresh client's: {'yes' if not differ else 'NO: ' + ', '.join(differ)}")
                ws.close()
            wanted = ["Ann to play", *expected]
            wrong = sorted(who for who, seen in histories.items() if seen != wanted)
            out.append(f"  every follower ({len(histories)}) showed exactly its table's {rounds} updates in order "
                       f"(\"Ann to play\", then {', '.join(repr(e) for e in expected[:2])}...): "
                       + ("yes" if not wrong else f"NO, {len(wrong)} differ: " + "; ".join(
                           f"{w}: {histories[w]}" for w in wrong[:5])))
            browser.close()


def hub_load(games: int, followers: int, rounds: int, out: list[str]) -> None:
    import threading

    from companion.games.classic.table import new_classic
    from companion.ui.hub import Hub
    from companion.ui.table import PlayerInfo

    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub()
        hub.configure(tmp)
        tables = [new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]) for _ in range(games)]
        for game in tables:
            hub.add(game)
        seen: dict[str, float] = {}
        lock = threading.Lock()

        def follower(key: str, game: Any) -> Any:
            def cb() -> None:
                # What a follower's callback does first: read the shared game (page.run_task would render it).
                _ = (game.current_player, game.scores())
                with lock:
                    seen[key] = time.perf_counter()
            return cb

        for g, game in enumerate(tables):
            for i in range(followers):
                hub.subscribe(f"g{g}f{i}", follower(f"g{g}f{i}", game), game.id)
        latencies: list[float] = []
        c0 = time.process_time()
        for k in range(rounds):
            for g, game in enumerate(tables):
                seen.clear()
                t0 = time.perf_counter()
                game.pass_turn() if k % 2 == 0 else game.undo()
                hub.publish(game, exclude="referee")
                assert set(seen) == {f"g{g}f{i}" for i in range(followers)}  # its followers, no other table's
                latencies += [seen[f"g{g}f{i}"] - t0 for i in range(followers)]
        cpu = time.process_time() - c0
        out.append(f"hub, {games} games x {followers} subscribers x {rounds} rounds (store write + fan-out): "
                   + distribution(latencies) + f"; CPU {cpu / (rounds * games) * 1000:.1f} ms per update")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--followers", type=int, default=5, help="followers per game")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of updates (each round changes every game)")
    parser.add_argument("--out", type=Path, default=Path("/work/notes/bench/load.txt"))
    parser.add_argument("--spacing", type=float, default=0.0,
                        help="seconds between the tables' taps in a round (0: all at once, the worst case)")
    parser.add_argument("--hub-only", action="store_true")
    parser.add_argument("--nice", type=int, default=0,
                        help="run Chromium at this nice level (19: the lowest priority), so the server gets the "
                             "CPU first, as when every phone draws on its own device")
    parser.add_argument("--followers-as", choices=("browser", "ws", "mixed"), default="browser",
                        help="browser: every follower a Chromium page; ws: every follower a Python client of "
                             "Flet's websocket protocol (benchmarks/flet_follower.py), drawing nothing, as phones "
                             "that draw on their own; mixed: one Chromium page and the rest Python clients per game")
    parser.add_argument("--referees-as", choices=("browser", "ws"), default="browser",
                        help="browser: every referee a Chromium page tapping; ws: a Python client of Flet's "
                             "websocket protocol sending the click a browser sends (benchmarks/flet_follower.py), "
                             "drawing nothing, as a referee's phone that draws on its own")
    parser.add_argument("--ws-processes", type=int, default=1,
                        help="processes the websocket followers are shared among (at this script's priority)")
    parser.add_argument("--server-nice", type=int, default=0,
                        help="run the app at this nice level (e.g. -5: ahead of the machine's other work, as on "
                             "a club's laptop that serves only the tables; needs root)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="write the app's stacks during the rounds to this file (py-spy raw format)")
    args = parser.parse_args()
    load = os.getloadavg()
    header = (f"benchmarks/load.py --games {args.games} --followers {args.followers} --rounds {args.rounds} "
              f"--spacing {args.spacing:g} --nice {args.nice} --followers-as {args.followers_as} "
              f"--server-nice {args.server_nice} --referees-as {args.referees_as} "
              f"({time.strftime('%Y-%m-%d %H:%M:%S')}, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
              f"(1/5/15 min) on {os.cpu_count()} cores)")
    out: list[str] = [header]
    hub_load(args.games, args.followers, args.rounds, out)
    print(out[-1], flush=True)
    if not args.hub_only:
        try:
            browser_load(args.games, args.followers, args.rounds, out, args.spacing, args.profile, args.nice,
                         args.followers_as, args.ws_processes, args.server_nice, args.referees_as)
        except Exception as exc:  # noqa: BLE001 - say what the machine could not do, keep the hub figure
            out.append(f"browser load did not complete: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    load = os.getloadavg()
    out.append(f"load average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    text = "\n".join(out)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
