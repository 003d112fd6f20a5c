"""``python -m bot`` / ``heistcord``: run the bot; ``heistcord db copy``: SQLite to PostgreSQL; ``heistcord ratings
rebuild``: every ladder recomputed from the results; ``heistcord sync``: sync the slash commands with Discord now
(the bot otherwise syncs them only when they changed).

Every way start-up can fail ends with one line on stderr saying what to do (and never a secret): a
missing or malformed token, a database that can't be opened or doesn't answer (within about 10 s),
a token Discord refuses, the members intent not switched on in the Developer Portal, no route to
Discord."""
from __future__ import annotations

import re
import sys

from bot.app import configure_logging, create_bot
from bot.config import Config
from bot.storage import DatabaseInUseError, StorageError

# A bot token is three parts separated by dots (the bot's id, a time stamp, a signature); the client secret and the
# public key on the portal's other pages have none.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
WHERE_TOKEN = "the Developer Portal: your application's Bot tab, Reset Token"


def fail(message: str, status: int = 1) -> int:
    """Print the one line a failed start-up ends with; returns the exit status."""
    print(f"heistcord: {message}", file=sys.stderr)
    return status


async def check_storage(config: Config) -> None:
    """Open the database once and bring its schema up to date, before logging in to Discord: StorageError (one
    line) if it can't be, within about 10 s; DatabaseInUseError if another bot uses the SQLite file."""
    from bot.backend import make_storage

    storage = make_storage(config.db_path, config.database_url)
    await storage.open()
    await storage.close()


def run(config: Config) -> int:
    """Log in and serve until stopped; what Discord refuses at start-up, as one line."""
    import aiohttp
    import discord

    try:
        bot = create_bot(config)
    except (DatabaseInUseError, StorageError) as exc:
        return fail(str(exc))
    try:
        bot.run(config.token or "", log_handler=None)
    except discord.LoginFailure:
        return fail(f"Discord refused the token in DISCORD_TOKEN. Copy the bot token from {WHERE_TOKEN} (not the"
                    " client secret or the public key), into .env as DISCORD_TOKEN=...")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused the Server Members Intent that HEISTCORD_MEMBERS_INTENT=1 asks for: turn on"
                    " Server Members Intent in the Developer Portal (your application's Bot tab), or unset"
                    " HEISTCORD_MEMBERS_INTENT.")
    except aiohttp.ClientConnectorError as exc:
        return fail(f"can't reach Discord ({exc.host}): check this machine's network connection (DNS, a proxy or a"
                    " firewall may be in the way), then start the bot again.")
    except (StorageError, DatabaseInUseError) as exc:
        return fail(str(exc))
    return 0


def main(argv: list[str] | None = None) -> int:
    """The ``heistcord`` command: run the bot, ``heistcord db copy`` to move a database to PostgreSQL, or
    ``heistcord ratings rebuild``."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:2] == ["db", "copy"]:  # heistcord db copy --from <sqlite file> --to <postgresql url>
        try:
            from bot.dbcopy import main as db_copy
        except ModuleNotFoundError as exc:
            if exc.name != "asyncpg":
                raise
            return fail("heistcord db copy writes to PostgreSQL, whose support isn't installed: install it with"
                        " pip install 'heistcord[postgres]'.")
        return db_copy(argv[2:])
    if argv[:1] == ["ratings"]:  # heistcord ratings rebuild
        from bot.rebuild import main as ratings_main

        return ratings_main(argv[1:])
    if argv not in ([], ["sync"]):
        print("usage: heistcord                (run the bot; settings from the environment or .env)\n"
              "       heistcord sync           (sync the slash commands with Discord now, then stop)\n"
              "       heistcord db copy --from <sqlite file> --to <postgresql url>\n"
              "       heistcord ratings rebuild  (recompute every ladder from the stored results)", file=sys.stderr)
        return 2
    sync = argv == ["sync"]
    try:
        config = Config.from_env()
    except ValueError as exc:  # bot.config.ConfigError: one line saying which setting is wrong
        return fail(str(exc), 2)
    if not config.token:
        return fail("no bot token. Copy .env.example to .env and set DISCORD_TOKEN"
                    " (see docs/admin.md: 'Create the Discord application').", 2)
    if not TOKEN_SHAPE.fullmatch(config.token):
        return fail(f"DISCORD_TOKEN is not a bot token (a bot token has three parts separated by dots). Copy it from"
                    f" {WHERE_TOKEN}: the client secret on the OAuth2 page is not it.", 2)
    configure_logging(config.log_level)
    import asyncio

    try:  # the database is usable (its schema up to date) before logging in to Discord
        asyncio.run(check_storage(config))
    except (StorageError, DatabaseInUseError) as exc:
        return fail(str(exc))
    if sync:  # logs in over HTTP only (no gateway), syncs, stops; the running bot may keep the SQLite file
        from bot.app import HeistBot

        asyncio.run(sync_commands(HeistBot(config, sync_only=True), config.token))
        return 0
    return run(config)


async def sync_commands(bot, token: str) -> None:
    """``heistcord sync``: log in (its setup syncs the commands, whatever the stored hash says), then stop."""
    async with bot:
        await bot.login(token)


if __name__ == "__main__":
    sys.exit(main())
