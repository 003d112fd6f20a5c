"""``heistcord db copy --from <sqlite file> --to <postgresql url>``: move a server's games
and stats from the SQLite file to PostgreSQL (the upgrade path to several processes).

Copies every table (games with their ids, revisions and timers; the action log; guild
settings; results; refused DMs; tutorial runs; the rating ladders) in ONE PostgreSQL
transaction, then, before committing, checks the copy: the same number of rows in every table, and every started game replayed
from its seed and the copied action log reproduces its copied state exactly. Any
difference rolls the whole copy back and says which games differ. The target must be
empty (a fresh database; the schema is created by the copy). Stop the bot first: the
SQLite file's lock refuses the copy while a bot uses it.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field

from bot.games import get_engine, registry
from bot.storage import DatabaseInUseError, GameRow, Storage, StorageError
from bot.storage_pg import PgStorage, redact

# Every table and its columns, in an order that satisfies the foreign keys.
TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id", "guild_id", "channel_id", "game_key", "status", "host_id", "options", "seed", "seats", "state",
              "version", "lobby_message_id", "board_message_id", "deadline_at", "reminder_at", "ended_reason",
              "created_at", "updated_at", "parent_channel_id", "rev"),
    "actions": ("id", "game_id", "seq", "seat", "user_id", "action", "at"),
    "guild_settings": ("guild_id", "manager_role_id", "allowed_channels", "maintenance", "turn_minutes", "on_leave",
                       "threads", "bot_level"),
    "results": ("game_id", "guild_id", "game_key", "seat", "user_id", "name", "is_bot", "score", "rank", "won",
                "finished_at"),
    "dm_refusals": ("user_id", "until"),
    "tutorial_runs": ("id", "user_id", "game_key", "run", "rev", "finished", "created_at", "updated_at"),
    "rating_seasons": ("guild_id", "season", "started_at"),
    "rated_games": ("seq", "game_id", "guild_id", "game_key", "season", "status"),
    "ratings": ("guild_id", "game_key", "season", "player", "name", "mu", "sigma", "games", "wins"),
    "rating_changes": ("game_id", "seat", "guild_id", "game_key", "season", "seq", "player", "side", "rank", "won",
                       "mu_before", "sigma_before", "mu_after", "sigma_after", "games"),
}
FLOAT_COLUMNS = {"deadline_at", "reminder_at", "created_at", "updated_at", "at", "score", "finished_at", "until",
                 "started_at", "mu", "sigma", "mu_before", "sigma_before", "mu_after", "sigma_after"}


class CopyFailedError(Exception):
    """The copy was refused or did not verify; nothing was written to the target."""


@dataclass
class CopyReport:
    """What a copy moved (rows per table) and what it verified (games replayed, tables never started)."""
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # started games whose log reproduced their state
    unstarted: int = 0  # tables never started (lobbies, or closed before starting): no state to replay

    def summary(self, source: str, target: str) -> str:
        """The report's text for the person who ran the copy."""
        counts = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        return (f"Copied {source} to {target}: {counts}.\nVerified: every table has the same rows, and all"
                f" {self.replayed} started games replay from their seed and action log to exactly their stored"
                f" state ({self.unstarted} tables never started, with nothing to replay).")


def replay_matches(game: GameRow, entries: list[tuple[int, str]]) -> str | None:
    """None if the game's log replays to its stored state, else what differs."""
    from bot.tables import engine_options

    if game.game_key not in registry():
        return f"game #{game.id}: unknown game '{game.game_key}'"
    if game.state is None:
        return None if not entries and game.version == 0 else f"game #{game.id}: moves logged but never started"
    if len(entries) != game.version:
        return f"game #{game.id}: {len(entries)} moves logged, version {game.version}"
    engine = get_engine(game.game_key)
    try:
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        for seat, action in entries:
            engine.apply(state, seat, json.loads(action))
    except Exception as exc:  # a log the engine refuses
        return f"game #{game.id}: the log does not replay ({exc})"
    if json.loads(json.dumps(state)) != game.state:
        return f"game #{game.id}: the replayed state differs from the stored one"
    return None


def _value(column: str, value):
    return float(value) if column in FLOAT_COLUMNS and value is not None else value


async def copy_database(source_path: str, target_url: str) -> CopyReport:
    """Copy every table of a SQLite file into an empty PostgreSQL database, then verify it by replaying every game."""
    source = Storage(source_path)
    try:
        await source.open()  # claims the file (refused while a bot runs on it) and brings its schema up to date
    except DatabaseInUseError as exc:
        raise CopyFailedError(str(exc)) from None
    try:
        target = await PgStorage(target_url).open()
    except BaseException:
        await source.close()
        raise
    try:
        return await _copy(source, target)
    finally:
        await target.close()
        await source.close()


async def _copy(source: Storage, target: PgStorage) -> CopyReport:
    report = CopyReport()
    assert target.pool is not None and source.db is not None, "both databases are open"
    async with target.pool.acquire() as conn, conn.transaction():
        for table in TABLES:
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise CopyFailedError(f"the target database already has {table}: copy into an empty database.")
        for table, columns in TABLES.items():
            async with source.db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1") as cur:
                rows = [tuple(_value(c, v) for c, v in zip(columns, row)) for row in await cur.fetchall()]
            if rows:
                await conn.copy_records_to_table(table, records=rows, columns=columns)
            report.rows[table] = len(rows)
        for table, column in (("games", "id"), ("actions", "id"), ("tutorial_runs", "id"), ("rated_games", "seq")):
            await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"  # new ids after the copied
                               f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
        # Verify what the target now holds (read back through the same transaction).
        problems: list[str] = []
        for table, n in report.rows.items():
            copied = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
            if copied != n:
                problems.append(f"{table}: {n} rows in the file, {copied} copied")
        log: dict[int, list[tuple[int, str]]] = {}
        for row in await conn.fetch("SELECT game_id, seat, action FROM actions ORDER BY game_id, seq"):
            log.setdefault(row["game_id"], []).append((row["seat"], row["action"]))
        for row in await conn.fetch("SELECT * FROM games ORDER BY id"):
            game = GameRow.from_row(row)
            problem = replay_matches(game, log.get(game.id, []))
            if problem:
                problems.append(problem)
            elif game.state is None:
                report.unstarted += 1
            else:
                report.replayed += 1
        if problems:
            shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
            raise CopyFailedError(f"the copy did not verify, so nothing was copied: {shown}")
    return report


def main(argv: list[str] | None = None) -> int:
    """The ``heistcord db copy --from FILE --to URL`` command; returns its exit status."""
    parser = argparse.ArgumentParser(prog="heistcord db copy",
                                     description="Copy a heistcord SQLite database into an empty PostgreSQL"
                                                 " database, then verify it by replaying every game.")
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file (HEISTCORD_DB)")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    import os

    if not os.path.isfile(args.source):
        print(f"heistcord db copy: no SQLite database at {args.source}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_database(args.source, args.target))
    except (CopyFailedError, StorageError) as exc:
        print(f"heistcord db copy: {exc}", file=sys.stderr)
        return 1
    print(report.summary(args.source, redact(args.target)))
    return 0
