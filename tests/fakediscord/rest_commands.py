"""REST routes that sync and list the bot's application (slash) commands."""

from __future__ import annotations

from typing import List, Optional

from .rest import _json_response


class CommandRoutesMixin:
    """Application command sync (global and per guild)."""

    # -- commands
    def _store_commands(self, payload: List[dict], guild_id: Optional[int]) -> List[dict]:
        old = {(c["name"], c.get("type", 1)): c for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)}
        out = []
        for c in payload or []:
            prev = old.get((c["name"], c.get("type", 1)))
            cmd = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **c,
                "id": prev["id"] if prev else str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
            }
            if guild_id:
                cmd["guild_id"] = str(guild_id)
            out.append(cmd)
        if guild_id:
            self.guild_commands[guild_id] = out
        else:
            self.global_commands = out
        return out

    async def _r_put_global_commands(self, request, body, files, app_id):
        return _json_response(self._store_commands(body, None))

    async def _r_get_global_commands(self, request, body, files, app_id):
        return _json_response(self.global_commands)

    async def _r_put_guild_commands(self, request, body, files, app_id, gid):
        return _json_response(self._store_commands(body, int(gid)))

    async def _r_get_guild_commands(self, request, body, files, app_id, gid):
        return _json_response(self.guild_commands.get(int(gid), []))
