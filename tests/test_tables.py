"""Many tables on one server (issue 16.3) and the referee PIN enforced by the server (16.5b), on the real
hub, the real tab state (`AppState`) and a real SQLite store; no browser (the browser tests are
test_ui_browser_tables.py).

- Each game has its own address (`/table/<id>`), its own watchers, its own PIN and its own store rows.
- A tab may change a game only when the hub says so (it started the game or gave that game's PIN), what
  ever the tab's own `role` and screen say: a tab whose state says "referee" on the turn screen, as a
  reconnected or stale tab's can, is refused every change and nothing changes (log, store, clocks).
- The QR code of a table decodes (OpenCV's detector) to the table's address on the network.
- On the server's event loop a change's save runs off the loop (a real second connection holds the
  file's write lock meanwhile): the loop stays free, the table's tabs draw only once it is saved, and
  the changes of several tables waiting together go to disk in one or two transactions, not one each.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.classic.table import ClassicTable, new_classic
from companion.store import FILE_NAME, Store
from companion.ui.hub import HUB, PIN_NEEDED, Hub, table_from_path, table_path
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo


def _classic(*names: str) -> object:
    return new_classic([PlayerInfo(n, c) for n, c in zip(names, ("red", "blue", "green"), strict=False)])


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    HUB.configure(str(tmp_path))
    try:
        yield HUB
    finally:
        HUB.configure(None)


def _tab(key: str, redraws: dict[str, int] | None = None) -> AppState:
    tab = AppState(session_key=key)
    HUB.subscribe(key, (lambda: redraws.__setitem__(key, redraws.get(key, 0) + 1)) if redraws is not None
                  else (lambda: None))
    return tab


def _start(tab: AppState, names: tuple[str, str], pin: str = "") -> str:
    tab.new_game()
    tab.chosen_game = "classic"
    tab.form.names[:2] = list(names)
    tab.form.pin = pin
    tab.start_game()
    assert tab.error == "" and tab.game is not None
    return str(tab.game.id)


def test_two_games_on_one_server_each_with_its_own_watchers_pin_and_store_rows(hub: Hub, tmp_path: Path) -> None:
    redraws: dict[str, int] = {}
    ref_a, ref_b = _tab("ref-a", redraws), _tab("ref-b", redraws)
    game_a = _start(ref_a, ("Ann", "Bob"), pin="1234")
    game_b = _start(ref_b, ("Cleo", "Dev"), pin="9876")
    assert game_a != game_b and ref_a.path() == table_path(game_a) == f"/table/{game_a}"
    fol_a, fol_b, _home = _tab("fol-a", redraws), _tab("fol-b", redraws), _tab("home", redraws)
    fol_a.open_table(game_a)
    fol_b.open_table(game_b)
    assert (fol_a.screen, fol_a.role, fol_b.game.players) == ("follow", "follower", ["Cleo", "Dev"])
    redraws.clear()
    ref_a.pass_turn()
    assert ref_a.info == "Ann passed."
    # Only the tabs on game A's table (and the home screen's list) redraw; game B's tabs do not.
    assert set(redraws) == {"fol-a", "home"}
    assert hub.table(game_b).current_player == "Cleo"
    # Each game's PIN opens only that game.
    fol_b.form.pin_try = "1234"
    fol_b.take_over()
    assert fol_b.error == "That PIN is not the referee's PIN." and fol_b.role == "follower"
    fol_b.form.pin_try = "9876"
    fol_b.take_over()
    assert fol_b.role == "referee" and hub.is_referee(hub.table(game_b), "fol-b")
    assert not hub.is_referee(hub.table(game_a), "fol-b")
    fol_b.pass_turn()
    assert fol_b.info == "Cleo passed."
    with Store(tmp_path / FILE_NAME) as store:
        rows = {g.id: g for g in store.games()}
        assert set(rows) == {game_a, game_b} and rows[game_a].has_pin and rows[game_b].has_pin
        assert [e.type for e in store.events(game_a)] == ["start", "pass"]
        assert [e.type for e in store.events(game_b)] == ["start", "pass"]
    # The home screen lists both, and after a restart both tables are back, each at its own address.
    hub.configure(str(tmp_path))
    assert {g.id for g in hub.open_tables()} == {game_a, game_b}
    assert "Resumed 2 open games" in hub.resume_note
    assert [g.players for g in hub.listing()] == [["Cleo", "Dev"], ["Ann", "Bob"]]


def test_a_tab_whose_state_says_referee_is_refused_every_change_without_the_pin(hub: Hub, tmp_path: Path) -> None:
    """The stop-10 note: a tab reconnected past the guard. Whatever the tab's role and screen, the hub
    decides: every kind of change is refused with one sentence, and the game, store and clocks are as
    they were."""
    ref = _tab("ref")
    game_id = _start(ref, ("Ann", "Bob"), pin="2468")
    ref.pass_turn()
    game = hub.table(game_id)
    assert game is not None
    before = list(game.log.events)
    stale = _tab("reconnected")
    stale.table, stale.role, stale.screen = game_id, "referee", "turn"  # what a stale or rebuilt tab may hold
    stale.look()
    attempts = [
        lambda: stale.pass_turn(),
        lambda: stale.undo(),
        lambda: stale.do(ClassicTable.exchange, 7),
        lambda: stale.end_game(agreed=True),
        lambda: stale.challenge("Ann"),
        lambda: stale.toggle_clocks(),
    ]
    stale.form.word, stale.form.square = "HOTEL", "H8"
    attempts.append(lambda: stale.confirm_hand())
    for attempt in attempts:
        stale.role, stale.screen, stale.error = "referee", "turn", ""
        attempt()
        assert game.log.events == before
        if stale.error:  # toggle_clocks on a game without clocks does nothing at all
            assert stale.error == PIN_NEEDED
            assert (stale.role, stale.screen) == ("follower", "follow")  # the tab now shows it read-only
    with Store(tmp_path / FILE_NAME) as store:
        assert store.events(game_id) == before
    # Starting another game is not a change to this one: it opens a new table and leaves this one alone.
    stale.new_game()
    assert stale.screen == "setup" and stale.table == "" and hub.table(game_id).log.events == before
    # With the PIN the same tab referees, and only this game.
    stale.open_table(game_id)
    stale.form.pin_try = "2468"
    stale.take_over()
    stale.pass_turn()
    assert stale.info == "Bob passed." and len(game.log.events) == len(before) + 1


def test_a_game_without_a_pin_is_refereed_from_any_tab_on_its_table(hub: Hub) -> None:
    game = _classic("Ann", "Bob")
    hub.add(game)  # type: ignore[arg-type]
    tab = _tab("any")
    tab.open_table(game.id)  # type: ignore[attr-defined]
    assert tab.role == "follower"
    tab.take_over()
    assert tab.role == "referee" and tab.error == ""
    tab.pass_turn()
    assert tab.info == "Ann passed."


def test_addresses_name_one_table() -> None:
    assert table_from_path("/table/abc123") == "abc123"
    assert table_from_path("/table/abc123/") == "abc123"
    assert table_from_path("/table/abc123?x=1") == "abc123"
    for other in ("/", "", "/table/", "/tables/abc", "/table/a/b"):
        assert table_from_path(other) == ""


def test_an_unknown_table_address_says_so_and_shows_the_home_screen(hub: Hub) -> None:
    tab = _tab("t")
    tab.open_table("nosuchgame")
    assert tab.screen == "home" and tab.table == ""
    assert tab.error == "There is no game nosuchgame on this server: pick a table below."


def test_the_qr_code_of_a_table_decodes_to_its_address_on_the_network(hub: Hub) -> None:
    from companion.ui.components.join import qr_modules
    from tests.qr import decode_qr, drawn

    hub.base_urls = ["http://127.0.0.1:8550", "http://192.168.1.20:8550"]
    game = _classic("Ann", "Bob")
    hub.add(game)  # type: ignore[arg-type]
    url = hub.table_url(game.id)  # type: ignore[attr-defined]
    assert url == f"http://192.168.1.20:8550/table/{game.id}"  # type: ignore[attr-defined]
    assert decode_qr(drawn(qr_modules(url))) == url
    # Any game id: the code of every table reads back to its address (ids are random, so try many).
    for n in range(60):
        other = f"http://192.168.1.20:8550/table/{n * 0x2F3B1D7:012x}"
        assert decode_qr(drawn(qr_modules(other))) == other
    hub.base_urls = ["http://127.0.0.1:8550"]  # listening on this machine only: the only address there is
    assert hub.table_url("x") == "http://127.0.0.1:8550/table/x" and not hub.phones_can_reach()


def test_a_tab_keeps_each_tables_drafts_apart(hub: Hub) -> None:
    """Two tables of the same game opened in turn by one tab: what was typed on one stays with it."""
    table_a, table_b = _classic("Ann", "Bob"), _classic("Cleo", "Dev")
    hub.add(table_a)  # type: ignore[arg-type]
    hub.add(table_b)  # type: ignore[arg-type]
    tab = _tab("t")
    tab.open_table(table_a.id)  # type: ignore[attr-defined]
    draft_a = tab.local()
    tab.form.racks = {"Ann": "QZ"}
    tab.form.play_rack = "AEINRST"
    tab.open_table(table_b.id)  # type: ignore[attr-defined]
    assert tab.local() is not draft_a
    assert (tab.form.racks, tab.form.play_rack) == ({}, "")
    tab.open_table(table_a.id)  # type: ignore[attr-defined]
    assert tab.local() is draft_a
    # Setting up a new game of that kind starts from the tab's setup answers, not a table's drafts.
    tab.new_game()
    tab.chosen_game = "classic"
    assert tab.local() is not draft_a and tab.local() is tab.local("classic")


def test_the_board_a_tables_followers_see_is_made_once_per_change_and_keeps_its_unchanged_rows(hub: Hub) -> None:
    """The load target (benchmarks/load.py): a table's five followers redraw on every change, so what
    they show is derived once per change (`TableBase.view`), and the rows (or the whole board) that a
    change did not touch are the same objects as before, which the memoized board skips unseen."""
    from companion.ui.components.board import _same_where_equal, _squares

    ref = _tab("ref")
    game = hub.table(_start(ref, ("Ann", "Bob")))
    assert game is not None
    made: list[object] = []

    def board(before: object) -> object:
        made.append(before)
        return _same_where_equal(before, _squares(game.layout, game.board, {}, None, None, set(), False, None))  # type: ignore[arg-type]

    first = game.view("board", board)
    assert all(game.view("board", board) is first for _ in range(5)) and made == [None]
    ref.pass_turn()  # no square changes: the same board object, skipped whole
    assert game.view("board", board) is first and made == [None, first]
    ref.form.word, ref.form.square = "HOTEL", "H8"
    ref.confirm_hand()
    assert ref.info.startswith("Bob played HOTEL")
    after = game.view("board", board)
    assert after is not first and len(made) == 3
    assert [r for r in range(15) if after[r] is not first[r]] == [7]  # type: ignore[index]
    assert "H8 H" in after[7][7][-1] and after[6] == first[6]  # type: ignore[index]


def _commits(wal: Path) -> int:
    """Transactions in a write-ahead log file: frames whose header marks a commit (SQLite's WAL format:
    a 32-byte file header, then frames of a 24-byte header, whose bytes 4-8 are non-zero on a commit,
    and a page)."""
    import struct

    data = wal.read_bytes()
    page = struct.unpack(">I", data[8:12])[0]
    return sum(1 for at in range(32, len(data) - 23, 24 + page) if struct.unpack(">I", data[at + 4:at + 8])[0])


def test_the_writer_commits_the_tables_waiting_together_once_the_file_is_free(tmp_path: Path) -> None:
    import sqlite3

    from companion.ui.persist import GameStore

    store = GameStore(tmp_path)
    games = [_classic("Ann", "Bob") for _ in range(5)]
    for game in games:
        store.save(game)
    before = _commits(tmp_path / f"{FILE_NAME}-wal")
    lock = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # another connection holds the write lock, as a slow disk would
    for game in games:
        game.pass_turn()
    saving = [store.save_soon(game) for game in games]
    time.sleep(0.5)
    assert not any(f.done() for f in saving)  # done means saved: none is, yet
    lock.execute("ROLLBACK")
    for f in saving:
        f.result(timeout=10)
    assert store.error == ""
    # Five tables' turns in one or two transactions (one fsync each; the first save may have gone ahead
    # alone, when the writer took it before the others were queued), not five.
    assert _commits(tmp_path / f"{FILE_NAME}-wal") - before in (1, 2)
    with Store(tmp_path / FILE_NAME) as saved:
        assert all([e.type for e in saved.events(g.id)] == ["start", "pass"] for g in games)
    lock.close()


def test_a_change_never_waits_for_a_save_that_waits_for_the_file(tmp_path: Path) -> None:
    # `save_soon` runs on the server's event loop. While the writer waited for another
    # connection's write lock it held the store's lock, which `save_soon` took to check the writer was
    # started: the loop, and every table on it, waited out SQLite's 10 s busy timeout (1-3 of 8 runs of
    # this scene before the writer was started ahead of the lock).
    import sqlite3

    from companion.ui.persist import GameStore

    store = GameStore(tmp_path)
    one, two = _classic("Ann", "Bob"), _classic("Cleo", "Dev")
    store.save(one)
    lock = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        one.pass_turn()
        first = store.save_soon(one)  # the writer starts and waits for the file
        time.sleep(0.3)
        assert not first.done()
        two.pass_turn()
        t0 = time.monotonic()
        second = store.save_soon(two)
        assert time.monotonic() - t0 < 0.2
        assert not second.done()
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    first.result(timeout=10)
    second.result(timeout=10)
    assert store.error == ""
    with Store(tmp_path / FILE_NAME) as saved:
        assert [e.type for e in saved.events(one.id)] == ["start", "pass"]
        assert [e.type for e in saved.events(two.id)] == ["start", "pass"]


def test_on_the_event_loop_a_save_waits_off_it_and_its_tables_tabs_draw_once_it_is_saved(hub: Hub,
                                                                                         tmp_path: Path) -> None:
    import asyncio
    import sqlite3

    one, two = _classic("Ann", "Bob"), _classic("Cleo", "Dev")
    hub.add(one)
    hub.add(two)
    drawn: dict[str, float] = {}
    for key, game in (("f1", one), ("f2", two)):
        hub.subscribe(key, lambda key=key: drawn.setdefault(key, time.monotonic()), game.id)
    held: list[str] = []

    async def tables() -> float:
        lock = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        t0 = time.monotonic()
        one.pass_turn()
        hub.publish(one, exclude="r1")
        assert hub.hold("f1", lambda: held.append("f1"))  # table one's tabs wait for its save
        assert not hub.hold("f2", lambda: held.append("f2"))  # table two's draw now
        await asyncio.sleep(0.5)  # the loop is free: this sleep is not held up by the save
        waited = time.monotonic() - t0
        assert drawn == {} and held == []
        assert lock.execute("SELECT count(*) FROM events WHERE game_id = ?", (one.id,)).fetchone()[0] == 1
        lock.execute("ROLLBACK")
        lock.close()
        for _ in range(500):
            if "f1" in drawn:
                break
            await asyncio.sleep(0.01)
        return waited

    waited = asyncio.run(tables())
    assert waited < 2  # the store would have waited up to 10 s for the lock
    assert set(drawn) == {"f1"} and held == ["f1"]  # table one's follower and its held redraw, not table two's
    with Store(tmp_path / FILE_NAME) as saved:
        assert [e.type for e in saved.events(one.id)] == ["start", "pass"]
