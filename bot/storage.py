"""SQLite storage (aiosqlite): games, the append-only action log, guild settings
and finished-game results.

The schema is versioned: ``MIGRATIONS[i]`` takes the database from version ``i``
to ``i + 1`` and ``schema_version`` records where it is. The database runs in WAL
mode so readers never wait on the single writer.
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

import aiosqlite

ACTIVE = ("lobby", "running")

MIGRATIONS: list[str] = [
    # 0 -> 1: the first schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'ended')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        deadline_at REAL,
        reminder_at REAL,
        ended_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_guild_status ON games (guild_id, status);
    CREATE INDEX games_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;

    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;

    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        manager_role_id INTEGER,
        allowed_channels TEXT NOT NULL DEFAULT '[]',
        maintenance INTEGER NOT NULL DEFAULT 0,
        turn_minutes INTEGER,
        on_leave TEXT NOT NULL DEFAULT 'bot'
    );

    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL DEFAULT '',
        is_bot INTEGER NOT NULL DEFAULT 0,
        score REAL NOT NULL,
        rank INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild_game ON results (guild_id, game_key);
    """,
    # 1 -> 2: players whose DMs Discord refused (50007), not DMed again until ``until``.
    """
    CREATE TABLE dm_refusals (
        user_id INTEGER PRIMARY KEY,
        until REAL NOT NULL
    );
    """,
    # 2 -> 3: tables in threads. A running game moves into a thread made from its lobby
    # message: channel_id becomes the thread, parent_channel_id keeps the channel it came from.
    """
    ALTER TABLE games ADD COLUMN parent_channel_id INTEGER;
    ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 1;
    """,
]


class VersionConflict(Exception):
    """The game changed since the caller read it (another click got there first)."""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or running."""


@dataclass
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game_key: str
    status: str
    host_id: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    deadline_at: float | None = None
    reminder_at: float | None = None
    ended_reason: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    parent_channel_id: int | None = None  # the channel the lobby was in, when the game moved into a thread

    @property
    def home_channel_id(self) -> int:
        """Where the table was opened: the parent channel of its thread, or its own channel."""
        return self.parent_channel_id or self.channel_id

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "GameRow":
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["seats"] = json.loads(data["seats"])
        data["state"] = json.loads(data["state"]) if data["state"] else None
        return cls(**data)


@dataclass
class GuildSettings:
    guild_id: int
    manager_role_id: int | None = None
    allowed_channels: list[int] = field(default_factory=list)
    maintenance: bool = False
    turn_minutes: int | None = None
    on_leave: str = "bot"  # "bot": a bot player takes the seat; "end": the game ends
    threads: bool = True  # a started game moves into a thread of its own


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Storage:
    def __init__(self, path: str) -> None:
        self.path = path
        self.db: aiosqlite.Connection | None = None
        # One connection is shared by every coroutine, so a write transaction
        # must not interleave with another (a rollback would undo both).
        self.write_lock = asyncio.Lock()

    async def open(self) -> "Storage":
        self.db = await aiosqlite.connect(self.path)
        self.db.row_factory = aiosqlite.Row
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA synchronous=NORMAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()
        return self

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def migrate(self) -> int:
        db = self._db
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        version = row["version"] if row else 0
        if row is None:
            await db.execute("INSERT INTO schema_version (version) VALUES (0)")
        for target in range(version, len(MIGRATIONS)):
            await db.executescript("BEGIN;" + MIGRATIONS[target] + f"; UPDATE schema_version SET version = {target + 1}; COMMIT;")
        await db.commit()
        return len(MIGRATIONS)

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT version FROM schema_version") as cur:
            return (await cur.fetchone())["version"]

    @property
    def _db(self) -> aiosqlite.Connection:
        if self.db is None:
            raise RuntimeError("storage is not open")
        return self.db

    # --- games ----------------------------------------------------------------
    async def create_game(self, guild_id: int, channel_id: int, game_key: str, host_id: int,
                          options: dict[str, Any], seed: int, seats: list[dict[str, Any]]) -> int:
        async with self.write_lock:
            now = time.time()
            try:
                cur = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, options, seed, seats,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_key, host_id, _dumps(options), seed, _dumps(seats), now, now),
                )
            except aiosqlite.IntegrityError:
                raise ChannelBusy() from None
            await self._db.commit()
            return cur.lastrowid

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return GameRow.from_row(row) if row else None

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return GameRow.from_row(row) if row else None

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE status IN ('lobby', 'running')"
        args: tuple = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        async with self._db.execute(sql + " ORDER BY id", args) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    async def count_active(self) -> int:
        async with self._db.execute("SELECT COUNT(*) AS n FROM games WHERE status IN ('lobby', 'running')") as cur:
            return (await cur.fetchone())["n"]

    async def update_game(self, game_id: int, expected_version: int | None = None, **fields: Any) -> None:
        """Update columns; with ``expected_version`` it is a compare-and-set that also
        bumps the version, raising VersionConflict when someone else got there first."""
        async with self.write_lock:
            sets, args = [], []
            for key, value in fields.items():
                if key in ("options", "seats", "state"):
                    value = None if value is None else _dumps(value)
                sets.append(f"{key} = ?")
                args.append(value)
            sets.append("updated_at = ?")
            args.append(time.time())
            sql = f"UPDATE games SET {', '.join(sets)}"
            if expected_version is not None:
                sql += ", version = version + 1 WHERE id = ? AND version = ?"
                args += [game_id, expected_version]
            else:
                sql += " WHERE id = ?"
                args.append(game_id)
            cur = await self._db.execute(sql, args)
            if cur.rowcount != 1:
                await self._db.rollback()
                raise VersionConflict()
            await self._db.commit()

    async def commit_actions(self, game_id: int, expected_version: int, state: dict[str, Any],
                             actions: Iterable[tuple[int, int | None, dict[str, Any]]], **fields: Any) -> int:
        """Append actions to the log and store the new state, atomically, if the
        game is still at ``expected_version``. Returns the new version."""
        async with self.write_lock:
            db = self._db
            actions = list(actions)
            sets = ["state = ?", "version = version + ?", "updated_at = ?"]
            now = time.time()
            args: list[Any] = [_dumps(state), len(actions), now]
            for key, value in fields.items():
                if key in ("options", "seats"):
                    value = _dumps(value)
                sets.append(f"{key} = ?")
                args.append(value)
            cur = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", args + [game_id, expected_version]
            )
            if cur.rowcount != 1:
                await db.rollback()
                raise VersionConflict()
            await db.executemany(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, expected_version + i + 1, seat, user, _dumps(action), now)
                 for i, (seat, user, action) in enumerate(actions)],
            )
            await db.commit()
            return expected_version + len(actions)

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        async with self._db.execute(
            "SELECT seq, seat, user_id, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"],
                 "action": json.loads(r["action"]), "at": r["at"]} for r in rows]

    async def due_deadlines(self, now: float) -> list[GameRow]:
        async with self._db.execute(
            "SELECT * FROM games WHERE status = 'running' AND ((deadline_at IS NOT NULL AND deadline_at <= ?)"
            " OR (reminder_at IS NOT NULL AND reminder_at <= ?)) ORDER BY id", (now, now)
        ) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    async def next_timer(self) -> float | None:
        async with self._db.execute(
            "SELECT MIN(MIN(COALESCE(deadline_at, 1e18), COALESCE(reminder_at, 1e18))) AS t FROM games"
            " WHERE status = 'running'"
        ) as cur:
            row = await cur.fetchone()
        value = row["t"] if row else None
        return None if value is None or value >= 1e18 else value

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRow]:
        async with self._db.execute(
            "SELECT * FROM games WHERE guild_id = ? AND status IN ('finished', 'ended') ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        ) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    # --- results and stats -------------------------------------------------------
    async def record_results(self, game: GameRow, results: list[dict[str, Any]]) -> None:
        async with self.write_lock:
            now = time.time()
            await self._db.executemany(
                "INSERT OR REPLACE INTO results (game_id, guild_id, game_key, seat, user_id, name, is_bot, score, rank,"
                " won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game.id, game.guild_id, game.game_key, r["seat"], game.seats[r["seat"]].get("user_id"),
                  game.seats[r["seat"]]["name"],
                  int(bool(game.seats[r["seat"]].get("bot"))), float(r["score"]), int(r["rank"]), int(bool(r["won"])), now)
                 for r in results],
            )
            await self._db.commit()

    async def user_stats(self, guild_id: int, user_id: int, game_key: str | None = None) -> list[dict[str, Any]]:
        sql = ("SELECT game_key, COUNT(*) AS played, SUM(won) AS wins, AVG(score) AS avg_score, MAX(score) AS best"
               " FROM results WHERE guild_id = ? AND user_id = ? AND is_bot = 0")
        args: list[Any] = [guild_id, user_id]
        if game_key:
            sql += " AND game_key = ?"
            args.append(game_key)
        async with self._db.execute(sql + " GROUP BY game_key ORDER BY game_key", args) as cur:
            return [dict(r) for r in await cur.fetchall()]

    async def leaderboard(self, guild_id: int, game_key: str, limit: int = 10) -> list[dict[str, Any]]:
        async with self._db.execute(
            "SELECT user_id, COUNT(*) AS played, SUM(won) AS wins, AVG(score) AS avg_score,"
            " (SELECT r2.name FROM results r2 WHERE r2.guild_id = results.guild_id AND r2.user_id = results.user_id"
            "  ORDER BY r2.finished_at DESC LIMIT 1) AS name FROM results"
            " WHERE guild_id = ? AND game_key = ? AND is_bot = 0 GROUP BY user_id"
            " ORDER BY wins DESC, avg_score DESC, played DESC LIMIT ?",
            (guild_id, game_key, limit),
        ) as cur:
            return [dict(r) for r in await cur.fetchall()]

    # --- guild settings ----------------------------------------------------------
    async def settings(self, guild_id: int) -> GuildSettings:
        async with self._db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id=row["guild_id"], manager_role_id=row["manager_role_id"],
                             allowed_channels=json.loads(row["allowed_channels"]),
                             maintenance=bool(row["maintenance"]), turn_minutes=row["turn_minutes"],
                             on_leave=row["on_leave"], threads=bool(row["threads"]))

    async def save_settings(self, s: GuildSettings) -> None:
        async with self.write_lock:
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, manager_role_id, allowed_channels, maintenance, turn_minutes,"
                " on_leave, threads) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " manager_role_id = excluded.manager_role_id, allowed_channels = excluded.allowed_channels,"
                " maintenance = excluded.maintenance, turn_minutes = excluded.turn_minutes, on_leave = excluded.on_leave,"
                " threads = excluded.threads",
                (s.guild_id, s.manager_role_id, _dumps(s.allowed_channels), int(s.maintenance), s.turn_minutes, s.on_leave,
                 int(s.threads)),
            )
            await self._db.commit()

    # --- refused DMs ----------------------------------------------------------------
    async def dm_refusals(self) -> dict[int, float]:
        """``{user_id: until}`` of players not to DM before ``until``."""
        async with self._db.execute("SELECT user_id, until FROM dm_refusals") as cur:
            return {row["user_id"]: row["until"] for row in await cur.fetchall()}

    async def set_dm_refusal(self, user_id: int, until: float | None) -> None:
        """Remember (or, with ``until=None``, forget) that a player's DMs are closed."""
        async with self.write_lock:
            if until is None:
                await self._db.execute("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))
            else:
                await self._db.execute("INSERT INTO dm_refusals (user_id, until) VALUES (?, ?) ON CONFLICT (user_id)"
                                       " DO UPDATE SET until = excluded.until", (user_id, until))
            await self._db.commit()
