"""Configuration from the environment (and an optional ``.env`` file)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

DEFAULT_DB = "heistcord.sqlite3"


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; ``#`` comments and blank lines skipped; quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip("'\"")
    return values


@dataclass
class Config:
    token: str | None = None
    db_path: str = DEFAULT_DB
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_turn_minutes: int = 0  # 0 = no turn timer unless a guild or table sets one
    members_intent: bool = False  # privileged; lets the bot see players leave the server

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> "Config":
        merged: dict[str, str] = read_env_file(env_file) if env_file else {}
        merged.update(os.environ if env is None else env)
        guild = merged.get("HEISTCORD_DEV_GUILD_ID", "").strip()
        minutes = merged.get("HEISTCORD_TURN_MINUTES", "").strip()
        return cls(
            token=merged.get("DISCORD_TOKEN") or None,
            db_path=merged.get("HEISTCORD_DB", "").strip() or DEFAULT_DB,
            dev_guild_id=int(guild) if guild else None,
            log_level=(merged.get("HEISTCORD_LOG_LEVEL", "").strip() or "INFO").upper(),
            default_turn_minutes=int(minutes) if minutes else 0,
            members_intent=merged.get("HEISTCORD_MEMBERS_INTENT", "").strip().lower() in ("1", "true", "yes", "on"),
        )
