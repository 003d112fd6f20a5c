"""``heistcord db copy --from <sqlite file> --to <postgresql url>``: move a server's games
and stats from the SQLite file to PostgreSQL (the upgrade path to several processes).

Copies every table (games with their ids, revisions and timers; the action log; guild
settings; results; refused DMs; tutorial runs; the rating ladders) in ONE PostgreSQL
transaction, which also creates the schema, then, before committing, checks the copy:

* every table's rows, read back from PostgreSQL, are the file's, value by value;
* every started game, replayed from its seed and the copied action log, reproduces its
  copied state exactly; a game whose state the retention policy dropped (30 days after it
  ended: an established server has many) replays to the end of its log, and a finished one
  to exactly its recorded results.

Any difference rolls the whole copy back, schema included (the target is left as it was),
and says which games or tables differ. The target must hold no heistcord rows (a fresh
database, or one a bot started on without playing). Stop the bot first: the SQLite file's
lock refuses the copy while a bot uses it.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.dburl import redact
from bot.games import get_engine, registry
from bot.storage import DatabaseInUseError, GameRow, Storage, StorageError
from bot.storage_pg import migrate_in

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
KEYS = {"games": ("id",), "actions": ("id",), "guild_settings": ("guild_id",), "results": ("game_id", "seat"),
        "dm_refusals": ("user_id",), "tutorial_runs": ("id",), "rating_seasons": ("guild_id", "season"),
        "rated_games": ("seq",), "ratings": ("guild_id", "game_key", "season", "player"),
        "rating_changes": ("game_id", "seat")}  # each table's primary key: read and compared in order
FLOAT_COLUMNS = {"deadline_at", "reminder_at", "created_at", "updated_at", "at", "score", "finished_at", "until",
                 "started_at", "mu", "sigma", "mu_before", "sigma_before", "mu_after", "sigma_after"}
CONNECT_TIMEOUT = 10.0


class CopyFailedError(Exception):
    """The copy was refused or did not verify; nothing was written to the target."""


@dataclass
class CopyReport:
    """What a copy moved (rows per table) and what it verified (games replayed, tables never started)."""
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # started games whose log reproduced their stored state
    compacted: int = 0  # games whose state was dropped (retention): their log replayed to its end and results
    unstarted: int = 0  # tables never started (lobbies, or closed before starting): no state to replay
    earlier: int = 0  # games opened under an earlier rules revision: copied and compared, not replayed

    def summary(self, source: str, target: str) -> str:
        """The report's text for the person who ran the copy."""
        from bot.tables import RETENTION_DAYS

        counts = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        return (f"Copied {source} to {target}: {counts}.\nVerified: every table's rows are the same in both, value"
                f" by value; all {self.replayed} started games replay from their seed and action log to exactly their"
                f" stored state, and the {self.compacted} games whose states were dropped {RETENTION_DAYS} days after"
                f" they ended replay to the end of their logs (the finished ones to exactly their recorded results)"
                f" ({self.unstarted} tables never started, with nothing to replay"
                + (f"; {self.earlier} games played under an earlier version of their rules, which this version"
                   " can't replay, compared row by row only" if self.earlier else "") + ").")


def replay_matches(game: GameRow, entries: list[tuple[int, str]],
                   results: list[tuple[int, float, int, int]] | None = None) -> str | None:
    """None if the game's log replays to its stored state (or, when the retention dropped that state, to the end
    of the game and to its recorded ``results``: ``(seat, score, rank, won)``), else what differs."""
    from bot.tables import engine_options, replays_here

    if game.game_key not in registry():
        return f"game #{game.id}: unknown game '{game.game_key}'"
    if not game.started:
        return None if not entries else f"game #{game.id}: moves logged but never started"
    if len(entries) != game.version:
        return f"game #{game.id}: {len(entries)} moves logged, version {game.version}"
    if not replays_here(game):  # opened under an earlier rules revision: its rows are compared, not replayed
        return None
    engine = get_engine(game.game_key)
    try:
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        for seat, action in entries:
            engine.apply(state, seat, json.loads(action))
    except Exception as exc:  # a log the engine refuses
        return f"game #{game.id}: the log does not replay ({exc})"
    if game.state is not None:
        if json.loads(json.dumps(state)) != game.state:
            return f"game #{game.id}: the replayed state differs from the stored one"
        return None
    if game.status == "finished":  # its state was dropped: the log must lead to the end, and to its results
        if not engine.is_terminal(state):
            return f"game #{game.id}: its log does not lead to the end of the game"
        replayed = sorted((r["seat"], float(r["score"]), int(r["rank"]), int(bool(r["won"])))
                          for r in engine.scores(state))
        if results and replayed != sorted(results):
            return f"game #{game.id}: its log replays to other results than those recorded"
    return None


def replays_here_lazily(game: GameRow) -> bool:
    """``bot.tables.replays_here``, imported when asked (as ``replay_matches`` does)."""
    from bot.tables import replays_here

    return replays_here(game)


def _value(column: str, value: Any) -> Any:
    return float(value) if column in FLOAT_COLUMNS and value is not None else value


async def copy_database(source_path: str, target_url: str) -> CopyReport:
    """Copy every table of a SQLite file into a PostgreSQL database without heistcord rows, then verify it."""
    source = Storage(source_path)
    try:
        await source.open()  # claims the file (refused while a bot runs on it) and brings its schema up to date
    except DatabaseInUseError as exc:
        raise CopyFailedError(str(exc)) from None
    try:
        try:
            conn = await asyncpg.connect(target_url, timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise CopyFailedError(f"can't connect to PostgreSQL at {redact(target_url)}:"
                                  f" {str(exc) or type(exc).__name__}") from None
        try:
            return await _copy(source, conn)
        finally:
            await conn.close()
    finally:
        await source.close()


async def _copy(source: Storage, conn: asyncpg.Connection) -> CopyReport:
    report = CopyReport()
    assert source.db is not None, "the file is open"
    async with conn.transaction():  # the schema too: a refused copy leaves the target as it was
        try:
            await migrate_in(conn)
        except asyncpg.PostgresError as exc:
            raise CopyFailedError(f"the target database can't take heistcord's tables: {exc}") from None
        for table in TABLES:
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise CopyFailedError(f"the target database already has {table}: copy into an empty database.")
        copied: dict[str, list[tuple[Any, ...]]] = {}
        for table, columns in TABLES.items():
            async with source.db.execute(f"SELECT {', '.join(columns)} FROM {table}"
                                         f" ORDER BY {', '.join(KEYS[table])}") as cur:
                rows = [tuple(_value(c, v) for c, v in zip(columns, row, strict=True))
                        for row in await cur.fetchall()]
            if rows:
                await conn.copy_records_to_table(table, records=rows, columns=columns)
            copied[table] = rows
            report.rows[table] = len(rows)
        for table, column in (("games", "id"), ("actions", "id"), ("tutorial_runs", "id"), ("rated_games", "seq")):
            # new ids after the copied ones
            await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                               f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
        # Verify what the target now holds (read back through the same transaction).
        problems: list[str] = []
        for table, columns in TABLES.items():
            back = [tuple(_value(c, v) for c, v in zip(columns, row, strict=True)) for row in await conn.fetch(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(KEYS[table])}")]
            differing = [a or b for a, b in itertools.zip_longest(copied[table], back) if a != b]
            if differing:
                first = dict(zip(columns, differing[0], strict=True))
                problems.append(f"{table}: {len(differing)} rows differ from the file's (the first:"
                                f" {', '.join(f'{k} {first[k]}' for k in KEYS[table])})")
        log: dict[int, list[tuple[int, str]]] = {}
        for row in await conn.fetch("SELECT game_id, seat, action FROM actions ORDER BY game_id, seq"):
            log.setdefault(row["game_id"], []).append((row["seat"], row["action"]))
        results: dict[int, list[tuple[int, float, int, int]]] = {}
        for row in await conn.fetch("SELECT game_id, seat, score, rank, won FROM results"):
            results.setdefault(row["game_id"], []).append((row["seat"], float(row["score"]), row["rank"], row["won"]))
        for row in await conn.fetch("SELECT * FROM games ORDER BY id"):
            game = GameRow.from_row(row)
            problem = replay_matches(game, log.get(game.id, []), results.get(game.id))
            if problem:
                problems.append(problem)
            elif not game.started:
                report.unstarted += 1
            elif not replays_here_lazily(game):
                report.earlier += 1
            elif game.state is None:
                report.compacted += 1
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
