"""Configuration from the environment (and an optional ``.env`` file)."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

DEFAULT_DB = "heistcord.sqlite3"


class ConfigError(ValueError):
    """A setting that can't be used; the message says which and why, in one line."""


def parse_shard_count(text: str) -> int | None:
    """``HEISTCORD_SHARD_COUNT``: empty for as many shards as Discord recommends."""
    text = text.strip()
    if not text:
        return None
    if not text.isdecimal() or int(text) < 1:
        raise ConfigError(f"HEISTCORD_SHARD_COUNT must be a whole number of shards, 1 or more (not '{text}').")
    return int(text)


def parse_shard_ids(text: str, count: int | None) -> list[int] | None:
    """``HEISTCORD_SHARD_IDS``: the shards this process runs, e.g. ``0-3`` or ``0,1,2``
    (or ``0-1,4``); empty for all of them. Each id is below the shard count."""
    text = text.strip()
    if not text:
        return None
    if count is None:
        raise ConfigError("HEISTCORD_SHARD_IDS needs HEISTCORD_SHARD_COUNT too: the total number of shards"
                          " across all processes.")
    ids: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdecimal() or (dash and not last.strip().isdecimal()):
            raise ConfigError(f"HEISTCORD_SHARD_IDS is a list of shard ids and ranges such as '0-3' or '0,1,2'"
                              f" (not '{text}').")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ConfigError(f"HEISTCORD_SHARD_IDS: the range '{part.strip()}' runs backwards.")
        ids.extend(range(low, high + 1))
    if max(ids) >= count:
        raise ConfigError(f"HEISTCORD_SHARD_IDS: shard {max(ids)} does not exist with HEISTCORD_SHARD_COUNT={count}"
                          f" (shard ids are 0 to {count - 1}).")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"HEISTCORD_SHARD_IDS names a shard twice ('{text}').")
    return ids


def parse_database_url(text: str) -> str | None:
    """``HEISTCORD_DATABASE_URL``: empty for the SQLite file (``HEISTCORD_DB``), or a
    ``postgresql://user:password@host:port/database`` URL."""
    text = text.strip()
    if not text:
        return None
    example = "postgresql://heistcord:password@localhost:5432/heistcord"
    if text.split("://", 1)[0] not in ("postgresql", "postgres") or "://" not in text:
        raise ConfigError(f"HEISTCORD_DATABASE_URL must be a PostgreSQL URL such as {example} (or empty for SQLite).")
    try:
        _ = urlsplit(text).port  # raises ValueError for a port that is not a number
    except ValueError:  # (the message would quote the URL, password and all)
        raise ConfigError(f"HEISTCORD_DATABASE_URL: the port after the host must be a number, as in {example}."
                          " (A password with ':', '@' or '/' in it must be percent-encoded.)") from None
    return text


def read_env_file(path: Path) -> dict[str, str]:
    """A ``.env`` file's settings (python-dotenv: ``export``, quotes, inline comments); none if there is no file."""
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path).items() if value is not None}


def parse_whole(env: Mapping[str, str], name: str, default: int | None, *, low: int, high: int,
                meaning: str) -> int | None:
    """A whole-number setting between ``low`` and ``high`` (``default`` when empty)."""
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdecimal() or not low <= int(text) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}: {meaning} (not '{text}').")
    return int(text)


def parse_seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """A positive number of seconds (``default`` when empty)."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ConfigError(f"{name} must be a number of seconds above 0 (not '{text}').")
    return value


@dataclass
class Config:
    """The bot's settings, read from the environment (and a .env file)."""
    token: str | None = None
    db_path: str = DEFAULT_DB
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_turn_minutes: int = 0  # 0 = no turn timer unless a guild or table sets one
    members_intent: bool = False  # privileged; lets the bot see players leave the server
    shard_count: int | None = None  # None: as many shards as Discord recommends
    shard_ids: list[int] | None = None  # the shards this process runs; None: all of them
    database_url: str | None = None  # postgresql://...: games in PostgreSQL, shared by many processes
    global_rate: int = 40  # requests per second the bot allows itself against Discord's global limit (50)
    metrics_port: int | None = None  # the Prometheus endpoint's port; None: no endpoint
    render_workers: int | None = None  # drawing processes; None: one per core but one; 0: a thread
    render_timeout: float = 15.0  # seconds a picture may take before it is given up
    search_workers: int = 1  # processes where hard bots think; 0: a thread

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> Config:
        """Settings from ``env`` (default: the process environment) over the .env file. Nothing is written to
        the environment: the parts that need a setting get it from this Config."""
        merged = read_env_file(env_file) if env_file else {}
        merged.update(os.environ if env is None else env)
        guild = merged.get("HEISTCORD_DEV_GUILD_ID", "").strip()
        minutes = merged.get("HEISTCORD_TURN_MINUTES", "").strip()
        shard_count = parse_shard_count(merged.get("HEISTCORD_SHARD_COUNT", ""))
        return cls(
            token=merged.get("DISCORD_TOKEN") or None,
            db_path=merged.get("HEISTCORD_DB", "").strip() or DEFAULT_DB,
            dev_guild_id=int(guild) if guild else None,
            log_level=(merged.get("HEISTCORD_LOG_LEVEL", "").strip() or "INFO").upper(),
            default_turn_minutes=int(minutes) if minutes else 0,
            members_intent=merged.get("HEISTCORD_MEMBERS_INTENT", "").strip().lower() in ("1", "true", "yes", "on"),
            shard_count=shard_count,
            shard_ids=parse_shard_ids(merged.get("HEISTCORD_SHARD_IDS", ""), shard_count),
            database_url=parse_database_url(merged.get("HEISTCORD_DATABASE_URL", "")),
            global_rate=parse_whole(merged, "HEISTCORD_GLOBAL_RATE", 40, low=1, high=10_000,
                                    meaning="requests per second (Discord allows a bot 50 in all)") or 40,
            metrics_port=parse_whole(merged, "HEISTCORD_METRICS_PORT", None, low=1, high=65535, meaning="a TCP port"),
            render_workers=parse_whole(merged, "HEISTCORD_RENDER_WORKERS", None, low=0, high=256,
                                       meaning="drawing processes (0 draws on a thread of the bot)"),
            render_timeout=parse_seconds(merged, "HEISTCORD_RENDER_TIMEOUT", 15.0),
            search_workers=parse_whole(merged, "HEISTCORD_SEARCH_WORKERS", 1, low=0, high=256,
                                       meaning="processes for the hard bots (0 thinks on a thread of the bot)") or 0,
        )
