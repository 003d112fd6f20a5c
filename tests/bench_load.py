"""What a player waits for, each figure beside a floor measured in the same run:
``python -m tests.bench_load [--quick]``.

The bot runs in its OWN PROCESS (``tests/bench_botproc.py``: the real heistcord bot with its
cogs, a temp SQLite file), logged into the fake Discord (``tests/fakediscord``) on loopback.
The fake and the simulated players live in this process: players type ``/game play`` and
press a button of the panel they get, as people do; they know whose turn it is by reading
the bot's database (read-only) after each move, and pick a random move from the panel, so
none of their work runs in the bot's process. Every time is taken on the fake's side:
when an interaction is dispatched, when its reply arrives, when a board (a channel message
with ``board.png``) is posted.

The floors:
  * ``bare``: a bare discord.py bot in its own process (same fake, same players, same
    clicks): ``/game play`` answers a panel, a button edits the panel then posts a board
    with a PNG of the same size as heistcord's board of that game. Nothing else.
  * a bare SQLite WAL transaction (sqlite3, same schema, same pragmas) doing the UPDATE +
    INSERT of a move, with the same state encoded as JSON;
  * a primary-key lookup on the same database, for the timer loop's queries.

Which board shows a move: boards are coalesced per table (``bot/coalesce.py``): while a
board is being drawn and posted, moves queue, and the next board shows them all. From the
fake's side this is replayed exactly: a move's board is the first board of its table posted
after the reply, unless an earlier move of that table was still waiting for its board at
that time (a board was being drawn, from a state before this move); then it is the board
after that one. See :func:`assign_boards`.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from bot.games import registry
from bot.storage import Storage
from bot.tables import TableService, bot_rng
from cogs import customid
from rendering import render
from tests.botprocess import BotProcess, log_tail
from tests.fakediscord import FakeDiscord, RecordedMessage
from tools.bench import percentile, sample_states

GUILD = 5000
FIRST_CHANNEL = 10_000
FIRST_USER = 20_000
PLAYERS = 3
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)
TIMEOUT = 10.0  # seconds a single reply may take before the benchmark gives up on it
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
perf = time.perf_counter


def p50(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def p99(values: list[float]) -> float | None:
    return percentile(values, 99) if values else None


# --- printing ----------------------------------------------------------------------------------
FIGURES: list[dict[str, Any]] = []


def figure(name: str, value: float | None, floor: float | None, floor_name: str, unit: str = "ms",
           goal: tuple[str, float] | None = None, unmet: str | None = None) -> None:
    """One line: the figure, its floor from this run, the ratio, and the goal if the issue set one.
    ``goal`` is ("ratio", x) for "at most x times the floor" or ("abs", v) for "at most v units";
    ``unmet`` says why the goal is not met whatever the value (its conditions were not reached)."""
    def show(v: float | None) -> str:
        return "n/a" if v is None else (f"{v:.3f}" if abs(v) < 1 else f"{v:.1f}") + f" {unit}"

    ratio = value / floor if value is not None and floor else None
    line = f"  {name}: heistcord {show(value)} | floor {show(floor)} ({floor_name}) | ratio " + \
           ("n/a" if ratio is None else f"{ratio:.1f}x")
    met = None
    if goal is not None and value is not None:
        kind, limit = goal
        met = ((ratio is not None and ratio <= limit) if kind == "ratio" else value <= limit) and not unmet
        line += f" | goal <= {limit:g}{'x' if kind == 'ratio' else ' ' + unit}: {'met' if met else 'NOT met'}"
        if unmet:
            line += f" ({unmet})"
    print(line, flush=True)
    FIGURES.append({"name": name, "value": value, "floor": floor, "ratio": ratio, "unit": unit, "met": met,
                    "goal": goal, "floor_name": floor_name})


def note(text: str) -> None:
    print(f"  ({text})", flush=True)


# --- storage: a move's commit, a whole move, the timer loop -------------------------------------
def bare_connection(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


ENGINE_CALLS = ("setup", "apply", "view", "legal_actions", "to_act", "turn_seats", "is_terminal", "scores",
                "describe_action", "bot_action", "timeout_action", "window_seconds", "remove_seat")


class EngineClock:
    """Times an engine's own calls (this thread's CPU), the outermost call only (an
    engine calling its own methods is counted once), so a move's event-loop CPU splits
    into the engine's share and the platform's (everything else TableService.act does)."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.cpu, self.depth = engine, 0.0, 0
        for name in ENGINE_CALLS:
            setattr(engine, name, self._timed(getattr(engine, name)))

    def _timed(self, method: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return method(*args, **kwargs)
            self.depth += 1
            start = time.thread_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.cpu += time.thread_time() - start
                self.depth -= 1
        return timed

    def remove(self) -> None:
        for name in ENGINE_CALLS:
            vars(self.engine).pop(name, None)


async def bench_storage(tmp: str, moves: int) -> None:
    print(f"\n## storage: a move's commit and a whole move (in this process; {moves} moves per game, one at a time)",
          flush=True)
    path = os.path.join(tmp, "storage.db")
    storage = await Storage(path).open()
    service = TableService(storage, seed_source=iter(range(1, 10**9)).__next__)
    bare = bare_connection(path)
    commits: list[float] = []
    bares: list[float] = []
    wholes: dict[str, list[float]] = {}
    cpu: dict[str, tuple[float, float, float]] = {}  # game -> event-loop CPU, engine's part, whole process, per move
    channel = 1
    for key, engine in sorted(registry().items()):
        game = None
        # a whole move: TableService.act (engine, storage, private views), one move at a time
        times = wholes.setdefault(key, [])
        clock = EngineClock(engine)
        loop_cpu = engine_cpu = process_cpu = 0.0
        for _ in range(moves):
            if game is None or game.status != "running":
                row = await service.open(1, channel, key, 1, "U1")
                for u in range(2, PLAYERS + 1):
                    await service.join(row.id, u, f"U{u}")
                await service.start(row.id, 1)
                channel += 1
                game = await service.get(row.id)
            engine = service.engine(game)
            seat = engine.to_act(game.state)[0]
            action = engine.bot_action(game.state, seat, bot_rng(game, game.version))
            engine_before, thread0, process0 = clock.cpu, time.thread_time(), time.process_time()
            start = perf()
            await service.act(game.id, game.seats[seat]["user_id"], action)
            times.append((perf() - start) * 1000)
            thread_cpu = time.thread_time() - thread0
            process_cpu += time.process_time() - process0
            engine_cpu += clock.cpu - engine_before  # the engine's calls inside act (the benchmark's own are outside)
            loop_cpu += thread_cpu - (clock.cpu - engine_before)
        clock.remove()
        cpu[key] = (loop_cpu * 1000 / moves, engine_cpu * 1000 / moves, process_cpu * 1000 / moves)
        # the storage commit alone, and the bare transaction, with this game's latest state and seats
        state, seats = game.state, game.seats
        row = await service.open(1, channel, key, 1, "U1")
        channel += 1
        version = 0
        action = {"type": "benchmark", "card": 12}
        for _ in range(moves):
            start = perf()
            version = await storage.commit_actions(row.id, version, state, [(0, 1, action)], seats=seats,
                                                   deadline_at=None, reminder_at=None)
            commits.append((perf() - start) * 1000)
            start = perf()
            now = time.time()
            bare.execute("BEGIN")
            cur = bare.execute("UPDATE games SET state = ?, version = version + 1, updated_at = ?, seats = ?,"
                               " deadline_at = ?, reminder_at = ? WHERE id = ? AND version = ?",
                               (json.dumps(state, separators=(",", ":")), now, json.dumps(seats, separators=(",", ":")),
                                None, None, row.id, version))
            assert cur.rowcount == 1
            bare.execute("INSERT INTO actions (game_id, seq, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                         (row.id, version + 1, 0, 1, json.dumps(action, separators=(",", ":")), now))
            bare.execute("COMMIT")
            bares.append((perf() - start) * 1000)
            version += 1
    # moves that arrive together: one commit each on 50 tables at once (group commit)
    together = []
    rows = [await service.open(1, channel + i, "tower", 1, "U1") for i in range(50)]
    channel += 50
    for round_ in range(max(3, moves // 20)):
        start = perf()
        await asyncio.gather(*(storage.commit_actions(r.id, round_, state, [(0, 1, action)], seats=seats,
                                                      deadline_at=None, reminder_at=None) for r in rows))
        together.append((perf() - start) * 1000 / len(rows))
    bare.close()
    await storage.close()
    floor = p50(bares)
    figure("storage commit p50 (Storage.commit_actions)", p50(commits), floor,
           "bare SQLite WAL transaction, same UPDATE + INSERT and JSON p50", goal=("ratio", 2))
    figure("storage commit per move, 50 moves arriving together (p50 of the batch time / 50)", p50(together), floor,
           "bare SQLite WAL transaction, one move p50")
    everything = [t for times in wholes.values() for t in times]
    figure("whole move p50 (TableService.act)", p50(everything), floor,
           "bare SQLite WAL transaction p50", goal=("ratio", 8))
    note("whole move p50 per game: " + ", ".join(f"{k} {p50(v):.2f} ms" for k, v in wholes.items()))
    for key, (loop, engine_part, process) in cpu.items():
        figure(f"event-loop CPU per move, platform's share ({key})", loop, engine_part,
               "the engine's own calls in the same moves (apply, views, legal actions...)", goal=("abs", 0.5))
    note("event-loop CPU = this thread's CPU during TableService.act minus the engine's calls made in it (timed"
         " one by one); the writer thread's JSON encoding and SQLite are outside it. Whole process CPU per move: "
         + ", ".join(f"{k} {c[2]:.2f} ms" for k, c in cpu.items()))


async def bench_timers(tmp: str, stored: int, rounds: int) -> None:
    running = max(1, stored // 50)
    print(f"\n## timer loop with {stored:,} stored games ({running:,} running, half with a turn timer;"
          " in this process)", flush=True)
    path = os.path.join(tmp, "timers.db")
    storage = await Storage(path).open()
    templates = []
    for n, (key, engine) in enumerate(sorted(registry().items())):
        state = sample_states(engine, PLAYERS, 3 + n)[-1]
        seats = [{"user_id": u, "name": f"U{u}"} for u in range(1, PLAYERS + 1)]
        templates.append((key, json.dumps(state, separators=(",", ":")), json.dumps(seats)))
    await storage.close()
    db = bare_connection(path)
    now = time.time()
    rows = []
    for i in range(stored):
        key, state, seats = templates[i % len(templates)]
        live = i % (stored // running) == 0
        deadline = now + 3600 + i if live and i % 2 == 0 else None
        rows.append((GUILD + i % 50, FIRST_CHANNEL + i, key, "running" if live else "finished", 1, "{}", i, seats,
                     state, 40, deadline, deadline - 900 if deadline else None, now - 86400, now - 3600))
    db.execute("BEGIN")
    db.executemany("INSERT INTO games (guild_id, channel_id, game_key, status, host_id, options, seed, seats, state,"
                   " version, deadline_at, reminder_at, created_at, updated_at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    storage = await Storage(path).open()
    service = TableService(storage)
    loop_times, point, sql_times, lists, full_lists = [], [], [], [], []
    for i in range(rounds):
        guild = GUILD + i % 50
        await storage.game_summaries(guild)  # the guild's pages read once, so neither timing pays for it
        start = perf()
        await storage.game_summaries(guild)  # /gameadmin list
        lists.append((perf() - start) * 1000)
        start = perf()
        await storage.active_games(guild)  # what it read before: every state decoded
        full_lists.append((perf() - start) * 1000)
        start = perf()
        await service.fire_timers(now)  # what the loop does each time it wakes: nothing is due
        await storage.next_timer()
        loop_times.append((perf() - start) * 1000)
        start = perf()
        db.execute("SELECT * FROM games WHERE id = ?", (1 + (i * 7919) % stored,)).fetchone()
        point.append((perf() - start) * 1000)
        start = perf()
        db.execute("SELECT * FROM games WHERE status = 'running' AND ((deadline_at IS NOT NULL AND deadline_at <= ?)"
                   " OR (reminder_at IS NOT NULL AND reminder_at <= ?)) ORDER BY id", (now, now)).fetchall()
        db.execute("SELECT MIN(MIN(COALESCE(deadline_at, 1e18), COALESCE(reminder_at, 1e18))) AS t FROM games"
                   " WHERE status = 'running'").fetchone()
        sql_times.append((perf() - start) * 1000)
    await storage.close()
    db.close()
    figure("timer loop queries p50 (fire_timers + next_timer)", p50(loop_times), p50(point),
           "bare sqlite3 primary-key lookup on the same database p50", goal=("abs", 5))
    note(f"the two queries as they were before migration 5 (an OR and a MIN over every running game, no index),"
         f" on bare sqlite3: p50 {p50(sql_times):.3f} ms")
    figure("/gameadmin list p50 (game_summaries)", p50(lists), p50(point),
           "bare sqlite3 primary-key lookup on the same database p50")
    note(f"{running // 50} running games in the guild; the same games read with their states (active_games, what /gameadmin list read before): p50"
         f" {p50(full_lists):.2f} ms")


def db_bytes(path: str) -> int:
    """Bytes the database's content takes: the size of a compact copy of it (VACUUM INTO)."""
    copy = path + ".size"
    db = sqlite3.connect(path)
    db.execute("VACUUM INTO ?", (copy,))
    db.close()
    size = os.path.getsize(copy)
    os.remove(copy)
    return size


async def bench_growth(tmp: str, per_game: int) -> None:
    count = per_game * len(registry())
    print(f"\n## growth: {count:,} finished games ({per_game} of each game, bots on every seat), the retention"
          " policy, the longest game's log and replay", flush=True)
    path = os.path.join(tmp, "growth.db")
    storage = await Storage(path).open()
    service = TableService(storage, seed_source=iter(range(1, 10**9)).__next__)
    empty = db_bytes(path)
    channel = 1
    for key, engine in sorted(registry().items()):
        for g in range(per_game):
            players = engine.meta.min_players + g % (min(engine.meta.max_players, 5) - engine.meta.min_players + 1)
            row = await service.open(1, channel, key, 1, "U1")
            channel += 1
            for _ in range(players - 1):
                await service.add_bot(row.id, 1)
            await service.set_seat_info(row, {0: {"away": True}})  # the host's seat is played by a bot too
            await service.start(row.id, 1)
    finished = await storage.finished_games(1, limit=count + 1)
    assert len(finished) == count, len(finished)
    full = db_bytes(path)
    db = sqlite3.connect(path)
    state_bytes, log_bytes, moves = db.execute(
        "SELECT (SELECT SUM(LENGTH(state)) FROM games), (SELECT SUM(LENGTH(action)) FROM actions),"
        " (SELECT COUNT(*) FROM actions)").fetchone()
    longest, longest_moves = db.execute("SELECT game_id, COUNT(*) AS n FROM actions GROUP BY game_id"
                                        " ORDER BY n DESC LIMIT 1").fetchone()
    db.close()
    start = perf()
    compacted = await service.compact(time.time() + (service.retention_days + 1) * 86400)
    compact_ms = (perf() - start) * 1000
    compacted_bytes = db_bytes(path)
    per = 1000 / count
    note(f"{count:,} finished games, {moves:,} moves logged: states {state_bytes / 1e6:.2f} MB, action log"
         f" {log_bytes / 1e6:.2f} MB (JSON text)")
    floor, floor_name = log_bytes * per / 1e6, "the action log's JSON text alone, per 1,000 games"
    figure("database size per 1,000 finished games, states kept", (full - empty) * per / 1e6, floor, floor_name,
           unit="MB")
    figure("database size per 1,000 finished games, states compacted (retention)", (compacted_bytes - empty) * per / 1e6,
           floor, floor_name, unit="MB")
    note(f"compaction of {compacted:,} games took {compact_ms:.0f} ms in batches of 500 (freed pages are reused by"
         " new games; VACUUM would give them back to the file system)")
    # the longest game's log and replay: the event loop's CPU while they run, against the replay's own work
    for what, call in (("/game log", lambda: service.public_log(longest)),
                       ("/game replay (a move of it)", lambda: service.replay(longest, longest_moves // 2)),
                       ("/game replay (the animation's turns)", lambda: service.replay_turns(longest))):
        loop0, wall0 = time.thread_time(), perf()
        await call()
        loop_ms, wall_ms = (time.thread_time() - loop0) * 1000, (perf() - wall0) * 1000
        figure(f"event-loop CPU during {what} of the longest game", loop_ms, wall_ms,
               "the whole call, replay on a worker thread")
    note(f"the longest game: #{longest}, {longest_moves} moves")
    await storage.close()


# --- the bots on the fake --------------------------------------------------------------------------
@dataclass
class Move:
    channel: int
    user: int
    sent: float  # the move's click dispatched
    reply: float  # its reply (the updated panel) received by the fake
    play: float | None  # ms from /game play to the panel, if the player had to ask for one
    ok: bool
    board: float | None = None  # the board showing this move posted
    board_text: str = ""  # that board's text


@dataclass
class Table:
    channel: int
    key: str
    users: list[int]
    game_id: int | None = None
    moves: list[Move] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    panels: dict[int, tuple[int, RecordedMessage]] = field(default_factory=dict)  # user -> (moves then, panel)
    turn: int = 0
    over: bool = False


class Bot:
    """One bot process and the fake Discord it is logged into."""

    def __init__(self, name: str, tmp: str, tables: list[Table], db_path: str = "") -> None:
        self.name = name
        self.tables = tables
        self.db_path = db_path  # heistcord's database, read-only to know whose turn it is
        self.fake = FakeDiscord()
        self.replied: dict[int, float] = {}
        self.boards: list[tuple[float, int, str]] = []  # (posted at, channel, text)
        self.board_sizes: list[int] = []  # bytes of each board.png uploaded
        self.ready_at: float | None = None
        self.proc: BotProcess | None = None
        self.started_at = 0.0
        self.log_path = os.path.join(tmp, f"{name}.log")
        self.timeline_path = os.path.join(tmp, f"{name}.timeline.json")
        self._db: sqlite3.Connection | None = None
        self.profiles = 0  # phases profiled (HEISTCORD_PROFILE)

    def _listen(self, event: str, obj: Any) -> None:
        now = perf()
        if event == "callback":
            self.replied[obj.id] = now
        elif event in ("message", "edit"):  # a board posted, or the living board edited with a new picture
            uploaded = obj.history[-1].get("_files") or [] if obj.history else []
            if obj.kind in ("channel", "followup") and not obj.ephemeral \
                    and any(name == "board.png" for name, _ in uploaded):  # (a board rides its move's interaction)
                self.boards.append((now, obj.channel_id, obj.content))
                self.board_sizes.extend(len(png) for name, png in uploaded if name == "board.png")
        elif event == "ready" and self.ready_at is None:
            self.ready_at = now

    async def open_fake(self) -> None:
        fake = self.fake
        fake.add_guild(GUILD, name="Bench", owner_id=FIRST_USER)
        for t in self.tables:
            fake.add_channel(GUILD, t.channel, f"table-{t.channel}")
            for uid in t.users:
                if uid not in fake.users:
                    fake.add_user(uid, f"player{uid}")
                    fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
        fake.listeners.append(self._listen)
        await fake.start()

    async def launch(self, extra: list[str]) -> None:
        """Start the bot's process; returns once the fake has answered its IDENTIFY."""
        self.proc = BotProcess(self.fake.base_url, self.log_path, bot=self.name if self.name == "bare" else "heistcord",
                               guild=GUILD, args=extra, name=self.name)
        await self.proc.start(lambda: self.ready_at is not None, timeout=60, poll=0.001)
        self.started_at = self.proc.started_at

    def log_tail(self, lines: int = 30) -> str:
        return log_tail(self.log_path, lines)

    def profile_phase(self, begins: bool, what: str = "") -> None:
        """Under HEISTCORD_PROFILE: the bot's profile of one phase alone (tests/bench_botproc.py: SIGUSR1 starts it
        afresh, SIGUSR2 writes it as PREFIX.<bot>.phase<N>.prof)."""
        prefix = os.environ.get("HEISTCORD_PROFILE")
        if not prefix or self.proc is None:
            return
        if begins:
            os.kill(self.proc.pid, signal.SIGUSR1)
            return
        os.kill(self.proc.pid, signal.SIGUSR2)
        self.profiles += 1
        note(f"{self.name}: profile of {what}: {prefix}.{self.proc.bot}.phase{self.profiles}.prof")

    async def stop(self) -> None:
        if self.proc is not None:
            await self.proc.stop()
        await self.fake.stop()
        if self._db is not None:
            self._db.close()

    # -- CPU of the bot's process, read from /proc
    def cpu(self) -> dict[str, float]:
        """Seconds of CPU: the event loop (main thread), the whole process, its child processes (the drawing worker)."""
        tick = os.sysconf("SC_CLK_TCK")
        pid = self.proc.pid

        def stat(path: str) -> float:
            try:
                with open(path) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / tick
            except (OSError, IndexError, ValueError):
                return 0.0

        children = 0.0
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        for kid in kids:
            children += stat(f"/proc/{kid}/stat")
        return {"loop": stat(f"/proc/{pid}/task/{pid}/stat"), "process": stat(f"/proc/{pid}/stat"), "children": children}

    # -- whose turn: heistcord's database (read-only), or round robin for the bare bot
    def mover(self, table: Table, rng: random.Random) -> int | None:
        if table.game_id is None:
            return table.users[table.turn % len(table.users)]
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        status, state, seats = self._db.execute("SELECT status, state, seats FROM games WHERE id = ?",
                                                (table.game_id,)).fetchone()
        if status != "running":
            return None
        to_act = registry()[table.key].to_act(json.loads(state))
        return json.loads(seats)[rng.choice(to_act)]["user_id"] if to_act else None

    @staticmethod
    def choices(fake: FakeDiscord, panel: RecordedMessage) -> list[tuple[str, str, str | None]]:
        found: list[tuple[str, str, str | None]] = []
        for c in fake.find_components(panel):
            cid = c.get("custom_id", "")
            if c.get("type") == 2 and customid.kind_of(cid) == "act":
                found.append(("button", cid, None))
            elif c.get("type") == 3 and customid.kind_of(cid) == "sel":
                found.extend(("select", cid, o["value"]) for o in c.get("options", []))
        return found

    async def reply_time(self, rec) -> float:
        await rec.response(timeout=TIMEOUT)
        return self.replied[rec.id]

    async def move(self, table: Table, rng: random.Random) -> Move | None:
        """The player whose turn it is asks for a panel (unless the one they hold is still current) and presses
        a random move on it."""
        fake = self.fake
        user = self.mover(table, rng)
        if user is None:
            table.over = True
            return None
        held = table.panels.pop(user, None)
        panel = held[1] if held and held[0] == len(table.moves) else None
        play = None
        if panel is None:
            start = perf()
            rec = await fake.slash(user, table.channel, "game play")
            play = (await self.reply_time(rec) - start) * 1000
            panel = rec.message
        options = self.choices(fake, panel)
        if not options:
            table.failures.append(f"no move on the panel: {panel.content[:120]!r}")
            table.over = True
            return None
        kind, custom_id, value = rng.choice(options)
        start = perf()
        rec = await (fake.click(user, panel, custom_id) if kind == "button"
                     else fake.select(user, panel, custom_id, [value]))
        reply = await self.reply_time(rec)
        text = ((rec.callback or {}).get("data") or {}).get("content") or ""
        move = Move(table.channel, user, start, reply, play, ok=text.startswith("✅"))
        if not move.ok:
            table.failures.append(f"move not applied: {text[:120]!r}")
        table.moves.append(move)
        table.turn += 1
        if move.ok and rec.message is not None and self.choices(fake, rec.message):
            table.panels[user] = (len(table.moves), rec.message)
        return move

    async def first_answer(self, table: Table) -> tuple[float, float]:
        """Right after connecting: (start -> first reply, first move -> its board), in ms."""
        user = self.mover(table, random.Random(1))
        rec = await self.fake.slash(user, table.channel, "game play")
        first = (await self.reply_time(rec) - self.started_at) * 1000
        before = len(self.boards)
        move = await self.move(table, random.Random(2))
        await self.fake.wait_for(lambda: any(c == table.channel for _, c, _ in self.boards[before:]), timeout=60)
        board = next(t for t, c, _ in self.boards[before:] if c == table.channel)
        return first, (board - move.sent) * 1000

    async def quiet(self, limit: float, quiet: float = 0.5) -> None:
        """Wait until the bot has finished posting (boards, DMs): no request for ``quiet`` seconds."""
        try:
            await self.fake.settle(quiet=quiet, timeout=limit)
        except asyncio.TimeoutError:
            pass


def assign_boards(moves: list[Move], boards: list[tuple[float, int, str]]) -> None:
    """Set ``move.board``: replay the per-table coalescing (see the module docstring) in time order.
    A reply is taken as the moment the move queues its board (the bot queues it right after replying)."""
    events = [(m.reply, 0, m.channel, m, "") for m in moves if m.ok] + [(t, 1, c, None, text) for t, c, text in boards]
    events.sort(key=lambda e: (e[0], e[1]))
    drawing: dict[int, list[Move]] = {}  # table -> moves the board being drawn shows
    queued: dict[int, list[Move]] = {}
    for at, kind, channel, move, text in events:
        if kind == 0:
            if channel in drawing:
                queued.setdefault(channel, []).append(move)
            else:
                drawing[channel] = [move]
        elif channel in drawing:
            for shown in drawing.pop(channel):
                shown.board, shown.board_text = at, text
            if channel in queued:
                drawing[channel] = queued.pop(channel)


def check_boards(moves: list[Move]) -> tuple[int, int]:
    """Cross-check :func:`assign_boards` with what heistcord's boards say: a board showing a table's moves up to
    move k waits for the player of move k + 1 (players only move when it's their turn), or, as its text is built
    after its image is drawn, for the player after some later move already sent when the board was posted.
    Returns (boards consistent, boards checked)."""
    by_table: dict[int, list[Move]] = {}
    for m in moves:
        if m.ok:
            by_table.setdefault(m.channel, []).append(m)
    good = checked = 0
    for table_moves in by_table.values():
        for k, move in enumerate(table_moves[:-1]):
            if move.board is None or table_moves[k + 1].board == move.board or "Waiting for" not in move.board_text \
                    or table_moves[-1].sent < move.board:
                continue  # not the last move its board shows, nobody is waited for, or whom it waits for is unknown
            waiting = move.board_text.split("Waiting for", 1)[1]
            later = [table_moves[j + 1].user for j in range(k, len(table_moves) - 1)
                     if table_moves[j].sent < move.board]
            checked += 1
            good += any(f"<@{user}>" in waiting for user in later)
    return good, checked


# --- the phases ---------------------------------------------------------------------------------------
async def phase_one_at_a_time(bot: Bot, tables: list[Table], moves: int) -> list[Move]:
    """Each game in turn, one move at a time, each waiting for its board: nothing else going on."""
    done: list[Move] = []
    for table in tables:
        rng = random.Random(table.channel)
        for _ in range(moves):
            before = len(bot.boards)
            move = await bot.move(table, rng)
            if move is None:
                break
            if move.ok:
                await bot.fake.wait_for(lambda: any(c == table.channel for _, c, _ in bot.boards[before:]),
                                        timeout=TIMEOUT)
            await bot.quiet(TIMEOUT, quiet=0.05)
            done.append(move)
    assign_boards(done, bot.boards)
    return done


async def phase_paced(bot: Bot, tables: list[Table], period: float, seconds: float, drain: float) -> dict[str, Any]:
    """Every table makes a move every ``period`` seconds (random phase; late moves go at once, never two at a
    time on one table) for ``seconds``; then the boards still owed are waited for, up to ``drain`` seconds."""
    bot.profile_phase(True)
    first_request = len(bot.fake.requests)
    cpu0, wall0, bench0 = bot.cpu(), perf(), time.process_time()
    stop = wall0 + seconds
    moves: list[Move] = []
    errors: list[str] = []

    async def run(table: Table) -> None:
        rng = random.Random(table.channel * 31 + len(table.moves))
        next_at = perf() + rng.random() * period
        while not table.over:
            await asyncio.sleep(max(0.0, min(stop, next_at) - perf()))
            if perf() >= stop:
                return
            next_at = max(next_at + period, perf())
            try:
                move = await bot.move(table, rng)
            except (asyncio.TimeoutError, LookupError, ValueError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}"[:160])
                continue
            if move is not None:
                moves.append(move)

    lags: list[float] = []

    async def probe() -> None:
        """How late this process's event loop (the fake's and the players') wakes from a 5 ms sleep: every time
        is taken on it, so its lateness is in every figure, the floor's too."""
        while perf() < stop:
            asleep = perf()
            await asyncio.sleep(0.005)
            lags.append((perf() - asleep - 0.005) * 1000)

    probing = asyncio.ensure_future(probe())
    await asyncio.wait_for(asyncio.gather(*(run(t) for t in tables)), seconds + 3 * TIMEOUT)
    await probing
    wall = perf() - wall0
    bench = time.process_time() - bench0
    boards_at_stop = len(bot.boards)
    await bot.quiet(drain)
    cpu1 = bot.cpu()  # after the boards and DMs owed for these moves were posted
    bot.profile_phase(False, f"{len(tables)} tables, a move every {period:.2f} s on each")
    assign_boards(moves, bot.boards)
    ok = [m for m in moves if m.ok]
    in_window = [t for t, _, _ in bot.boards if wall0 <= t <= wall0 + wall]
    return {
        "moves": moves, "ok": ok, "wall": wall, "errors": errors + [f for t in tables for f in t.failures],
        "rate": len(ok) / wall, "boards_rate": len(in_window) / wall,
        "reply": [(m.reply - m.sent) * 1000 for m in ok],
        "play": [m.play for m in ok if m.play is not None],
        "board": [(m.board - m.sent) * 1000 for m in ok if m.board is not None],
        "unshown": sum(1 for m in ok if m.board is None),
        "loop_cpu": (cpu1["loop"] - cpu0["loop"]) * 1000 / max(1, len(ok)),
        "process_cpu": (cpu1["process"] - cpu0["process"]) * 1000 / max(1, len(ok)),
        "draw_cpu": (cpu1["children"] - cpu0["children"]) * 1000 / max(1, len(ok)),
        "bench_cpu": bench / wall, "boards_after": len(bot.boards) - boards_at_stop, "check": check_boards(moves),
        "lag": lags,
        "requests": request_kinds(bot.fake.requests[first_request:], len(ok), set(bot.fake.dm_channels.values())),
    }


def describe(name: str, r: dict[str, Any]) -> None:
    note(f"{name}: {len(r['ok'])} moves in {r['wall']:.1f} s = {r['rate']:.0f} moves/s; boards posted"
         f" {r['boards_rate']:.1f}/s while players played; {r['unshown']} moves never on a board;"
         f" CPU per move: event loop {r['loop_cpu']:.2f} ms, whole process {r['process_cpu']:.2f} ms,"
         f" drawing worker {r['draw_cpu']:.2f} ms; this process (fake + players) {r['bench_cpu']:.0%} of a core,"
         f" its event loop late by p50 {p50(r['lag']) or 0:.1f} ms, p99 {p99(r['lag']) or 0:.1f} ms")
    note(f"{name}: REST requests per move (the panel, the click, its board, DMs): "
         + ", ".join(f"{kind} {n:.2f}" for kind, n in r["requests"].items()))
    good, checked = r["check"]
    if checked:
        note(f"{name}: which board shows which move, cross-checked with the player each board waits for:"
             f" {good}/{checked} boards consistent")
    if r["errors"]:
        note(f"{name}: {len(r['errors'])} failures, e.g. {r['errors'][0]}")


# --- setting the tables up --------------------------------------------------------------------------
def make_tables(count: int, first: int) -> list[Table]:
    keys = sorted(registry())
    return [Table(channel=FIRST_CHANNEL + first + i, key=keys[i % len(keys)],
                  users=[FIRST_USER + (first + i) * PLAYERS + u for u in range(PLAYERS)]) for i in range(count)]


async def seed_heistcord(path: str, tables: list[Table], stored: int) -> None:
    """Open and start every table's game in heistcord's database (before the bot starts), and store ``stored``
    more running games (copies of those, in channels nobody plays in)."""
    storage = await Storage(path).open()
    service = TableService(storage, seed_source=iter(range(1000, 10**9)).__next__)
    for t in tables:
        row = await service.open(GUILD, t.channel, t.key, t.users[0], f"player{t.users[0]}")
        for uid in t.users[1:]:
            await service.join(row.id, uid, f"player{uid}")
        await service.start(row.id, t.users[0])
        t.game_id = row.id
    await storage.close()
    db = bare_connection(path)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, options, seed, seats, state, version,"
        " created_at, updated_at) SELECT guild_id + ?, ?, game_key, status, host_id, options, seed + ?, seats, state,"
        " version, created_at, updated_at FROM games WHERE id = ?",
        [(1 + i % 50, 1_000_000 + i, i, tables[i % len(tables)].game_id) for i in range(stored)])
    db.execute("COMMIT")
    db.close()


def board_pngs(tmp: str, tables: list[Table]) -> str:
    """A PNG of heistcord's size for each game (a mid-game board, drawn by heistcord's renderer), and the JSON
    file telling the bare bot which channel uploads which."""
    paths = {}
    for key, engine in sorted(registry().items()):
        states = sample_states(engine, PLAYERS, 11)
        png = render(key, "board", engine.view(states[len(states) // 2], None))
        paths[key] = os.path.join(tmp, f"{key}.png")
        with open(paths[key], "wb") as f:
            f.write(png)
    mapping = os.path.join(tmp, "pngs.json")
    with open(mapping, "w") as f:
        json.dump({str(t.channel): paths[t.key] for t in tables}, f)
    return mapping


# --- main ----------------------------------------------------------------------------------------------
async def bench_bots(tmp: str, quick: bool, only: set[str], seq_moves: int | None = None,
                     timeline: bool = False) -> None:
    seq_moves = seq_moves or (3 if quick else 20)
    load_tables, load_rate, load_seconds = (10, 30.0, 3.0) if quick else (150, 300.0, 20.0)
    # and, on a full run, first a load this shared machine can carry (the goal is at 300 moves/s)
    moderate_tables, moderate_rate = 100, 100.0
    human_tables, human_period, human_seconds = (20, 3.0, 4.5) if quick else (20, 3.0, 30.0)
    stored = 1000 if quick else 10_000
    drain = 15.0 if quick else 120.0
    layout = {"seq": (len(registry()), 0), "load": (load_tables, 100), "human": (human_tables, 1000),
              "moderate": (0 if quick else moderate_tables, 2000)}
    heist_tables = {k: make_tables(n, first) for k, (n, first) in layout.items()}
    bare_tables = {k: make_tables(n, first) for k, (n, first) in layout.items()}
    every = lambda ts: [t for group in ts.values() for t in group]  # noqa: E731
    db_path = os.path.join(tmp, "heistcord.db")
    await seed_heistcord(db_path, every(heist_tables), stored)
    pngs = board_pngs(tmp, every(bare_tables))
    heist = Bot("heistcord", tmp, every(heist_tables), db_path)
    bare = Bot("bare", tmp, every(bare_tables))
    seq: dict[str, list[Move]] = {}
    try:
        if "restart" in only:
            print(f"\n## restart: process start -> first interaction answered (heistcord with {stored:,} running games"
                  " stored, none loaded)", flush=True)
        results = {}
        for bot, extra in ((bare, ["--pngs", pngs]), (heist, ["--db", db_path, "--seed", "5"])):
            await bot.open_fake()
            if timeline:
                os.environ["HEISTCORD_TIMELINE"] = bot.timeline_path
            try:
                await bot.launch(extra)
            finally:
                os.environ.pop("HEISTCORD_TIMELINE", None)
            connected = (bot.ready_at - bot.started_at) * 1000
            first, board = await bot.first_answer((heist_tables if bot is heist else bare_tables)["seq"][0])
            results[bot.name] = (connected, first, board)
            await bot.quiet(TIMEOUT)
        (hc, hf, hb), (bc, bf, bb) = results["heistcord"], results["bare"]
        if "restart" in only:
            restart_figures(hc, hf, hb, bc, bf, bb)
        if "seq" in only:
            seq = await bench_one_at_a_time(heist, bare, heist_tables["seq"], bare_tables["seq"], seq_moves)
        if "load" in only and not quick:
            await bench_paced("moderate", heist, bare, heist_tables["moderate"], bare_tables["moderate"],
                              moderate_tables / moderate_rate, load_seconds, drain, moderate_rate)
        if "load" in only:
            await bench_paced("load", heist, bare, heist_tables["load"], bare_tables["load"], load_tables / load_rate,
                              load_seconds, drain, load_rate)
        if "human" in only:
            await bench_paced("human", heist, bare, heist_tables["human"], bare_tables["human"], human_period,
                              human_seconds, drain, None)
    finally:
        for bot in (heist, bare):
            await bot.stop()
        for bot in (heist, bare):
            if "Traceback" in bot.log_tail(200) or " ERROR " in bot.log_tail(200):
                print(f"\n(the {bot.name} bot logged errors; last lines of {bot.log_path}:)\n{bot.log_tail()}")
    if timeline and seq:
        print_timelines(seq, {bot.name: bot.timeline_path for bot in (heist, bare)})


def move_timeline(move: Move, stamps: list[tuple[float, str, float]]) -> tuple[dict[str, float], dict[str, float]]:
    """When each stamp of the bot's process first happened after a one-at-a-time move's click (ms), up to its board
    being posted, with the fake's own times of the reply and the board; and the CPU (ms) spent by the drawing worker
    on the board and by the event loop from the click to the board's upload."""
    assert move.board is not None
    seen: dict[str, float] = {"click dispatched (fake)": 0.0}
    cpu: dict[str, float] = {}
    for at, label, thread_cpu in stamps:
        if move.sent <= at <= move.board:
            seen.setdefault(label, (at - move.sent) * 1000)
            cpu.setdefault(label, thread_cpu)
    seen["reply received (fake)"] = (move.reply - move.sent) * 1000
    seen["board posted (fake)"] = (move.board - move.sent) * 1000
    spent: dict[str, float] = {}
    if "worker: drawing ends" in cpu and "worker: drawing starts" in cpu:
        spent["the drawing worker, drawing the board"] = \
            (cpu["worker: drawing ends"] - cpu["worker: drawing starts"]) * 1000
    upload = next((label for label in cpu if "board.png begins" in label), None)
    if upload and "click received (gateway event parsed)" in cpu:
        spent["the event loop, click received -> board upload begins"] = \
            (cpu[upload] - cpu["click received (gateway event parsed)"]) * 1000
    return seen, spent


def print_timelines(seq: dict[str, list[Move]], paths: dict[str, str]) -> None:
    """The p50 timeline of the one-at-a-time moves, in each bot: each point's p50 time after the click (the points
    in order of their p50), in how many moves it happened, and the CPU spent by the worker and the event loop."""
    for name, moves in seq.items():
        try:
            with open(paths[name]) as f:
                stamps = sorted((at, label, cpu) for at, label, cpu in json.load(f))
        except OSError:
            note(f"{name}: no timeline written")
            continue
        shown = [m for m in moves if m.ok and m.board is not None]
        print(f"\n## where a move's time goes, {name}: p50 ms after the click ({len(shown)} moves one at a time;"
              " first time each point is reached before the board is posted)", flush=True)
        points: dict[str, list[float]] = {}
        spent: dict[str, list[float]] = {}
        for move in shown:
            seen, cpu = move_timeline(move, stamps)
            for label, ms in seen.items():
                points.setdefault(label, []).append(ms)
            for label, ms in cpu.items():
                spent.setdefault(label, []).append(ms)
        for label, times in sorted(points.items(), key=lambda kv: statistics.median(kv[1])):
            print(f"  {statistics.median(times):7.1f} ms  {label}  ({len(times)}/{len(shown)} moves)", flush=True)
        for label, times in spent.items():
            note(f"CPU p50 of {label}: {statistics.median(times):.1f} ms")


def restart_figures(hc: float, hf: float, hb: float, bc: float, bf: float, bb: float) -> None:
    figure("restart: process start -> connected to the gateway", hc, bc, "bare discord.py bot process")
    figure("restart: process start -> first interaction answered", hf, bf, "bare discord.py bot process")
    figure("restart: first move -> its board posted", hb, bb, "bare bot: reply + same-size PNG upload")
    note("heistcord draws in a worker process started at the first board, so the first board includes its start")


def request_kinds(requests: list[dict[str, Any]], moves: int, dm_channels: set[int] = frozenset()) -> dict[str, float]:
    """REST requests the bot made, per move, by kind ("PATCH channels/*/messages/*", ...), most first; those to a
    DM channel (``dm_channels``) are marked "(DM)"."""
    counts: dict[str, int] = {}
    for r in requests:
        parts = r["path"].split("/")
        kind = r["method"] + " " + "/".join("*" if part.isdigit() or len(part) > 40 else part for part in parts)
        if len(parts) > 1 and parts[0] == "channels" and parts[1].isdigit() and int(parts[1]) in dm_channels:
            kind += " (DM)"
        counts[kind] = counts.get(kind, 0) + 1
    return {k: n / max(1, moves) for k, n in sorted(counts.items(), key=lambda kv: -kv[1])}


async def bench_one_at_a_time(heist: Bot, bare: Bot, heist_tables: list[Table], bare_tables: list[Table],
                              seq_moves: int) -> dict[str, list[Move]]:
    print(f"\n## one move at a time, each game in turn ({seq_moves} moves per game; each waits for its board)",
          flush=True)
    seq, requests = {}, {}
    boards_before = {bot.name: len(bot.board_sizes) for bot in (heist, bare)}
    for bot in (bare, heist):
        first = len(bot.fake.requests)
        bot.profile_phase(True)
        seq[bot.name] = await phase_one_at_a_time(bot, heist_tables if bot is heist else bare_tables, seq_moves)
        bot.profile_phase(False, "one at a time")
        requests[bot.name] = request_kinds(bot.fake.requests[first:], sum(m.ok for m in seq[bot.name]),
                                           set(bot.fake.dm_channels.values()))
    reply = {n: [(m.reply - m.sent) * 1000 for m in ms if m.ok] for n, ms in seq.items()}
    board = {n: [(m.board - m.sent) * 1000 for m in ms if m.ok and m.board] for n, ms in seq.items()}
    figure("one at a time: click -> reply p50", p50(reply["heistcord"]), p50(reply["bare"]), "bare bot p50")
    figure("one at a time: click -> reply p99", p99(reply["heistcord"]), p99(reply["bare"]), "bare bot p99")
    figure("one at a time: click -> board posted p50", p50(board["heistcord"]), p50(board["bare"]),
           "bare bot: reply + same-size PNG upload p50", goal=("ratio", 4))
    figure("one at a time: click -> board posted p99", p99(board["heistcord"]), p99(board["bare"]),
           "bare bot: reply + same-size PNG upload p99")
    for bot in (heist, bare):
        sizes = bot.board_sizes[boards_before[bot.name]:]
        if sizes:
            note(f"{bot.name}: board PNG uploaded p50 {p50(sizes) / 1000:.1f} KB")
    per_game = []
    for table in heist_tables:
        shown = [(m.board - m.sent) * 1000 for m in seq["heistcord"] if m.channel == table.channel and m.board]
        if shown:
            per_game.append(f"{table.key} {p50(shown):.0f} ms")
    note("heistcord click -> board p50 per game: " + ", ".join(per_game))
    for name, kinds in requests.items():
        note(f"{name}: REST requests per move (the panel, the click, its board, DMs): "
             + ", ".join(f"{kind} {n:.2f}" for kind, n in kinds.items()))
    good, checked = check_boards(seq["heistcord"])
    note(f"which board shows which move, cross-checked with the player each board waits for: {good}/{checked}"
         " boards consistent")
    return seq


async def bench_paced(kind: str, heist: Bot, bare: Bot, heist_tables: list[Table], bare_tables: list[Table],
                      period: float, seconds: float, drain: float, rate: float | None) -> None:
    prefix = f"load at {rate:.0f} moves/s" if kind == "moderate" else {"load": "load", "human": "human pace"}[kind]
    if kind == "human":
        print(f"\n## human pace: {len(heist_tables)} tables, one move every {period:g} s on each, for {seconds:g} s",
              flush=True)
    else:
        print(f"\n## {prefix}: {len(heist_tables)} tables, a move every {period:.2f} s on each (target {rate:.0f}"
              f" moves/s) for {seconds:.0f} s; each move is /game play -> panel, then a button -> reply", flush=True)
    runs = {}
    for bot in (bare, heist):
        runs[bot.name] = await phase_paced(bot, heist_tables if bot is heist else bare_tables, period, seconds, drain)
    h, b = runs["heistcord"], runs["bare"]
    if kind != "human":
        figure(f"{prefix}: moves per second achieved", h["rate"], b["rate"], "bare bot, same players", unit="moves/s")
        figure(f"{prefix}: click -> reply p50", p50(h["reply"]), p50(b["reply"]), "bare bot p50")
        goal = dict(goal=("abs", 100), unmet=None if h["rate"] >= 0.95 * 300 else
                    f"the goal is at 300 moves/s; this run reached {h['rate']:.0f}") if kind == "load" else {}
        figure(f"{prefix}: click -> reply p99", p99(h["reply"]), p99(b["reply"]), "bare bot p99", **goal)
        figure(f"{prefix}: /game play -> panel p99", p99(h["play"]), p99(b["play"]), "bare bot p99")
        figure(f"{prefix}: click -> board posted p50", p50(h["board"]), p50(b["board"]), "bare bot: reply + upload p50")
        figure(f"{prefix}: click -> board posted p99", p99(h["board"]), p99(b["board"]), "bare bot: reply + upload p99")
        figure(f"{prefix}: boards posted per second", h["boards_rate"], b["boards_rate"],
               "bare bot (one board per move)", unit="boards/s")
        figure(f"{prefix}: event-loop CPU per move", h["loop_cpu"], b["loop_cpu"], "bare bot's event loop per move",
               goal=("abs", 0.5))
    else:
        figure("human pace: click -> reply p99", p99(h["reply"]), p99(b["reply"]), "bare bot p99")
        figure("human pace: click -> board posted p50", p50(h["board"]), p50(b["board"]),
               "bare bot: reply + upload p50")
        figure("human pace: click -> board posted p99 (how far the board lags the move)", p99(h["board"]),
               p99(b["board"]), "bare bot: reply + upload p99", goal=("abs", 1000))
        figure("human pace: event-loop CPU per move", h["loop_cpu"], b["loop_cpu"], "bare bot's event loop per move",
               goal=("abs", 0.5))
    describe("heistcord", h)
    describe("bare", b)


PHASES = ("storage", "timers", "growth", "restart", "seq", "load", "human")


async def main(quick: bool, keep: bool, only: set[str] = set(PHASES), seq_moves: int | None = None,
               timeline: bool = False) -> None:
    began = perf()
    print(f"heistcord: what a player waits for, each figure beside its floor from this run"
          f"{' (--quick)' if quick else ''}\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} ·"
          f" {os.cpu_count()} CPUs · load average {os.getloadavg()[0]:.1f} · Python {sys.version.split()[0]}",
          flush=True)
    tmp = tempfile.mkdtemp(prefix="heistcord-bench-")
    try:
        if "storage" in only:
            await bench_storage(tmp, 20 if quick else 100)
        if "timers" in only:
            await bench_timers(tmp, 10_000 if quick else 100_000, 10 if quick else 20)
        if "growth" in only:
            await bench_growth(tmp, 4 if quick else 200)
        if only & {"restart", "seq", "load", "human"}:
            await bench_bots(tmp, quick, only, seq_moves, timeline)
    finally:
        if keep:
            print(f"(files kept in {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nfinished in {perf() - began:.0f} s; load average now {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (well under a minute), for the smoke test")
    parser.add_argument("--keep", action="store_true", help="keep the temp directory (databases, bot logs)")
    parser.add_argument("--only", help=f"comma-separated parts to run, of: {', '.join(PHASES)}")
    parser.add_argument("--seq-moves", type=int, help="moves per game one at a time (default 3 quick, 20 full)")
    parser.add_argument("--timeline", action="store_true",
                        help="stamp the bots' work (HEISTCORD_TIMELINE) and print where a one-at-a-time move's time goes")
    args = parser.parse_args()
    chosen = set(args.only.split(",")) if args.only else set(PHASES)
    if chosen - set(PHASES):
        parser.error(f"unknown parts: {', '.join(sorted(chosen - set(PHASES)))}")
    asyncio.run(main(args.quick, args.keep, chosen, args.seq_moves, args.timeline))
