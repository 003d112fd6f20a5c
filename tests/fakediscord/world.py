"""The world a test sets up before the bot connects (users, guilds, roles, channels, members,
permissions) and the JSON payloads Discord sends for them."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from .records import (
    ALL_PERMISSIONS_NO_ADMIN,
    INTENT_PRESENCES,
    RecordedMessage,
    _Channel,
    _Guild,
    _Member,
    _now_iso,
    _Role,
    _User,
)


class WorldMixin:
    """Setting up and describing the fake's users, guilds, channels and members."""

    # ---------------------------------------------------------- world model
    def add_user(self, user_id: int, name: Optional[str] = None, dms_closed: bool = False, *, bot: bool = False) -> None:
        self.users[user_id] = _User(user_id, name or f"user{user_id}", dms_closed=dms_closed, bot=bot)

    def set_dms_closed(self, user_id: int, closed: bool = True) -> None:
        self.users[user_id].dms_closed = closed

    def add_guild(
        self,
        guild_id: int,
        name: str = "Fake Guild",
        owner_id: Optional[int] = None,
        *,
        bot_permissions: int = ALL_PERMISSIONS_NO_ADMIN,
        everyone_permissions: int = 0x0000_0000_0006_4C40,  # view/send/read history/embed/attach/use cmds
    ) -> None:
        if owner_id is None:
            owner_id = self.bot_user.id
        g = _Guild(guild_id, name, owner_id, bot_permissions)
        g.roles[guild_id] = _Role(guild_id, "@everyone", everyone_permissions | (1 << 31), 0)
        g.members[self.bot_user.id] = _Member(self.bot_user.id, [], bot_permissions)
        self.guilds[guild_id] = g
        if owner_id in self.users and owner_id not in g.members:
            g.members[owner_id] = _Member(owner_id, [], None)

    def add_role(self, guild_id: int, role_id: int, name: str, permissions: int = 0, *, position: Optional[int] = None) -> None:
        g = self.guilds[guild_id]
        g.roles[role_id] = _Role(role_id, name, permissions, len(g.roles) if position is None else position)

    def add_channel(
        self, guild_id: int, channel_id: int, name: str, *, type: int = 0, parent_id: Optional[int] = None,
        topic: Optional[str] = None,
    ) -> None:
        g = self.guilds[guild_id]
        ch = _Channel(channel_id, name, guild_id, type=type, position=len(g.channels), parent_id=parent_id, topic=topic)
        g.channels[channel_id] = ch
        self.channels[channel_id] = ch

    async def delete_channel(self, channel_id: int, *, dispatch: bool = True) -> None:
        """Delete a guild channel (or thread): every later request to it answers 404, 10003
        Unknown Channel. ``dispatch=False`` models a bot that missed CHANNEL_DELETE (offline)."""
        ch = self.channels.pop(channel_id)
        self.guilds[ch.guild_id].channels.pop(channel_id, None)
        if dispatch:
            event = "THREAD_DELETE" if ch.type in (10, 11, 12) else "CHANNEL_DELETE"
            data = ch.payload(self)
            if event == "THREAD_DELETE":
                data = {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": data["parent_id"], "type": ch.type}
            await self.dispatch(event, data)

    def deny_bot(self, channel_id: int, code: int = 50013) -> None:
        """Take the bot's permission to post in a channel: creating or editing messages there
        answers 403 with ``code`` (50013 Missing Permissions, or 50001 Missing Access)."""
        self.bot_denied[channel_id] = code

    async def allow_bot(self, channel_id: int) -> None:
        """Give the permission back (dispatches CHANNEL_UPDATE, as an overwrite change does)."""
        self.bot_denied.pop(channel_id, None)
        ch = self.channels[channel_id]
        if ch.is_thread:  # a thread's permissions are its parent channel's overwrites
            ch = self.channels[ch.parent_id]
        await self.dispatch("CHANNEL_UPDATE", ch.payload(self))

    async def delete_message(self, message_id: int) -> None:
        """Someone (a moderator, or the recipient of a DM) deletes a message: later requests
        about it answer 404, 10008 Unknown Message."""
        m = self.messages[int(message_id)]
        m.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", m)

    def requests_to_channel(self, channel_id: int) -> List[dict]:
        """Every REST request the bot made about one channel (``channels/<id>...``)."""
        prefix = f"channels/{channel_id}"
        return [r for r in self.requests if r["path"] == prefix or r["path"].startswith(prefix + "/")]

    def add_member(
        self, guild_id: int, user_id: int, permissions: Optional[int] = None, roles: Iterable[int] = (),
        *, nick: Optional[str] = None,
    ) -> None:
        """Add a member. ``permissions`` is what interactions report as the member's resolved
        permissions; by default it is computed from @everyone + ``roles``."""
        if user_id not in self.users:
            self.add_user(user_id)
        self.guilds[guild_id].members[user_id] = _Member(user_id, [int(r) for r in roles], permissions, nick)

    def dm_channel_id(self, user_id: int) -> int:
        """Id of the (bot <-> user) DM channel, created on demand."""
        if user_id not in self.dm_channels:
            cid = self.snowflake()
            self.dm_channels[user_id] = cid
            self.channels[cid] = _Channel(cid, "", None, type=1, recipient_id=user_id)
        return self.dm_channels[user_id]

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        g = self.guilds[guild_id]
        m = g.members[user_id]
        if m.permissions is not None:
            return m.permissions
        if user_id == g.owner_id:
            return (1 << 51) - 1
        perms = g.roles[guild_id].permissions
        for r in m.roles:
            if r in g.roles:
                perms |= g.roles[r].permissions
        if perms & 8:
            return (1 << 51) - 1
        return perms

    # ------------------------------------------------------------- payloads
    def _member_payload(self, guild_id: int, user_id: int, *, with_user: bool = True, with_perms: bool = False) -> dict:
        m = self.guilds[guild_id].members[user_id]
        d = {
            "roles": [str(r) for r in m.roles],
            "nick": m.nick,
            "avatar": None,
            "joined_at": m.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.users[user_id].payload()
        if with_perms:
            d["permissions"] = str(self.member_permissions(guild_id, user_id))
        return d

    def _guild_payload(self, g: _Guild, intents: int) -> dict:
        if intents & INTENT_PRESENCES:
            members = [self._member_payload(g.id, uid) for uid in g.members]
        else:  # like Discord: only ourselves without the presence intent
            members = [self._member_payload(g.id, self.bot_user.id)]
        return {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(g.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "features": [],
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "roles": [r.payload() for r in g.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(g.members),
            "voice_states": [],
            "members": members,
            "channels": [c.payload(self) for c in g.channels.values()],
            "threads": [c.payload(self) for c in self.channels.values()
                        if c.is_thread and c.guild_id == g.id and not c.archived and not c.deleted],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _app_payload(self) -> dict:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None, "global_name": None},
            "team": None,
            "verify_key": "00" * 32,
            "flags": 0,
            "summary": "",
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "bot": self.bot_user.payload(),
        }

    def message_payload(self, m: RecordedMessage) -> dict:
        d: Dict[str, Any] = {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            "type": m.type,
            "content": m.content,
            "author": self.users[m.author_id].payload() if m.author_id in self.users else self.bot_user.payload(),
            "attachments": [dict(a) for a in m.attachments],
            "embeds": [dict(e) for e in m.embeds],
            "components": m.components,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": m.timestamp,
            "edited_timestamp": m.edited_timestamp,
            "flags": m.flags,
        }
        if m.guild_id is not None:
            d["guild_id"] = str(m.guild_id)
            thread = self.thread_of(m.id)
            if thread is not None and thread.id != m.channel_id:
                d["thread"] = thread.payload(self)
                d["flags"] = m.flags | (1 << 5)  # HAS_THREAD
        if m.webhook_id:
            d["webhook_id"] = str(m.webhook_id)
        if m.application_id:
            d["application_id"] = str(m.application_id)
        if m.interaction_id is not None and m.interaction_id in self.interactions:
            rec = self.interactions[m.interaction_id]
            d["interaction_metadata"] = {
                "id": str(rec.id),
                "type": rec.type,
                "user": self.users[rec.user_id].payload(),
                "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
            }
        d.update(m.extra)
        return d
