"""``python -m bot`` / ``heistcord``: run the bot; ``heistcord db copy``: SQLite to PostgreSQL; ``heistcord ratings
rebuild``: every ladder recomputed from the results."""
from __future__ import annotations

import sys

from bot.app import configure_logging, create_bot
from bot.config import Config
from bot.storage import DatabaseInUseError, StorageError


def main(argv: list[str] | None = None) -> int:
    """The ``heistcord`` command: run the bot, ``heistcord db copy`` to move a database to PostgreSQL, or
    ``heistcord ratings rebuild``."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:2] == ["db", "copy"]:  # heistcord db copy --from <sqlite file> --to <postgresql url>
        from bot.dbcopy import main as db_copy

        return db_copy(argv[2:])
    if argv[:1] == ["ratings"]:  # heistcord ratings rebuild
        from bot.rebuild import main as ratings_main

        return ratings_main(argv[1:])
    if argv:
        print("usage: heistcord                (run the bot; settings from the environment or .env)\n"
              "       heistcord db copy --from <sqlite file> --to <postgresql url>\n"
              "       heistcord ratings rebuild  (recompute every ladder from the stored results)", file=sys.stderr)
        return 2
    try:
        config = Config.from_env()
    except ValueError as exc:  # bot.config.ConfigError: one line saying which setting is wrong
        print(f"heistcord: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print("heistcord: no bot token. Copy .env.example to .env and set DISCORD_TOKEN"
              " (see README: 'Create the Discord application').", file=sys.stderr)
        return 2
    configure_logging(config.log_level)
    if config.database_url:  # PostgreSQL: reachable (and its schema up to date) before logging in to Discord
        import asyncio

        from bot.storage_pg import check_database

        try:
            asyncio.run(check_database(config.database_url))
        except StorageError as exc:
            print(f"heistcord: {exc}", file=sys.stderr)
            return 1
    try:
        bot = create_bot(config)
    except DatabaseInUseError as exc:
        print(f"heistcord: {exc}", file=sys.stderr)
        return 1
    bot.run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
