"""``python -m bot`` / ``heistcord``: run the bot; ``heistcord db copy``: SQLite to PostgreSQL; ``heistcord sync``:
sync the slash commands with Discord now (the bot otherwise syncs them only when they changed)."""
from __future__ import annotations

import sys

from bot.app import configure_logging, create_bot
from bot.config import Config
from bot.storage import DatabaseInUseError, StorageError


def main(argv: list[str] | None = None) -> int:
    """The ``heistcord`` command: run the bot, or ``heistcord db copy`` to move a database to PostgreSQL."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:2] == ["db", "copy"]:  # heistcord db copy --from <sqlite file> --to <postgresql url>
        from bot.dbcopy import main as db_copy

        return db_copy(argv[2:])
    if argv not in ([], ["sync"]):
        print("usage: heistcord                (run the bot; settings from the environment or .env)\n"
              "       heistcord sync           (sync the slash commands with Discord now, then stop)\n"
              "       heistcord db copy --from <sqlite file> --to <postgresql url>", file=sys.stderr)
        return 2
    sync = argv == ["sync"]
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
    if sync:  # logs in over HTTP only (no gateway), syncs, stops; the running bot may keep the SQLite file
        import asyncio

        from bot.app import HeistBot

        asyncio.run(sync_commands(HeistBot(config, sync_only=True), config.token))
        return 0
    try:
        bot = create_bot(config)
    except DatabaseInUseError as exc:
        print(f"heistcord: {exc}", file=sys.stderr)
        return 1
    bot.run(config.token, log_handler=None)
    return 0


async def sync_commands(bot, token: str) -> None:
    """``heistcord sync``: log in (its setup syncs the commands, whatever the stored hash says), then stop."""
    async with bot:
        await bot.login(token)


if __name__ == "__main__":
    sys.exit(main())
