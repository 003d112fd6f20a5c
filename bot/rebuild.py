"""``heistcord ratings rebuild``: recompute every ladder from the stored results (see ``docs/ratings.md``).

Uses the database the settings name (``HEISTCORD_DATABASE_URL``, else ``HEISTCORD_DB``). On SQLite, stop the bot
first (the file's lock refuses a second process); on PostgreSQL the bot processes may keep running (the rebuild
locks one server's ladders at a time). Says whether the ladders were already what the results give."""
from __future__ import annotations

import asyncio
import sys

from bot.backend import make_storage
from bot.config import Config
from bot.dburl import redact
from bot.storage import DatabaseInUseError, StorageError


async def rebuild(db_path: str, database_url: str | None) -> str:
    """Rebuild every ladder of the database; the report's text."""
    storage = make_storage(db_path, database_url)
    await storage.open()  # (games left waiting on a ladder are rated here already)
    try:
        before = await storage.all_ratings()
        ladders, rated = await storage.rebuild_ratings()
        after = await storage.all_ratings()
    finally:
        await storage.close()
    changed = len(set(before) ^ set(after))
    verdict = ("Nothing changed: the ratings were already what the results give." if not changed else
               f"{changed} rows differ from before (standings, changes or statuses).")
    where = redact(database_url) if database_url else db_path
    return (f"Rebuilt {ladders} ladder{'s' if ladders != 1 else ''} from the results in {where}: {rated} game"
            f"{'s' if rated != 1 else ''} rated. {verdict}")


def main(argv: list[str]) -> int:
    """The ``heistcord ratings rebuild`` command; returns its exit status."""
    if argv != ["rebuild"]:
        print("usage: heistcord ratings rebuild   (recompute every ladder from the stored results)", file=sys.stderr)
        return 2
    try:
        config = Config.from_env()
        print(asyncio.run(rebuild(config.db_path, config.database_url)))
    except (ValueError, DatabaseInUseError, StorageError) as exc:
        print(f"heistcord ratings rebuild: {exc}", file=sys.stderr)
        return 1
    return 0
