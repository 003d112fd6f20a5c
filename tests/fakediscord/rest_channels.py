"""REST routes for channels, threads, guilds, members, typing and DM channels."""

from __future__ import annotations

from typing import List, Optional

from .records import CREATE_PUBLIC_THREADS, MANAGE_THREADS, THREAD_ARCHIVE_DURATIONS, _Channel, _now_iso
from .rest import _error, _json_response, _no_content


class ChannelRoutesMixin:
    """Channel, thread, guild and DM-channel routes."""

    async def _r_get_channel(self, request, body, files, cid):
        ch = self.channels.get(int(cid))
        return _json_response(ch.payload(self)) if ch else _error(404, 10003, "Unknown Channel")

    # -- threads (https://discord.com/developers/docs/topics/threads)
    def bot_can(self, guild_id: int, permission: int) -> bool:
        return bool(self.guilds[guild_id].bot_permissions & permission)

    def thread_of(self, message_id: int) -> Optional[_Channel]:
        """The public thread started from a message (it shares the message's id)."""
        ch = self.channels.get(message_id)
        return ch if ch is not None and ch.is_thread else None

    def threads(self, parent_id: Optional[int] = None) -> List[_Channel]:
        return [c for c in self.channels.values() if c.is_thread and (parent_id is None or c.parent_id == parent_id)]

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """What Discord does after ``auto_archive_duration`` minutes without activity
        (or a moderator archiving/locking it): the thread becomes read-only."""
        ch = self.channels[thread_id]
        ch.archived, ch.locked, ch.archive_timestamp = True, locked, _now_iso()
        await self.dispatch("THREAD_UPDATE", ch.payload(self))

    async def lock_thread(self, thread_id: int, locked: bool = True) -> None:
        """A moderator locks (or unlocks) a thread and leaves it open: members without Manage Threads (the bot)
        can no longer post or edit there (403, 160005 Thread is locked)."""
        ch = self.channels[thread_id]
        ch.locked = locked
        await self.dispatch("THREAD_UPDATE", ch.payload(self))

    async def _unarchive(self, ch: _Channel) -> None:
        ch.archived, ch.archive_timestamp = False, _now_iso()
        await self.dispatch("THREAD_UPDATE", ch.payload(self))

    async def _r_start_thread(self, request, body, files, cid, mid):
        ch = self.channels.get(int(cid))
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        if m is None:
            return _error(404, 10008, "Unknown Message")
        if ch.type not in (0, 5):
            return _error(400, 50024, "Cannot execute action on this channel type")
        if not self.bot_can(ch.guild_id, CREATE_PUBLIC_THREADS):
            return _error(403, 50013, "Missing Permissions")
        if self.thread_of(m.id) is not None:
            return _error(400, 160004, "A thread has already been created for this message")
        body = body or {}
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration", 1440)
        if not 1 <= len(name) <= 100:
            return _error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        if duration not in THREAD_ARCHIVE_DURATIONS:
            return _error(400, 50035, "Invalid Form Body: auto_archive_duration")
        g = self.guilds[ch.guild_id]
        thread = _Channel(m.id, name, ch.guild_id, type=11 if ch.type == 0 else 10, parent_id=ch.id,
                          owner_id=self.bot_user.id, auto_archive_duration=int(duration),
                          archive_timestamp=_now_iso(), thread_members=[self.bot_user.id])
        g.channels[thread.id] = thread
        self.channels[thread.id] = thread
        await self.dispatch("THREAD_CREATE", {**thread.payload(self), "newly_created": True})
        return _json_response(thread.payload(self), 201)

    async def _r_add_thread_member(self, request, body, files, cid, uid):
        ch = self.channels.get(int(cid))
        if ch is None or not ch.is_thread:
            return _error(404, 10003, "Unknown Channel")
        if ch.archived:
            return _error(400, 50083, "Thread is archived")
        if int(uid) not in self.guilds[ch.guild_id].members:
            return _error(404, 10007, "Unknown Member")
        if int(uid) not in ch.thread_members:
            ch.thread_members.append(int(uid))
        return _no_content()

    async def _r_edit_channel(self, request, body, files, cid):
        ch = self.channels.get(int(cid))
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        body = body or {}
        if not ch.is_thread:
            return _error(403, 50013, "Missing Permissions")  # the bot never edits channels
        manage = self.bot_can(ch.guild_id, MANAGE_THREADS)
        if ch.locked and not manage:
            return _error(403, 50013, "Missing Permissions")
        if "locked" in body and not manage:
            return _error(403, 50013, "Missing Permissions")
        if not manage and ch.owner_id != self.bot_user.id and any(k in body for k in ("name", "auto_archive_duration")):
            return _error(403, 50013, "Missing Permissions")
        if "name" in body:
            if not 1 <= len(str(body["name"])) <= 100:
                return _error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
            ch.name = str(body["name"])
        if "auto_archive_duration" in body:
            if body["auto_archive_duration"] not in THREAD_ARCHIVE_DURATIONS:
                return _error(400, 50035, "Invalid Form Body: auto_archive_duration")
            ch.auto_archive_duration = int(body["auto_archive_duration"])
        if "locked" in body:
            ch.locked = bool(body["locked"])
        if "archived" in body:
            ch.archived = bool(body["archived"])
            ch.archive_timestamp = _now_iso()
        await self.dispatch("THREAD_UPDATE", ch.payload(self))
        return _json_response(ch.payload(self))

    async def _r_get_guild(self, request, body, files, gid):
        g = self.guilds.get(int(gid))
        if g is None:
            return _error(404, 10004, "Unknown Guild")
        p = self._guild_payload(g, 0)
        for k in ("members", "channels", "threads", "voice_states", "presences", "joined_at", "member_count", "large"):
            p.pop(k, None)
        return _json_response(p)

    async def _r_get_guild_channels(self, request, body, files, gid):
        g = self.guilds.get(int(gid))
        if g is None:
            return _error(404, 10004, "Unknown Guild")
        return _json_response([c.payload(self) for c in g.channels.values()])

    async def _r_get_roles(self, request, body, files, gid):
        g = self.guilds.get(int(gid))
        if g is None:
            return _error(404, 10004, "Unknown Guild")
        return _json_response([r.payload() for r in g.roles.values()])

    async def _r_get_member(self, request, body, files, gid, uid):
        g = self.guilds.get(int(gid))
        if g is None:
            return _error(404, 10004, "Unknown Guild")
        if int(uid) not in g.members:
            return _error(404, 10007, "Unknown Member")
        return _json_response(self._member_payload(int(gid), int(uid)))

    async def _r_typing(self, request, body, files, cid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        return _no_content()

    # -- DMs
    async def _r_create_dm(self, request, body, files):
        uid = int(body["recipient_id"])
        if uid not in self.users:
            return _error(400, 50033, "Invalid Recipient(s)")
        cid = self.dm_channel_id(uid)
        return _json_response(self.channels[cid].payload(self))
