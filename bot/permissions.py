"""Who may manage games on a server: Manage Server (or Administrator), or the role the
server configured with ``/admin``. Both the bot (``bot/app.py``) and the cogs import this
module; it imports neither, so there is no import loop."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.storage import StorageError

if TYPE_CHECKING:
    from bot.storage import Storage

log = logging.getLogger("heistcord.permissions")


def manages_server(interaction: discord.Interaction) -> bool:
    """Manage Server (or Administrator): the only power that changes server settings."""
    perms = getattr(interaction, "permissions", None)
    return perms is not None and (perms.manage_guild or perms.administrator)


class ManagerRoles:
    """The game-manager role of each server, read from its settings when a command or button
    arrives (``refresh``), so that ``is_manager`` answers at once."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._roles: dict[int, int | None] = {}

    def is_manager(self, interaction: discord.Interaction) -> bool:
        """Manage Server permission, or the role the server configured (which manages games)."""
        if manages_server(interaction):
            return True
        role_id = self._roles.get(interaction.guild_id)  # type: ignore[arg-type]
        roles = getattr(interaction.user, "roles", [])
        return bool(role_id and any(r.id == role_id for r in roles))

    async def refresh(self, guild_id: int) -> None:
        """Read a guild's manager role from its stored settings again. If the database can't be read, the role
        read last is kept: the command's own work meets the same failure and says so."""
        try:
            self._roles[guild_id] = (await self.storage.settings(guild_id)).manager_role_id
        except StorageError as exc:
            log.debug("manager role of guild %s not read again: %s", guild_id, exc)
