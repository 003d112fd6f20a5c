"""Inside Discord's rate limits, measured: ``python -m tests.bench_ratelimits [--quick] [--only PARTS]``.

The real bot runs in its own process (``tests/bench_botproc.py``: every cog, its drawing worker, a temp SQLite
file), logged into the fake Discord (``tests/fakediscord``), which throttles like Discord: 50 requests in any
second per bot token, interaction endpoints exempt, per-route buckets with their headers, 429s. The fake and the
simulated players live in this process. A player does what people do: ``/game play``, then a button (or select
option) of the panel they get; the move is the one the game's own bot would pick (read from the bot's database,
read-only), so every game ends; players take ``--pace`` seconds between moves (5-10 s: human pace).

Parts:
  requests  whole games of every title at 4 players: requests counted against the global limit per human move,
            by kind, for the whole game (opening, play, final scores), new (notifying) DMs per player, pings; 429s.
  opening   many tables starting at once (``--opening`` tables): 429s, and how long until every first board
            and hand is out.
  capacity  ``--capacity`` tables (e.g. 250,500,1000) playing at human pace for ``--seconds``: moves carried,
            click -> reply and click -> board (the board a player sees, behind their move) p50/p99, requests
            against the global limit per second, 429s. The goal: the board <= 1 s behind at p99, no 429, at
            1,000 tables.

Every figure is counted on the fake's side. The machine's load average is printed beside them.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.games import registry
from bot.sender import route_of
from cogs import customid
from tests.botprocess import BotProcess
from tests.fakediscord import FakeDiscord, RecordedMessage
from tools.bench import percentile

GUILD = 5000
FIRST_CHANNEL = 10_000
FIRST_USER = 100_000
PLAYERS = 4
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)
TIMEOUT = 30.0
GAMES = ("tower", "sleeping", "masterminds", "rage", "heist")
perf = time.perf_counter


def p(values: list[float], q: float) -> float | None:
    return percentile(values, q) if values else None


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:.0f} ms"


@dataclass
class Table:
    channel: int
    key: str
    users: list[int]
    game_id: int | None = None
    thread: int | None = None
    moves: int = 0
    opened_at: float = 0.0  # the Start click
    first_board: float | None = None
    over: bool = False
    failures: list[str] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)  # seconds, click -> reply
    lags: list[float] = field(default_factory=list)  # seconds, click -> the board showing the move


class World:
    """The fake Discord, the bot's process and the players."""

    def __init__(self, tmp: str, tables: list[Table]) -> None:
        self.tmp = tmp
        self.tables = tables
        self.fake = FakeDiscord()
        self.db_path = os.path.join(tmp, "heistcord.db")
        self.log_path = os.path.join(tmp, "bot.log")
        self.proc: BotProcess | None = None
        self.ready = False
        self.boards: dict[int, list[float]] = {}  # thread -> times a board (with its picture) was posted or edited
        self._db: sqlite3.Connection | None = None
        self.by_channel: dict[int, Table] = {}
        self.by_user: dict[int, Table] = {}

    def _listen(self, event: str, obj: Any) -> None:
        if event == "ready":
            self.ready = True
        elif event in ("message", "edit") and isinstance(obj, RecordedMessage) and not obj.ephemeral:
            uploaded = (obj.history[-1].get("_files") or []) if obj.history else []
            if any(name == "board.png" for name, _ in uploaded):
                self.boards.setdefault(obj.channel_id, []).append(perf())

    def add(self, table: Table) -> None:
        fake = self.fake
        fake.add_channel(GUILD, table.channel, f"table-{table.channel}")
        for uid in table.users:
            fake.add_user(uid, f"player{uid}")
            fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
            self.by_user[uid] = table
        self.by_channel[table.channel] = table

    async def start(self) -> None:
        self.fake.add_guild(GUILD, name="Bench", owner_id=FIRST_USER)
        for table in self.tables:
            self.add(table)
        self.fake.listeners.append(self._listen)
        await self.fake.start()
        self.proc = BotProcess(self.fake.base_url, self.log_path, bot="heistcord", guild=GUILD,
                               args=["--db", self.db_path, "--seed", "5", "--log-level", "WARNING"])
        await self.proc.start(lambda: self.ready, timeout=120)

    async def stop(self) -> None:
        if self.proc is not None:
            await self.proc.stop()
        await self.fake.stop()
        if self._db is not None:
            self._db.close()

    # --- reading the bot's database (read-only) ------------------------------------------------
    def row(self, game_id: int) -> tuple[str, dict[str, Any] | None, list[dict[str, Any]], int, int]:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=30)
        status, state, seats, version, channel = self._db.execute(
            "SELECT status, state, seats, version, channel_id FROM games WHERE id = ?", (game_id,)).fetchone()
        return status, json.loads(state) if state else None, json.loads(seats), version, channel

    def game_in(self, channel: int) -> int | None:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=30)
        found = self._db.execute("SELECT id FROM games WHERE (channel_id = ? OR parent_channel_id = ?) AND status ="
                                 " 'running' ORDER BY id DESC", (channel, channel)).fetchone()
        return found[0] if found else None

    # --- playing ----------------------------------------------------------------------------------
    async def open(self, table: Table) -> None:
        """The first player opens the table, the others join, the first starts it."""
        fake = self.fake
        rec = await fake.slash(table.users[0], table.channel, "game new", {"game": table.key})
        await rec.response(timeout=TIMEOUT)
        lobby = rec.message
        if lobby is None or not self.fake.find_components(lobby, type=2):
            raise RuntimeError(f"/game new in {table.channel} was answered without a lobby:"
                               f" {lobby.content if lobby else rec.callback}")
        for uid in table.users[1:]:
            join = await fake.click(uid, lobby, fake.find_component(lobby, label="Join")["custom_id"])
            await join.response(timeout=TIMEOUT)
        table.opened_at = perf()
        start = await fake.click(table.users[0], lobby, fake.find_component(lobby, label="Start")["custom_id"])
        await start.response(timeout=TIMEOUT)

    async def wait_started(self, table: Table, timeout: float) -> bool:
        """Until the table's game runs in its thread with its first board up."""
        deadline = perf() + timeout
        while perf() < deadline:
            if table.game_id is None:
                table.game_id = self.game_in(table.channel)
            if table.game_id is not None:
                _, _, _, _, channel = self.row(table.game_id)
                if channel != table.channel and self.boards.get(channel):
                    table.thread = channel
                    self.by_channel[channel] = table
                    table.first_board = self.boards[channel][0]
                    return True
            await asyncio.sleep(0.2)
        table.failures.append("did not start in time")
        return False

    async def move(self, table: Table, rng: random.Random) -> bool:
        """The player the game waits for picks the move its bot would, from the panel they open."""
        status, state, seats, version, _ = self.row(table.game_id)
        if status != "running":
            table.over = True
            return False
        engine = registry()[table.key]
        to_act = engine.to_act(state)
        if not to_act:
            return False
        seat = rng.choice(to_act)
        user = seats[seat]["user_id"]
        if user is None:  # a bot's seat (no human waits): the bot moves by itself
            return False
        action = engine.bot_action(state, seat, rng)
        index = engine.legal_actions(state, seat).index(action)
        fake = self.fake
        panel = await fake.slash(user, table.thread, "game play")
        await panel.response(timeout=TIMEOUT)
        message = panel.message
        wanted = customid.encode("act", table.game_id, version, index)
        clicked = perf()
        if fake.find_components(message, custom_id=wanted, type=2):
            rec = await fake.click(user, message, wanted)
        else:
            value = customid.encode_index(index)
            select = next((c for c in fake.find_components(message, type=3)
                           if any(o["value"] == value for o in c.get("options", []))), None)
            if select is None or customid.parse(select["custom_id"]).version != version:
                return False  # the game moved on meanwhile (another seat of a simultaneous phase): look again
            rec = await fake.select(user, message, select["custom_id"], [value])
        await rec.response(timeout=TIMEOUT)
        replied = perf()
        text = ((rec.callback or {}).get("data") or {}).get("content") or ""
        if not text.startswith("✅"):
            return False
        table.moves += 1
        table.replies.append(replied - clicked)
        before = len(self.boards.get(table.thread, []))
        try:
            await fake.wait_for(lambda: len(self.boards.get(table.thread, [])) > before, timeout=TIMEOUT)
            table.lags.append(self.boards[table.thread][before] - clicked)
        except asyncio.TimeoutError:
            table.failures.append("a move's board never came")
        return True

    async def play(self, table: Table, pace: tuple[float, float], until: float | None, seed: int) -> None:
        """Moves at ``pace`` until the game ends (or ``until``)."""
        rng = random.Random(seed)
        while not table.over and (until is None or perf() < until):
            await asyncio.sleep(rng.uniform(*pace))
            if until is not None and perf() >= until:
                return
            try:
                await self.move(table, rng)
            except (asyncio.TimeoutError, LookupError, ValueError) as exc:
                table.failures.append(f"{type(exc).__name__}: {exc}"[:160])

    # --- counting ---------------------------------------------------------------------------------
    def table_of(self, request: dict[str, Any]) -> Table | None:
        """The table a request was made for: by its channel (the table's, its thread, a player's DMs)."""
        parts = request["path"].split("/")
        if request["path"] == "users/@me/channels":
            return self.by_user.get(int((request.get("json") or {}).get("recipient_id", 0)))
        if parts[0] == "channels" and parts[1].isdigit():
            channel = int(parts[1])
            if channel in self.by_channel:
                return self.by_channel[channel]
            user = next((u for u, c in self.fake.dm_channels.items() if c == channel), None)
            return self.by_user.get(user) if user is not None else None
        return None


def global_requests(world: World, start: int = 0) -> list[dict[str, Any]]:
    return [r for r in world.fake.requests[start:] if r.get("global") and r.get("status", 200) != 429]


def by_kind(requests: list[dict[str, Any]], world: World) -> Counter[str]:
    dms = set(world.fake.dm_channels.values())
    kinds: Counter[str] = Counter()
    for r in requests:
        parts = r["path"].split("/")
        kind = route_of(r["method"], "/" + r["path"])
        if parts[0] == "channels" and parts[1].isdigit() and int(parts[1]) in dms:
            kind += " (DM)"
        kinds[kind] += 1
    return kinds


def pings_of(message: RecordedMessage) -> int:
    """Users a new message notified: those mentioned that its allowed mentions let through."""
    body = message.history[0] if message.history else {}
    mentioned = {int(u) for u in __import__("re").findall(r"<@!?(\d+)>", message.content)}
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return len(mentioned)
    if "users" in (allowed.get("parse") or []):
        return len(mentioned)
    return len(mentioned & {int(u) for u in allowed.get("users") or []})


# --- the parts -------------------------------------------------------------------------------------
async def part_requests(tmp: str, per_game: int, pace: tuple[float, float], games: tuple[str, ...] = GAMES) -> None:
    print(f"\n## requests against the global limit per human move: whole games at {PLAYERS} players,"
          f" {per_game} table(s) of each title at once, a move every {pace[0]:g}-{pace[1]:g} s at each", flush=True)
    tables = [Table(FIRST_CHANNEL + i, key, [FIRST_USER + i * PLAYERS + u for u in range(PLAYERS)])
              for i, key in enumerate(k for k in games for _ in range(per_game))]
    world = World(tmp, tables)
    began = perf()
    try:
        await world.start()
        first = len(world.fake.requests)
        for table in tables:
            await world.open(table)
        await asyncio.gather(*(world.wait_started(t, 600) for t in tables))
        await asyncio.gather(*(world.play(t, pace, None, t.channel) for t in tables if t.thread))
        await world.fake.settle(quiet=2.0, timeout=600)  # the last boards, final scores
        assert world.proc is not None
        await world.proc.stop(grace=60)  # hand DMs still waiting to catch up go as the bot stops: counted too
        await world.fake.settle(quiet=0.5, timeout=60)
        counted = global_requests(world, first)
        print(f"  ({len(tables)} games in {perf() - began:.0f} s; load average {os.getloadavg()[0]:.1f})")
        print(f"  {'game':<12}{'human moves':>12}{'global requests':>16}{'per human move':>16}{'new DMs/player':>16}"
              f"{'pings/move':>11}")
        for key in games:
            mine = [t for t in tables if t.key == key]
            moves = sum(t.moves for t in mine)
            requests = [r for r in counted if world.table_of(r) in mine]
            dms = [len(world.fake.dms(u)) for t in mine for u in t.users]
            pings = sum(pings_of(m) for t in mine if t.thread for m in world.fake.public_messages(t.thread))
            print(f"  {key:<12}{moves:>12}{len(requests):>16}{len(requests) / max(1, moves):>16.2f}"
                  f"{f'{statistics.mean(dms):.1f} (max {max(dms)})':>16}{pings / max(1, moves):>11.2f}", flush=True)
            kinds = by_kind(requests, world)
            print("      " + ", ".join(f"{kind} {n / max(1, moves):.2f}" for kind, n in kinds.most_common()))
        unattributed = [r for r in counted if world.table_of(r) is None]
        print(f"  (not a table's: {len(unattributed)} requests, e.g. the bot's own start-up:"
              f" {', '.join(f'{k} {n}' for k, n in by_kind(unattributed, world).most_common(4))})")
        report_429s(world)
        failures = [f for t in tables for f in t.failures]
        if failures:
            print(f"  ({len(failures)} player-side hiccups, e.g. {failures[0]})")
    finally:
        await world.stop()


async def part_opening(tmp: str, count: int) -> None:
    print(f"\n## {count} tables starting at once ({PLAYERS} players each)", flush=True)
    keys = [GAMES[i % len(GAMES)] for i in range(count)]
    tables = [Table(FIRST_CHANNEL + i, key, [FIRST_USER + i * PLAYERS + u for u in range(PLAYERS)])
              for i, key in enumerate(keys)]
    world = World(tmp, tables)
    try:
        await world.start()
        first = len(world.fake.requests)
        began = perf()
        await asyncio.gather(*(world.open(t) for t in tables))
        opened = perf() - began
        await asyncio.gather(*(world.wait_started(t, 900) for t in tables))
        boards = [t.first_board - t.opened_at for t in tables if t.first_board]
        await world.fake.settle(quiet=2.0, timeout=900)
        hands = sum(1 for t in tables for u in t.users if world.fake.dms(u))
        done = perf() - began
        counted = global_requests(world, first)
        print(f"  {len(tables)} lobbies opened and started in {opened:.1f} s (their interactions); first boards:"
              f" {len(boards)}/{len(tables)}, Start -> first board p50 {boards and statistics.median(boards):.1f} s,"
              f" last {boards and max(boards):.1f} s; hands by DM {hands}/{len(tables) * PLAYERS}; all sent after"
              f" {done:.1f} s; load average {os.getloadavg()[0]:.1f}")
        print(f"  global-limited requests: {len(counted)} ({len(counted) / len(tables):.1f} per table), most in any"
              f" second {world.fake.throttle.global_peak()} (Discord's limit: 50):"
              f" {', '.join(f'{k} {n / len(tables):.1f}' for k, n in by_kind(counted, world).most_common(6))}")
        report_429s(world)
    finally:
        await world.stop()


async def part_capacity(tmp: str, count: int, seconds: float, pace: tuple[float, float]) -> dict[str, Any]:
    print(f"\n## capacity: {count} tables at human pace (a move every {pace[0]:g}-{pace[1]:g} s at each) for"
          f" {seconds:g} s", flush=True)
    keys = [GAMES[i % len(GAMES)] for i in range(count)]
    tables = [Table(FIRST_CHANNEL + i, key, [FIRST_USER + i * PLAYERS + u for u in range(PLAYERS)])
              for i, key in enumerate(keys)]
    world = World(os.path.join(tmp, f"cap{count}"), tables)
    os.makedirs(world.tmp, exist_ok=True)
    try:
        await world.start()
        began = perf()
        for k in range(0, len(tables), 5):  # opened five at a time, as they would be over a few minutes
            await asyncio.gather(*(world.open(t) for t in tables[k:k + 5]))
        await asyncio.gather(*(world.wait_started(t, 1800) for t in tables))
        await world.fake.settle(quiet=2.0, timeout=1800)
        print(f"  ({sum(1 for t in tables if t.thread)} tables opened in {perf() - began:.0f} s)", flush=True)
        for t in tables:
            t.replies.clear()
            t.lags.clear()
        first, moves0, r429 = len(world.fake.requests), sum(t.moves for t in tables), len(world.fake.rate_limited)
        start = perf()
        await asyncio.gather(*(world.play(t, pace, start + seconds, t.channel) for t in tables if t.thread))
        wall = perf() - start
        counted = global_requests(world, first)
        moves = sum(t.moves for t in tables) - moves0
        replies = [x for t in tables for x in t.replies]
        lags = [x for t in tables for x in t.lags]
        late = sum(1 for t in tables for f in t.failures if "never came" in f)
        result = {"tables": count, "moves/s": moves / wall, "reply p99": p(replies, 99), "board p50": p(lags, 50),
                  "board p99": p(lags, 99), "global/s": len(counted) / wall,
                  "429": len(world.fake.rate_limited) - r429, "missing": late,
                  "peak": world.fake.throttle.global_peak()}
        print(f"  {moves} moves in {wall:.0f} s = {result['moves/s']:.1f} moves/s; click -> reply p50"
              f" {ms(p(replies, 50))}, p99 {ms(result['reply p99'])}; click -> board p50 {ms(result['board p50'])},"
              f" p99 {ms(result['board p99'])} (goal <= 1000 ms: {'met' if (result['board p99'] or 99) <= 1 else 'NOT met'});"
              f" boards that never came {late}", flush=True)
        print(f"  requests against the global limit: {result['global/s']:.1f}/s ({len(counted) / max(1, moves):.2f} per"
              f" move), most in any second {result['peak']} of Discord's 50; 429s {result['429']}; load average"
              f" {os.getloadavg()[0]:.1f}", flush=True)
        report_429s(world)
        return result
    finally:
        await world.stop()


def report_429s(world: World) -> None:
    scopes = Counter(r["scope"] for r in world.fake.rate_limited)
    print(f"  429s from the fake Discord: {sum(scopes.values())}"
          + (f" ({', '.join(f'{s} {n}' for s, n in scopes.items())})" if scopes else ""), flush=True)


async def main(args: argparse.Namespace) -> None:
    began = perf()
    print(f"heistcord inside Discord's rate limits{' (--quick)' if args.quick else ''}\n"
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} CPUs · load average"
          f" {os.getloadavg()[0]:.1f} · Python {sys.version.split()[0]}", flush=True)
    pace = tuple(float(x) for x in args.pace.split("-"))
    assert len(pace) == 2
    tmp = tempfile.mkdtemp(prefix="heistcord-ratelimits-")
    only = set(args.only.split(",")) if args.only else {"requests", "opening", "capacity"}
    try:
        if "requests" in only:
            os.makedirs(os.path.join(tmp, "requests"))
            await part_requests(os.path.join(tmp, "requests"), args.per_game, pace,  # type: ignore[arg-type]
                                tuple(args.games.split(",")))
        if "opening" in only:
            os.makedirs(os.path.join(tmp, "opening"))
            await part_opening(os.path.join(tmp, "opening"), args.opening)
        if "capacity" in only:
            results = [await part_capacity(tmp, int(n), args.seconds, pace)  # type: ignore[arg-type]
                       for n in args.capacity.split(",")]
            print("\n## capacity, in short")
            for r in results:
                ok = (r["board p99"] or 99) <= 1.0 and r["429"] == 0 and not r["missing"]
                print(f"  {r['tables']:>5} tables: {r['moves/s']:.1f} moves/s, board p99 {ms(r['board p99'])},"
                      f" {r['global/s']:.1f} global requests/s (peak {r['peak']}), 429s {r['429']}:"
                      f" {'within the goal' if ok else 'NOT within the goal'}")
    finally:
        if args.keep:
            print(f"(files kept in {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nfinished in {perf() - began:.0f} s; load average now {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes and a fast pace (the smoke test)")
    parser.add_argument("--only", help="comma-separated parts: requests, opening, capacity")
    parser.add_argument("--per-game", type=int, default=2, help="requests: tables of each title (default 2)")
    parser.add_argument("--games", default=",".join(GAMES), help="requests: the titles (default all five)")
    parser.add_argument("--pace", default="5-10", help="seconds between a table's moves, a range (default 5-10)")
    parser.add_argument("--opening", type=int, default=200, help="opening: tables starting at once (default 200)")
    parser.add_argument("--capacity", default="250,500,1000", help="capacity: table counts to try")
    parser.add_argument("--seconds", type=float, default=120.0, help="capacity: seconds of play for each count")
    parser.add_argument("--keep", action="store_true", help="keep the temp directory (databases, bot logs)")
    args = parser.parse_args()
    if args.quick:
        args.per_game, args.pace, args.opening, args.capacity, args.seconds = 1, "0.2-0.4", 10, "10", 10.0
        args.games = "tower"
    asyncio.run(main(args))
