"""Fake Discord server: REST (``/api/v10``) + websocket gateway on 127.0.0.1.

Written against discord.py 2.7.1's client code (http.py, gateway.py, state.py,
interactions.py, webhook/async_.py).  Only what a bot normally uses is
implemented; everything else answers 404 and is recorded in ``fake.unhandled``.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import json
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from aiohttp import WSMsgType, web

from . import limits as _limits

__all__ = ["FakeDiscord", "InteractionRecord", "RecordedMessage", "DiscordErrorCollector"]

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Gateway intents (bits) that gate events.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_PRESENCES = 1 << 8

ALL_PERMISSIONS_NO_ADMIN = ((1 << 51) - 1) & ~8
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

# Application command option types
OPT_SUBCOMMAND = 1
OPT_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11

_log = logging.getLogger(__name__)


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py checks ``content-type == 'application/json'`` exactly (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"code": code, "message": message}, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


# ---------------------------------------------------------------------------
# Recorded state
# ---------------------------------------------------------------------------


@dataclass
class RecordedMessage:
    """A message as Discord currently stores it (state after edits)."""

    id: int
    channel_id: int
    guild_id: Optional[int]
    author_id: int
    content: str = ""
    embeds: List[dict] = field(default_factory=list)
    components: List[dict] = field(default_factory=list)
    flags: int = 0
    #: ``[(filename, bytes)]`` of the current attachments
    files: List[Tuple[str, bytes]] = field(default_factory=list)
    #: attachment payloads (id, filename, url, size ...) parallel to ``files``
    attachments: List[dict] = field(default_factory=list)
    #: "channel", "dm", "interaction" (initial response) or "followup"
    kind: str = "channel"
    interaction_id: Optional[int] = None
    deleted: bool = False
    edited: bool = False
    #: every body (dict) that created or edited this message, in order
    history: List[dict] = field(default_factory=list)
    webhook_id: Optional[int] = None
    application_id: Optional[int] = None
    type: int = 0
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: Optional[str] = None
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def embed_texts(self) -> str:
        """All text of all embeds joined (titles, descriptions, fields, footers)."""
        parts: List[str] = []
        for e in self.embeds:
            for k in ("title", "description"):
                if e.get(k):
                    parts.append(str(e[k]))
            for f in e.get("fields", []) or []:
                parts.append(str(f.get("name", "")))
                parts.append(str(f.get("value", "")))
            for k in ("footer", "author"):
                if isinstance(e.get(k), dict) and e[k].get("text" if k == "footer" else "name"):
                    parts.append(str(e[k].get("text" if k == "footer" else "name")))
        return "\n".join(parts)

    def __repr__(self) -> str:
        return (
            f"<RecordedMessage id={self.id} channel={self.channel_id} kind={self.kind} flags={self.flags} "
            f"content={self.content[:60]!r} embeds={len(self.embeds)} components={len(self.components)} "
            f"files={[f for f, _ in self.files]}>"
        )


class InteractionRecord:
    """One interaction sent by :class:`FakeDiscord` and everything the bot did with it."""

    def __init__(self, fake: "FakeDiscord", payload: dict, source_message: Optional[RecordedMessage]):
        self._fake = fake
        self.payload: dict = payload
        self.id: int = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.channel_id: int = int(payload["channel_id"])
        self.guild_id: Optional[int] = int(payload["guild_id"]) if payload.get("guild_id") else None
        self.user_id: int = int((payload.get("member") or {}).get("user", payload.get("user", {})).get("id"))
        #: the message a component/modal interaction came from
        self.source_message: Optional[RecordedMessage] = source_message
        #: the raw callback body (dict with ``type`` and ``data``; files under ``data['_files']``)
        self.callback: Optional[dict] = None
        #: the message that ``@original`` refers to (response message, or the component message for 6/7)
        self.original: Optional[RecordedMessage] = None
        #: follow-up messages (``POST /webhooks/{app}/{token}``)
        self.followups: List[RecordedMessage] = []
        #: edits made through the webhook (``PATCH .../messages/@original`` or ``/messages/{id}``)
        #: as dicts ``{"message_id", "original", "payload", "files"}``
        self.edits: List[dict] = []
        self._response_fut: asyncio.Future = asyncio.get_running_loop().create_future()

    # -- convenience -----------------------------------------------------
    @property
    def responded(self) -> bool:
        return self.callback is not None

    async def response(self, timeout: float = 5) -> dict:
        """Wait for the initial callback and return it (``{"type": int, "data": {...}}``)."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._response_fut), timeout)
        except asyncio.TimeoutError:
            raise asyncio.TimeoutError(
                f"bot did not respond to interaction {self.id} ({self.describe()}) within {timeout}s"
            ) from None

    @property
    def response_type(self) -> Optional[int]:
        return None if self.callback is None else self.callback["type"]

    @property
    def message(self) -> Optional[RecordedMessage]:
        """The message produced by the response: the response message (type 4/5, after edits)
        or the updated component message (type 6/7)."""
        return self.original

    @property
    def choices(self) -> Optional[List[dict]]:
        """Autocomplete choices (type 8 callback)."""
        if self.callback and self.callback["type"] == 8:
            return list(self.callback.get("data", {}).get("choices", []))
        return None

    @property
    def modal(self) -> Optional[dict]:
        """The modal payload (type 9 callback)."""
        if self.callback and self.callback["type"] == 9:
            return self.callback.get("data")
        return None

    @property
    def messages(self) -> List[RecordedMessage]:
        """Original (if it is a message) and all follow-ups, without duplicates."""
        out: List[RecordedMessage] = []
        for m in ([self.original] if self.original else []) + self.followups:
            if m not in out:
                out.append(m)
        return out

    async def wait_followups(self, count: int = 1, timeout: float = 5) -> List[RecordedMessage]:
        await self._fake.wait_for(lambda: len(self.followups) >= count, timeout)
        return self.followups

    async def wait_done(self, timeout: float = 5) -> "InteractionRecord":
        """Wait for the response and for a deferred ("thinking") original to be filled in."""
        await self.response(timeout)
        await self._fake.wait_for(lambda: not (self.original and self.original.loading), timeout)
        return self

    def describe(self) -> str:
        d = self.payload.get("data", {})
        return f"type={self.type} name={d.get('name')!r} custom_id={d.get('custom_id')!r}"

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} {self.describe()} response_type={self.response_type}>"


# ---------------------------------------------------------------------------
# World model
# ---------------------------------------------------------------------------


@dataclass
class _User:
    id: int
    name: str
    dms_closed: bool = False
    bot: bool = False
    global_name: Optional[str] = None

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class _Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class _Channel:
    id: int
    name: str
    guild_id: Optional[int]
    type: int = 0
    position: int = 0
    parent_id: Optional[int] = None
    topic: Optional[str] = None
    recipient_id: Optional[int] = None  # DM channels
    # threads (type 11, public): who started it, archive state, members
    owner_id: Optional[int] = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = ""
    thread_members: List[int] = field(default_factory=list)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self, fake: "FakeDiscord") -> dict:
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [fake.users[self.recipient_id].payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": self.topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            **(self._thread_fields() if self.is_thread else {}),
        }

    def _thread_fields(self) -> dict:
        return {
            "owner_id": str(self.owner_id) if self.owner_id else None,
            "member_count": min(50, len(self.thread_members)),
            "message_count": 0,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": self.archive_timestamp,
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
            },
        }


@dataclass
class _Member:
    user_id: int
    roles: List[int]
    permissions: Optional[int]
    nick: Optional[str] = None
    joined_at: str = field(default_factory=_now_iso)


@dataclass
class _Guild:
    id: int
    name: str
    owner_id: int
    bot_permissions: int
    roles: Dict[int, _Role] = field(default_factory=dict)
    channels: Dict[int, _Channel] = field(default_factory=dict)
    members: Dict[int, _Member] = field(default_factory=dict)


@dataclass
class _Session:
    ws: web.WebSocketResponse
    session_id: str = ""
    intents: int = 0
    seq: int = 0
    identified: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


# ---------------------------------------------------------------------------
# The fake
# ---------------------------------------------------------------------------


class FakeDiscord:
    """Fake Discord API + gateway.

    Typical use::

        fake = FakeDiscord()
        fake.add_guild(guild_id=1, name="G", owner_id=10)
        fake.add_channel(1, 100, "general")
        fake.add_user(10, "alice"); fake.add_member(1, 10)
        await fake.start(); fake.install()
        ...
        fake.uninstall(); await fake.stop()
    """

    def __init__(
        self,
        *,
        application_id: int = 900000000000000001,
        bot_name: str = "FakeBot",
        dispatch_message_events: bool = True,
    ) -> None:
        self.application_id = application_id
        self.bot_user = _User(application_id, bot_name, bot=True)
        self.dispatch_message_events = dispatch_message_events
        self.users: Dict[int, _User] = {self.bot_user.id: self.bot_user}
        self.guilds: Dict[int, _Guild] = {}
        self.channels: Dict[int, _Channel] = {}  # all channels incl. DMs
        self.dm_channels: Dict[int, int] = {}  # user_id -> dm channel id
        self.messages: Dict[int, RecordedMessage] = {}
        self.interactions: Dict[int, InteractionRecord] = {}
        self._interactions_by_token: Dict[str, InteractionRecord] = {}
        #: synced global commands (list of command dicts with ids)
        self.global_commands: List[dict] = []
        #: synced guild commands: guild_id -> list
        self.guild_commands: Dict[int, List[dict]] = {}
        #: every REST request: dicts {method, path, query, json}
        self.requests: List[dict] = []
        #: REST requests nothing answered: (method, path, body)
        self.unhandled: List[Tuple[str, str, Any]] = []
        #: DM attempts refused because the user has DMs closed: (user_id, payload)
        self.blocked_dms: List[Tuple[int, dict]] = []
        #: channels where the bot lacks a permission: channel_id -> error code (50013 or 50001)
        self.bot_denied: Dict[int, int] = {}
        #: requests refused (400, code 50035) for breaking one of Discord's documented limits:
        #: dicts {method, path, errors (flat list of "path: message")}. The fixture fails a test
        #: that leaves any here.
        self.rejected: List[dict] = []
        #: every gateway payload received from clients (op, d)
        self.gateway_received: List[dict] = []
        self._public: List[Any] = []
        self._attachment_blobs: Dict[int, Tuple[str, bytes]] = {}
        self._sessions: List[_Session] = []
        self._counter = itertools.count(1)
        self._waiters: List[asyncio.Future] = []
        self._runner: Optional[web.AppRunner] = None
        self._site: Optional[web.TCPSite] = None
        self.port: Optional[int] = None
        self._installed: Optional[tuple] = None
        self._routes = self._build_routes()
        self._inflight = 0
        self._last_activity = 0.0

    # ------------------------------------------------------------------ ids
    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> "FakeDiscord":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("GET", "/gateway/", self._gateway_handler)
        app.router.add_route("GET", "/attachments/{id}/{filename}", self._attachment_handler)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest_handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        self.port = self._site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for s in list(self._sessions):
            if not s.ws.closed:
                try:
                    await s.ws.close(code=1001)
                except Exception:
                    pass
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        self.install()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.uninstall()
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    def install(self) -> None:
        """Point discord.py (REST, webhooks, gateway) at this fake."""
        import yarl
        import discord.http
        from discord.gateway import DiscordWebSocket

        if self.port is None:
            raise RuntimeError("start() the fake before install()")
        if self._installed is None:
            self._installed = (discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        # Route.url is computed from the class attribute at construction time, and the
        # webhook adapter (interaction callbacks/follow-ups) uses the same Route class.
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        # Client.connect() uses DEFAULT_GATEWAY directly (no GET /gateway/bot) for the
        # first connection; resumes use READY's resume_gateway_url (also ours).
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def uninstall(self) -> None:
        import discord.http
        from discord.gateway import DiscordWebSocket

        if self._installed is not None:
            discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._installed
            self._installed = None

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

    # ---------------------------------------------------------- recording
    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every recorded change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise asyncio.TimeoutError(f"condition not met within {timeout}s")
            fut = loop.create_future()
            self._waiters.append(fut)
            try:
                await asyncio.wait_for(fut, min(remaining, 0.25))
            except asyncio.TimeoutError:
                pass

    async def settle(self, quiet: float = 0.05, timeout: float = 5) -> None:
        """Wait until no REST request is in flight and none arrived for ``quiet`` seconds
        (i.e. the bot looks idle)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle_for = time.monotonic() - self._last_activity
            if self._inflight == 0 and idle_for >= quiet:
                return
            if loop.time() > deadline:
                raise asyncio.TimeoutError(f"bot still busy after {timeout}s")
            await asyncio.sleep(max(0.005, quiet - idle_for) if self._inflight == 0 else 0.01)

    def _record_public(self, payload: Any, files: List[Tuple[str, bytes]]) -> None:
        self._public.append(payload)
        for name, data in files:
            self._public.append(name)
            self._public.append(data)

    def all_public_payloads(self) -> List[Any]:
        """Every JSON body (dict), filename (str) and file content (bytes) the bot ever sent to a
        guild channel, or as a non-ephemeral interaction response / follow-up / edit in a guild.
        (DMs, ephemeral messages, modals and autocomplete choices are private and not included.)"""
        return list(self._public)

    def public_mark(self) -> int:
        """A bookmark for :meth:`public_text` ``(since=...)``: how many public payloads so far."""
        return len(self._public)

    def public_text(self, since: int = 0) -> str:
        """:meth:`all_public_payloads` (from bookmark ``since``) flattened into one string
        (bytes decoded leniently)."""
        out = []
        for p in self._public[since:]:
            if isinstance(p, bytes):
                out.append(p.decode("utf-8", "replace"))
                out.append(p.decode("latin-1"))
            elif isinstance(p, str):
                out.append(p)
            else:
                out.append(json.dumps(p, ensure_ascii=False))
        return "\n".join(out)

    def channel_messages(self, channel_id: int, *, include_ephemeral: bool = True, include_deleted: bool = False) -> List[RecordedMessage]:
        return [
            m for m in self.messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted) and (include_ephemeral or not m.ephemeral)
        ]

    def public_messages(self, channel_id: int, *, threads: bool = True) -> List[RecordedMessage]:
        """What anyone reading the channel sees: its public messages and, unless
        ``threads=False``, those of the threads started in it, in the order they were sent."""
        ids = {channel_id} | ({t.id for t in self.threads(channel_id)} if threads else set())
        return sorted((m for cid in ids for m in self.channel_messages(cid, include_ephemeral=False)),
                      key=lambda m: m.id)

    def dms(self, user_id: int, *, include_deleted: bool = False) -> List[RecordedMessage]:
        """Messages the bot sent to ``user_id`` in their DM channel (including interaction responses there)."""
        cid = self.dm_channels.get(user_id)
        if cid is None:
            return []
        return [m for m in self.channel_messages(cid, include_deleted=include_deleted) if m.author_id == self.bot_user.id]

    def get_message(self, message_id: int) -> RecordedMessage:
        return self.messages[int(message_id)]

    # -------------------------------------------------------------- components
    @staticmethod
    def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
        for c in components or []:
            yield c
            if isinstance(c.get("components"), list):
                yield from FakeDiscord._walk_components(c["components"])
            for key in ("accessory", "component"):
                if isinstance(c.get(key), dict):
                    yield from FakeDiscord._walk_components([c[key]])

    def find_components(
        self, message: Union[RecordedMessage, dict, List[dict]], *, label: Optional[str] = None,
        custom_id: Optional[str] = None, custom_id_prefix: Optional[str] = None, type: Optional[int] = None,
        label_contains: Optional[str] = None,
    ) -> List[dict]:
        if isinstance(message, RecordedMessage):
            comps = message.components
        elif isinstance(message, dict):
            comps = message.get("components", [])
        else:
            comps = message
        out = []
        for c in self._walk_components(comps):
            if c.get("type") in (1, 17, 9, 18) and type is None and "custom_id" not in c:
                continue  # containers
            if label is not None and c.get("label") != label:
                continue
            if label_contains is not None and label_contains not in (c.get("label") or ""):
                continue
            if custom_id is not None and c.get("custom_id") != custom_id:
                continue
            if custom_id_prefix is not None and not str(c.get("custom_id", "")).startswith(custom_id_prefix):
                continue
            if type is not None and c.get("type") != type:
                continue
            out.append(c)
        return out

    def find_component(self, message: Union[RecordedMessage, dict, List[dict]], **kwargs: Any) -> dict:
        """First component matching (label=, custom_id=, custom_id_prefix=, type=, label_contains=).
        Raises LookupError listing what is there if none matches."""
        found = self.find_components(message, **kwargs)
        if not found:
            comps = message.components if isinstance(message, RecordedMessage) else message
            have = [
                (c.get("type"), c.get("label"), c.get("custom_id"))
                for c in self._walk_components(comps if isinstance(comps, list) else comps.get("components", []))
            ]
            raise LookupError(f"no component matching {kwargs}; message has {have}")
        return found[0]

    # ---------------------------------------------------------------- gateway
    def _live_sessions(self) -> List[_Session]:
        return [s for s in self._sessions if s.identified and not s.ws.closed]

    @property
    def connected(self) -> bool:
        return bool(self._live_sessions())

    async def _send(self, s: _Session, op: int, d: Any, t: Optional[str] = None) -> bool:
        async with s.lock:
            if s.ws.closed:
                return False
            msg: Dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
            if op == 0:
                s.seq += 1
                msg["s"] = s.seq
            try:
                await s.ws.send_str(json.dumps(msg))
            except (ConnectionError, RuntimeError):
                return False
            return True

    async def dispatch(self, event: str, data: dict, *, intent: int = 0, latest_only: bool = False) -> int:
        """Send a DISPATCH event to connected bot sessions (those whose intents include ``intent``).
        Returns the number of sessions it was sent to."""
        self._last_activity = time.monotonic()
        sessions = self._live_sessions()
        if latest_only:
            sessions = sessions[-1:]
        n = 0
        for s in sessions:
            if intent and not (s.intents & intent):
                continue
            if await self._send(s, 0, data, event):
                n += 1
        return n

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        s = _Session(ws)
        self._sessions.append(s)
        await self._send(s, 10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_received.append(payload)
                op, d = payload.get("op"), payload.get("d")
                if op == 1:
                    await self._send(s, 11, None)
                elif op == 2:
                    await self._identify(s, d)
                elif op == 6:
                    # No resume support: invalidate -> the client re-IDENTIFYs.
                    await self._send(s, 9, False)
                elif op == 8:
                    await self._request_members(s, d)
                # op 3 presence, 4 voice: ignored
        finally:
            self._notify()
        return ws

    async def _identify(self, s: _Session, d: dict) -> None:
        s.intents = int(d.get("intents", 0))
        s.session_id = secrets.token_hex(16)
        s.identified = True
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0, "email": None},
            "guilds": [{"id": str(gid), "unavailable": True} for gid in self.guilds],
            "session_id": s.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "session_type": "normal",
            "auth_session_id_hash": "",
            "_trace": ["fakediscord"],
        }
        if d.get("shard"):
            ready["shard"] = d["shard"]
        await self._send(s, 0, ready, "READY")
        for g in self.guilds.values():
            await self._send(s, 0, self._guild_payload(g, s.intents), "GUILD_CREATE")
        self._notify()

    async def _request_members(self, s: _Session, d: dict) -> None:
        gid = int(d["guild_id"])
        g = self.guilds.get(gid)
        if g is None:
            return
        user_ids = d.get("user_ids")
        not_found: List[str] = []
        if user_ids:
            if not isinstance(user_ids, list):
                user_ids = [user_ids]
            ids = []
            for u in user_ids:
                (ids if int(u) in g.members else not_found).append(int(u))
            not_found = [str(x) for x in not_found]
        else:
            query = (d.get("query") or "").lower()
            ids = [uid for uid in g.members if self.users[uid].name.lower().startswith(query)]
            if d.get("limit"):
                ids = ids[: int(d["limit"])]
        chunk = {
            "guild_id": str(gid),
            "members": [self._member_payload(gid, uid) for uid in ids],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await self._send(s, 0, chunk, "GUILD_MEMBERS_CHUNK")

    async def remove_member(self, guild_id: int, user_id: int) -> None:
        """Remove a member and dispatch GUILD_MEMBER_REMOVE (to sessions with the members intent)."""
        self.guilds[guild_id].members.pop(user_id, None)
        await self.dispatch(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild_id), "user": self.users[user_id].payload()},
            intent=INTENT_GUILD_MEMBERS,
        )

    async def member_join(self, guild_id: int, user_id: int, permissions: Optional[int] = None, roles: Iterable[int] = ()) -> None:
        """Add a member and dispatch GUILD_MEMBER_ADD."""
        self.add_member(guild_id, user_id, permissions, roles)
        await self.dispatch(
            "GUILD_MEMBER_ADD", {**self._member_payload(guild_id, user_id), "guild_id": str(guild_id)},
            intent=INTENT_GUILD_MEMBERS,
        )

    async def send_user_message(self, user_id: int, channel_id: int, content: str) -> RecordedMessage:
        """A user posts a plain message (dispatches MESSAGE_CREATE)."""
        ch = self.channels[channel_id]
        m = self._new_message(channel_id, {"content": content}, [], kind="dm" if ch.type == 1 else "channel", author_id=user_id)
        data = self.message_payload(m)
        intent = INTENT_DM_MESSAGES if ch.type == 1 else INTENT_GUILD_MESSAGES
        if ch.guild_id is not None:
            data["member"] = self._member_payload(ch.guild_id, user_id, with_user=False)
        for s in self._live_sessions():
            if not s.intents & intent:
                continue
            d = dict(data)
            mentioned = f"<@{self.bot_user.id}>" in content or f"<@!{self.bot_user.id}>" in content
            if ch.type != 1 and not (s.intents & INTENT_MESSAGE_CONTENT) and not mentioned:
                d["content"] = ""
            await self._send(s, 0, d, "MESSAGE_CREATE")
        return m

    # ------------------------------------------------------------------ REST
    def _build_routes(self) -> List[Tuple[str, "re.Pattern[str]", Callable]]:
        r = [
            ("GET", r"users/@me", self._r_me),
            ("GET", r"users/(\d+)", self._r_get_user),
            ("POST", r"users/@me/channels", self._r_create_dm),
            ("GET", r"oauth2/applications/@me", self._r_app),
            ("GET", r"applications/@me", self._r_app),
            ("GET", r"gateway/bot", self._r_gateway_bot),
            ("GET", r"gateway", self._r_gateway),
            ("PUT", r"applications/(\d+)/commands", self._r_put_global_commands),
            ("GET", r"applications/(\d+)/commands", self._r_get_global_commands),
            ("PUT", r"applications/(\d+)/guilds/(\d+)/commands", self._r_put_guild_commands),
            ("GET", r"applications/(\d+)/guilds/(\d+)/commands", self._r_get_guild_commands),
            ("GET", r"channels/(\d+)", self._r_get_channel),
            ("POST", r"channels/(\d+)/messages", self._r_post_message),
            ("GET", r"channels/(\d+)/messages", self._r_history),
            ("GET", r"channels/(\d+)/messages/(\d+)", self._r_get_message),
            ("PATCH", r"channels/(\d+)/messages/(\d+)", self._r_edit_message),
            ("DELETE", r"channels/(\d+)/messages/(\d+)", self._r_delete_message),
            ("POST", r"channels/(\d+)/typing", self._r_typing),
            ("POST", r"channels/(\d+)/messages/(\d+)/threads", self._r_start_thread),
            ("PUT", r"channels/(\d+)/thread-members/(\d+)", self._r_add_thread_member),
            ("PATCH", r"channels/(\d+)", self._r_edit_channel),
            ("GET", r"guilds/(\d+)", self._r_get_guild),
            ("GET", r"guilds/(\d+)/channels", self._r_get_guild_channels),
            ("GET", r"guilds/(\d+)/roles", self._r_get_roles),
            ("GET", r"guilds/(\d+)/members/(\d+)", self._r_get_member),
            ("POST", r"interactions/(\d+)/([^/]+)/callback", self._r_callback),
            ("POST", r"webhooks/(\d+)/([^/]+)", self._r_followup),
            ("GET", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_get),
            ("PATCH", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_edit),
            ("DELETE", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_delete),
        ]
        return [(m, re.compile(p + r"/?"), f) for m, p, f in r]

    async def _unknown_handler(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path, None))
        self._notify()
        return _error(404, 0, "404: Not Found")

    async def _attachment_handler(self, request: web.Request) -> web.Response:
        blob = self._attachment_blobs.get(int(request.match_info["id"]))
        if blob is None:
            return _error(404, 0, "404: Not Found")
        return web.Response(body=blob[1], headers={"Content-Type": "application/octet-stream"})

    async def _read_body(self, request: web.Request) -> Tuple[Any, List[Tuple[int, str, bytes]]]:
        """Returns (json payload or None, [(file_index, filename, bytes)])."""
        ctype = request.headers.get("Content-Type", "")
        files: List[Tuple[int, str, bytes]] = []
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""
                data = await part.read()
                if name == "payload_json":
                    payload = json.loads(data.decode())
                else:
                    m = re.match(r"files\[(\d+)\]", name)
                    idx = int(m.group(1)) if m else len(files)
                    files.append((idx, part.filename or name, bytes(data)))
            return payload, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode("utf-8", "replace"), []

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        path = request.match_info["tail"]
        self._inflight += 1
        self._last_activity = time.monotonic()
        try:
            return await self._rest_dispatch(request, path)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
            self._notify()

    async def _rest_dispatch(self, request: web.Request, path: str) -> web.StreamResponse:
        try:
            body, files = await self._read_body(request)
        except Exception as exc:  # pragma: no cover - defensive
            return _error(400, 50109, f"bad body: {exc}")
        self.requests.append({"method": request.method, "path": path, "query": dict(request.query), "json": body,
                              "files": [(n, b) for _, n, b in files]})
        for method, pattern, func in self._routes:
            if method != request.method:
                continue
            m = pattern.fullmatch(path)
            if m:
                try:
                    resp = await func(request, body, files, *m.groups())
                finally:
                    self._notify()
                return resp
        self.unhandled.append((request.method, "/" + path, body))
        self._notify()
        return _error(404, 0, "404: Not Found")

    def _invalid(self, request: web.Request, errors: "_limits.FormErrors") -> web.Response:
        """Discord's answer to a body that breaks a documented limit."""
        self.rejected.append({"method": request.method, "path": request.path, "errors": list(errors.flat)})
        _log.warning("fake Discord refused %s %s: %s", request.method, request.path, "; ".join(errors.flat))
        return _json_response(_limits.error_body(errors), 400)

    # -- simple GETs
    async def _r_me(self, request, body, files):
        return _json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0,
                               "email": None, "locale": "en-US"})

    async def _r_get_user(self, request, body, files, uid):
        u = self.users.get(int(uid))
        return _json_response(u.payload()) if u else _error(404, 10013, "Unknown User")

    async def _r_app(self, request, body, files):
        return _json_response(self._app_payload())

    async def _r_gateway_bot(self, request, body, files):
        return _json_response({"url": self.gateway_url.rstrip("/"), "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def _r_gateway(self, request, body, files):
        return _json_response({"url": self.gateway_url.rstrip("/")})

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

    # -- DMs
    async def _r_create_dm(self, request, body, files):
        uid = int(body["recipient_id"])
        if uid not in self.users:
            return _error(400, 50033, "Invalid Recipient(s)")
        cid = self.dm_channel_id(uid)
        return _json_response(self.channels[cid].payload(self))

    # -- messages
    def _apply_content(self, m: RecordedMessage, payload: dict, files: List[Tuple[int, str, bytes]], *, editing: bool) -> None:
        payload = payload or {}
        if "content" in payload:
            m.content = payload["content"] or ""
        if "embeds" in payload:
            m.embeds = list(payload["embeds"] or [])
        elif "embed" in payload:
            m.embeds = [payload["embed"]] if payload["embed"] else []
        if "components" in payload:
            m.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = m.flags & (EPHEMERAL) if editing else 0
            m.flags = (int(payload["flags"]) & ~LOADING) | keep
        by_index = {idx: (name, data) for idx, name, data in files}
        new_atts: List[Tuple[dict, Tuple[str, bytes]]] = []
        existing = {int(a["id"]): (a, f) for a, f in zip(m.attachments, m.files)}
        if "attachments" in payload and payload["attachments"] is not None:
            for a in payload["attachments"]:
                aid = int(a["id"])
                if aid in by_index:  # new upload, referenced by its files[n] index
                    name, data = by_index.pop(aid)
                    new_atts.append(self._make_attachment(a.get("filename") or name, data, a))
                elif aid in existing:  # kept existing attachment (snowflake id)
                    new_atts.append(existing[aid])
            for idx, (name, data) in sorted(by_index.items()):  # files not mentioned in attachments
                new_atts.append(self._make_attachment(name, data, {}))
        else:
            new_atts = list(existing.values()) if editing else []
            for idx, (name, data) in sorted(by_index.items()):
                new_atts.append(self._make_attachment(name, data, {}))
        m.attachments = [a for a, _ in new_atts]
        m.files = [f for _, f in new_atts]
        record = dict(payload)
        if files:
            record["_files"] = [(n, b) for _, n, b in files]
        m.history.append(record)
        if editing:
            m.edited = True
            m.edited_timestamp = _now_iso()

    def _make_attachment(self, filename: str, data: bytes, meta: dict) -> Tuple[dict, Tuple[str, bytes]]:
        aid = self.snowflake()
        self._attachment_blobs[aid] = (filename, data)
        url = f"{self.base_url}/attachments/{aid}/{filename}"
        a = {
            "id": str(aid),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
        }
        if meta.get("description"):
            a["description"] = meta["description"]
        if filename.lower().endswith(".png"):
            a["content_type"] = "image/png"
        return a, (filename, data)

    def _new_message(self, channel_id: int, payload: dict, files, *, kind: str, author_id: Optional[int] = None,
                     interaction: Optional[InteractionRecord] = None, msg_type: int = 0) -> RecordedMessage:
        ch = self.channels[channel_id]
        m = RecordedMessage(
            id=self.snowflake(), channel_id=channel_id, guild_id=ch.guild_id,
            author_id=self.bot_user.id if author_id is None else author_id, kind=kind, type=msg_type,
        )
        if interaction is not None:
            m.interaction_id = interaction.id
            m.webhook_id = self.application_id
            m.application_id = self.application_id
        self._apply_content(m, payload, files, editing=False)
        self.messages[m.id] = m
        return m

    def _record_if_public(self, m: RecordedMessage, payload: Any, files) -> None:
        if m.guild_id is not None and not m.ephemeral:
            self._record_public(payload, [(n, b) for _, n, b in files])

    async def _dispatch_message(self, event: str, m: RecordedMessage) -> None:
        if not self.dispatch_message_events or m.ephemeral:
            return
        intent = INTENT_DM_MESSAGES if m.guild_id is None else INTENT_GUILD_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict = {"id": str(m.id), "channel_id": str(m.channel_id)}
            if m.guild_id is not None:
                data["guild_id"] = str(m.guild_id)
        else:
            data = self.message_payload(m)
            if m.guild_id is not None and m.author_id in self.guilds[m.guild_id].members:
                data["member"] = self._member_payload(m.guild_id, m.author_id, with_user=False)
        await self.dispatch(event, data, intent=intent)

    async def _r_post_message(self, request, body, files, cid):
        cid = int(cid)
        ch = self.channels.get(cid)
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        if cid in self.bot_denied:
            code = self.bot_denied[cid]
            return _error(403, code, "Missing Permissions" if code == 50013 else "Missing Access")
        if ch.type == 1:
            user = self.users[ch.recipient_id]
            if user.dms_closed:
                self.blocked_dms.append((user.id, body))
                return _error(403, 50007, "Cannot send messages to this user")
        if not body.get("content") and not body.get("embeds") and not files and not body.get("components") \
                and not body.get("sticker_ids") and not body.get("poll"):
            return _error(400, 50006, "Cannot send an empty message")
        if ch.is_thread:
            if not self.bot_can(ch.guild_id, SEND_MESSAGES_IN_THREADS):
                return _error(403, 50013, "Missing Permissions")
            if ch.archived:  # "Sending a message will automatically unarchive the thread, unless ... locked"
                if ch.locked:
                    return _error(400, 50083, "Thread is archived")
                await self._unarchive(ch)
        m = self._new_message(cid, body, files, kind="dm" if ch.type == 1 else "channel")
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE", m)
        return _json_response(self.message_payload(m))

    async def _r_history(self, request, body, files, cid):
        cid = int(cid)
        if cid not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.channel_messages(cid, include_ephemeral=False)]
        before = request.query.get("before")
        after = request.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
        msgs.sort(key=lambda m: m.id, reverse=True)
        return _json_response([self.message_payload(m) for m in msgs[:limit]])

    def _in_archived_thread(self, m: RecordedMessage) -> bool:
        ch = self.channels.get(m.channel_id)
        return ch is not None and ch.is_thread and ch.archived

    def _channel_message(self, cid: str, mid: str) -> Optional[RecordedMessage]:
        m = self.messages.get(int(mid))
        if m is None or m.deleted or m.channel_id != int(cid) or m.ephemeral:
            return None
        return m

    async def _r_get_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        return _json_response(self.message_payload(m)) if m else _error(404, 10008, "Unknown Message")

    async def _r_edit_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        if m is None:
            return _error(404, 10008, "Unknown Message")
        if m.author_id != self.bot_user.id:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        if m.channel_id in self.bot_denied:
            code = self.bot_denied[m.channel_id]
            return _error(403, code, "Missing Permissions" if code == 50013 else "Missing Access")
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        if self._in_archived_thread(m):  # "Users cannot edit messages ... in archived threads"
            return _error(400, 50083, "Thread is archived")
        self._apply_content(m, body or {}, files, editing=True)
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_UPDATE", m)
        return _json_response(self.message_payload(m))

    async def _r_delete_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        if m is None:
            return _error(404, 10008, "Unknown Message")
        m.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", m)
        return _no_content()

    # -- interactions
    async def _r_callback(self, request, body, files, iid, token):
        rec = self.interactions.get(int(iid))
        if rec is None or rec.token != token:
            return _error(404, 10062, "Unknown interaction")
        if rec.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = body or {}
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        if cb_type in (4, 7):
            errors = _limits.check_message(data, len(files), ["data"])
        elif cb_type == 8:
            errors = _limits.check_choices(data.get("choices"))
        elif cb_type == 9:
            errors = _limits.check_modal(data)
        else:
            errors = _limits.FormErrors()
        if errors:
            return self._invalid(request, errors)
        recorded = dict(body)
        if files:
            recorded["data"] = {**data, "_files": [(n, b) for _, n, b in files]}
        resource: Dict[str, Any] = {"type": cb_type}
        msg: Optional[RecordedMessage] = None
        if cb_type == 1:
            pass
        elif cb_type == 4:
            msg = self._new_message(rec.channel_id, data, files, kind="interaction", interaction=rec,
                                    msg_type=20 if rec.type == 2 else 0)
            rec.original = msg
            self._record_if_public(msg, data, files)
        elif cb_type == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(rec.channel_id, {"content": ""}, [], kind="interaction", interaction=rec,
                                    msg_type=20 if rec.type == 2 else 0)
            msg.flags = flags
            rec.original = msg
        elif cb_type in (6, 7):
            if rec.source_message is None:
                return _error(400, 50035, "Invalid Form Body (no message to update)")
            rec.original = rec.source_message
            if cb_type == 7:
                msg = rec.source_message
                self._apply_content(msg, data, files, editing=True)
                self._record_if_public(msg, data, files)
        elif cb_type == 8:
            if rec.type != 4:
                return _error(400, 50035, "Invalid Form Body (autocomplete response to non-autocomplete)")
        elif cb_type == 9:
            if rec.type == 5:
                return _error(400, 50035, "Invalid Form Body (modal in response to modal)")
        else:
            return _error(400, 50035, f"Invalid Form Body (callback type {cb_type})")
        rec.callback = recorded
        if not rec._response_fut.done():
            rec._response_fut.set_result(recorded)
        if msg is not None:
            resource["message"] = self.message_payload(msg)
            await self._dispatch_message("MESSAGE_UPDATE" if cb_type == 7 else "MESSAGE_CREATE", msg)
        out = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "activity_instance_id": None,
                "response_message_id": str(rec.original.id) if rec.original else None,
                "response_message_loading": cb_type == 5,
                "response_message_ephemeral": bool(rec.original and rec.original.ephemeral),
            },
            "resource": resource,
        }
        return _json_response(out)

    def _rec_by_token(self, app_id: str, token: str) -> Optional[InteractionRecord]:
        if int(app_id) != self.application_id:
            return None
        return self._interactions_by_token.get(token)

    async def _r_followup(self, request, body, files, app_id, token):
        rec = self._rec_by_token(app_id, token)
        if rec is None:
            return _error(404, 10015, "Unknown Webhook")
        if rec.callback is None:
            return _error(404, 10015, "Unknown Webhook")  # Discord: token valid only after the callback
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        orig = rec.original
        if orig is not None and orig.loading and rec.callback["type"] == 5:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message.
            self._apply_content(orig, {k: v for k, v in body.items() if k != "flags"}, files, editing=True)
            orig.flags &= ~LOADING
            m = orig
        else:
            m = self._new_message(rec.channel_id, body, files, kind="followup", interaction=rec)
        rec.followups.append(m)
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE", m)
        return _json_response(self.message_payload(m))

    def _webhook_target(self, rec: InteractionRecord, mid: str) -> Optional[RecordedMessage]:
        if mid == "@original":
            m = rec.original
        else:
            m = self.messages.get(int(mid))
            if m is not None and m is not rec.original and m.interaction_id != rec.id:
                m = None
        if m is None or m.deleted:
            return None
        return m

    async def _r_webhook_get(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        m = self._webhook_target(rec, mid) if rec else None
        return _json_response(self.message_payload(m)) if m else _error(404, 10008, "Unknown Message")

    async def _r_webhook_edit(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        m = self._webhook_target(rec, mid) if rec else None
        if m is None:
            return _error(404, 10008, "Unknown Message")
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        was_loading = m.loading
        self._apply_content(m, body, files, editing=True)
        m.flags &= ~LOADING
        rec.edits.append({"message_id": m.id, "original": mid == "@original" or m is rec.original,
                          "payload": body, "files": [(n, b) for _, n, b in files]})
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", m)
        return _json_response(self.message_payload(m))

    async def _r_webhook_delete(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        m = self._webhook_target(rec, mid) if rec else None
        if m is None:
            return _error(404, 10008, "Unknown Message")
        m.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", m)
        return _no_content()

    # ------------------------------------------------------- driving as users
    def _find_command(self, channel: _Channel, name: str) -> Tuple[dict, bool]:
        if channel.guild_id is not None:
            for c in self.guild_commands.get(channel.guild_id, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c, True
        for c in self.global_commands:
            if c["name"] == name and c.get("type", 1) == 1:
                return c, False
        synced = [c["name"] for c in self.global_commands] + [
            f"{c['name']} (guild {gid})" for gid, cs in self.guild_commands.items() for c in cs
        ]
        raise LookupError(f"slash command {name!r} not synced; synced commands: {synced}")

    def _resolve_channel(self, channel_id: Union[int, str], user_id: int) -> _Channel:
        if channel_id == "dm":
            channel_id = self.dm_channel_id(user_id)
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise LookupError(f"unknown channel {channel_id}")
        if ch.type == 1 and ch.recipient_id != user_id:
            raise ValueError(f"channel {channel_id} is the DM channel of user {ch.recipient_id}, not {user_id}")
        if ch.guild_id is not None and user_id not in self.guilds[ch.guild_id].members:
            raise ValueError(f"user {user_id} is not a member of guild {ch.guild_id}")
        return ch

    def _base_interaction(self, itype: int, user_id: int, ch: _Channel, data: dict) -> dict:
        iid = self.snowflake()
        p: Dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(ch.id),
            "channel": ch.payload(self),
            "token": "fake-itoken-" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 25 * 1024 * 1024,
        }
        if ch.guild_id is not None:
            g = self.guilds[ch.guild_id]
            perms = str(self.member_permissions(g.id, user_id))
            p["guild_id"] = str(g.id)
            p["guild"] = {"id": str(g.id), "locale": "en-US", "features": []}
            p["guild_locale"] = "en-US"
            p["member"] = self._member_payload(g.id, user_id, with_perms=True)
            p["channel"]["permissions"] = perms
            p["app_permissions"] = str(g.bot_permissions)
            p["authorizing_integration_owners"] = {"0": str(g.id)}
            p["context"] = 0
        else:
            p["user"] = self.users[user_id].payload()
            p["app_permissions"] = str(0x0000_0000_0006_4C40)
            p["authorizing_integration_owners"] = {"0": "0"}
            p["context"] = 1
        return p

    async def _send_interaction(self, payload: dict, source: Optional[RecordedMessage] = None) -> InteractionRecord:
        rec = InteractionRecord(self, payload, source)
        self.interactions[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        n = await self.dispatch("INTERACTION_CREATE", payload, latest_only=True)
        if n == 0:
            raise RuntimeError("no bot is connected to the fake gateway")
        return rec

    def _resolve_option_value(self, opt: dict, value: Any, resolved: dict, ch: _Channel, autocomplete: bool) -> Any:
        t = opt["type"]
        guild_id = ch.guild_id

        def _id(v: Any) -> int:
            return int(getattr(v, "id", v))

        if autocomplete and t in (OPT_STRING, OPT_INTEGER, OPT_NUMBER):
            return str(value)
        if t == OPT_STRING:
            value = str(value)
            # Discord's client sends at most 6000 characters (or the option's max_length).
            high = min(6000, opt.get("max_length") or 6000)
            if not (opt.get("min_length") or 0) <= len(value) <= high:
                raise ValueError(f"option {opt['name']!r} takes {opt.get('min_length') or 0}..{high} characters")
        elif t == OPT_INTEGER:
            if isinstance(value, bool) or int(value) != value:
                raise TypeError(f"option {opt['name']!r} needs an integer, got {value!r}")
            value = int(value)
        elif t == OPT_NUMBER:
            value = float(value)
        elif t == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {opt['name']!r} needs a bool, got {value!r}")
        elif t in (OPT_USER, OPT_MENTIONABLE) and (t == OPT_USER or _id(value) in self.users):
            uid = _id(value)
            if uid not in self.users:
                raise LookupError(f"unknown user {uid}")
            resolved.setdefault("users", {})[str(uid)] = self.users[uid].payload()
            if guild_id is not None and uid in self.guilds[guild_id].members:
                resolved.setdefault("members", {})[str(uid)] = self._member_payload(guild_id, uid, with_user=False, with_perms=True)
            value = str(uid)
        elif t in (OPT_ROLE, OPT_MENTIONABLE):
            rid = _id(value)
            if guild_id is None or rid not in self.guilds[guild_id].roles:
                raise LookupError(f"unknown role {rid}")
            resolved.setdefault("roles", {})[str(rid)] = self.guilds[guild_id].roles[rid].payload()
            value = str(rid)
        elif t == OPT_CHANNEL:
            cid = _id(value)
            c = self.channels.get(cid)
            if c is None:
                raise LookupError(f"unknown channel {cid}")
            if opt.get("channel_types") and c.type not in opt["channel_types"]:
                raise ValueError(f"channel {cid} type {c.type} not allowed for {opt['name']!r}")
            cp = c.payload(self)
            cp["permissions"] = str(self.member_permissions(guild_id, self.bot_user.id)) if guild_id else "0"
            resolved.setdefault("channels", {})[str(cid)] = cp
            value = str(cid)
        elif t == OPT_ATTACHMENT:
            filename, data = value
            att, _ = self._make_attachment(filename, data, {})
            resolved.setdefault("attachments", {})[att["id"]] = att
            value = att["id"]
        else:
            raise TypeError(f"unsupported option type {t}")
        if opt.get("choices") and not autocomplete:
            allowed = [c["value"] for c in opt["choices"]]
            if value not in allowed:
                raise ValueError(f"{value!r} is not a choice of option {opt['name']!r}: {allowed}")
        if t in (OPT_INTEGER, OPT_NUMBER) and not autocomplete:
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"{opt['name']!r}={value} < min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"{opt['name']!r}={value} > max_value {opt['max_value']}")
        return value

    def _build_command_data(
        self, ch: _Channel, path: str, options: Optional[dict], focused: Optional[str]
    ) -> dict:
        names = path.split()
        if not names:
            raise ValueError("empty command path")
        cmd, is_guild = self._find_command(ch, names[0])
        if is_guild is False and ch.type == 1 and cmd.get("contexts") is not None and 1 not in cmd["contexts"]:
            raise ValueError(f"command {names[0]!r} is not available in DMs (contexts={cmd['contexts']})")
        if ch.type == 1 and cmd.get("dm_permission") is False:
            raise ValueError(f"command {names[0]!r} is not available in DMs (dm_permission=false)")
        data: Dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if is_guild:
            data["guild_id"] = str(ch.guild_id)
        schema = cmd.get("options") or []
        container: List[dict] = []
        data["options"] = container
        for sub in names[1:]:
            opt = next((o for o in schema if o["name"] == sub and o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)), None)
            if opt is None:
                raise LookupError(f"no subcommand/group {sub!r} in {path!r}; have {[o['name'] for o in schema]}")
            new: List[dict] = []
            container.append({"name": sub, "type": opt["type"], "options": new})
            container = new
            schema = opt.get("options") or []
        if any(o["type"] in (OPT_SUBCOMMAND, OPT_GROUP) for o in schema):
            raise ValueError(f"{path!r} is a group; pick a subcommand: {[o['name'] for o in schema]}")
        options = dict(options or {})
        resolved: Dict[str, Any] = {}
        for o in schema:
            if o["name"] in options:
                is_focused = focused == o["name"]
                value = self._resolve_option_value(o, options.pop(o["name"]), resolved, ch, autocomplete=is_focused)
                entry = {"name": o["name"], "type": o["type"], "value": value}
                if is_focused:
                    entry["focused"] = True
                container.append(entry)
            elif o.get("required") and focused is None:
                raise ValueError(f"required option {o['name']!r} missing for {path!r}")
        if options:
            raise LookupError(f"unknown option(s) {list(options)} for {path!r}; have {[o['name'] for o in schema]}")
        if focused is not None and not any(e.get("focused") for e in container):
            raise ValueError(f"focused option {focused!r} must be given in options")
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user_id: int, channel_id: Union[int, str], command: str, options: Optional[dict] = None) -> InteractionRecord:
        """Invoke a synced slash command as ``user_id`` (channel may be ``"dm"`` for the user's DM)."""
        ch = self._resolve_channel(channel_id, user_id)
        if ch.is_thread and ch.archived:
            raise ValueError(f"thread {ch.id} is archived: Discord users cannot use slash commands in it")
        data = self._build_command_data(ch, command, options, None)
        return await self._send_interaction(self._base_interaction(2, user_id, ch, data))

    async def autocomplete(self, user_id: int, channel_id: Union[int, str], command: str, options: dict, focused: str,
                           timeout: float = 5) -> List[dict]:
        """Send an autocomplete interaction and return the bot's choices list."""
        ch = self._resolve_channel(channel_id, user_id)
        data = self._build_command_data(ch, command, options, focused)
        rec = await self._send_interaction(self._base_interaction(4, user_id, ch, data))
        resp = await rec.response(timeout)
        if resp["type"] != 8:
            raise AssertionError(f"autocomplete answered with callback type {resp['type']}")
        return list(resp.get("data", {}).get("choices", []))

    def post_as_bot(self, channel_id: int, payload: dict) -> RecordedMessage:
        """A message the bot posted earlier (say, an older version of it), put straight
        into the channel: to press buttons the current bot would never build."""
        m = self._new_message(channel_id, payload, [], kind="channel")
        return m

    def _message_obj(self, message: Union[RecordedMessage, int, InteractionRecord]) -> RecordedMessage:
        if isinstance(message, InteractionRecord):
            if message.original is None:
                raise ValueError(f"{message!r} produced no message")
            message = message.original
        if isinstance(message, int):
            message = self.messages[message]
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        return message

    async def click(self, user_id: int, message: Union[RecordedMessage, int, InteractionRecord], custom_id: str,
                    *, force: bool = False) -> InteractionRecord:
        """Press the button ``custom_id`` on a recorded message."""
        m = self._message_obj(message)
        comp = self.find_components(m, custom_id=custom_id, type=2)
        if not comp and not force:
            self.find_component(m, custom_id=custom_id, type=2)  # raises with details
        if comp and comp[0].get("disabled") and not force:
            raise ValueError(f"button {custom_id!r} is disabled")
        return await self._component_interaction(user_id, m, {"custom_id": custom_id, "component_type": 2})

    async def select(self, user_id: int, message: Union[RecordedMessage, int, InteractionRecord], custom_id: str,
                     values: List[Any], *, force: bool = False) -> InteractionRecord:
        """Pick ``values`` in the select menu ``custom_id`` (string select: option values; user/role/channel
        selects: ids)."""
        m = self._message_obj(message)
        comps = self.find_components(m, custom_id=custom_id)
        if not comps and not force:
            self.find_component(m, custom_id=custom_id)
        ctype = comps[0]["type"] if comps else 3
        if comps and not force:
            c = comps[0]
            if c.get("disabled"):
                raise ValueError(f"select {custom_id!r} is disabled")
            if ctype == 3:
                allowed = [o["value"] for o in c.get("options", [])]
                bad = [v for v in values if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} not among options {allowed} of {custom_id!r}")
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not (lo <= len(values) <= hi):
                raise ValueError(f"{len(values)} values given; select {custom_id!r} takes {lo}..{hi}")
        data: Dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "values": [str(getattr(v, 'id', v)) for v in values]}
        if ctype in (5, 6, 7, 8):
            resolved: Dict[str, Any] = {}
            ch = self.channels[m.channel_id]
            type_map = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_MENTIONABLE, 8: OPT_CHANNEL}
            for v in values:
                self._resolve_option_value({"name": custom_id, "type": type_map[ctype]}, v, resolved, ch, False)
            data["resolved"] = resolved
        return await self._component_interaction(user_id, m, data)

    async def _component_interaction(self, user_id: int, m: RecordedMessage, data: dict) -> InteractionRecord:
        ch = self._resolve_channel(m.channel_id, user_id)
        if m.ephemeral and m.interaction_id in self.interactions:
            owner = self.interactions[m.interaction_id].user_id
            if owner != user_id:
                raise ValueError(f"message {m.id} is ephemeral and only visible to user {owner}")
        payload = self._base_interaction(3, user_id, ch, data)
        payload["message"] = self.message_payload(m)
        return await self._send_interaction(payload, m)

    async def submit_modal(self, user_id: int, rec: InteractionRecord, values: Dict[str, Any]) -> InteractionRecord:
        """Submit the modal the bot opened in response to ``rec`` with ``{custom_id: value}``
        (text inputs take a str, selects a list of str)."""
        modal = rec.modal
        if modal is None:
            raise ValueError(f"{rec!r} did not respond with a modal")
        values = dict(values)

        def conv(c: dict) -> Optional[dict]:
            t = c.get("type")
            if t == 1:
                inner = [x for x in (conv(y) for y in c.get("components", [])) if x]
                return {"type": 1, "components": inner}
            if t == 18:
                inner = conv(c["component"]) if c.get("component") else None
                return {"type": 18, "component": inner} if inner else None
            cid = c.get("custom_id")
            if cid is None:
                return None
            if t == 4:
                v = values.pop(cid, c.get("value") or "")
                if c.get("required", True) and not v:
                    raise ValueError(f"text input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(v)}
            v = values.pop(cid, [])
            return {"type": t, "custom_id": cid, "values": [str(x) for x in v]}

        comps = [x for x in (conv(c) for c in modal.get("components", [])) if x]
        if values:
            raise LookupError(f"modal has no inputs {list(values)}")
        ch = self.channels[rec.channel_id]
        payload = self._base_interaction(5, user_id, ch, {"custom_id": modal["custom_id"], "components": comps})
        if rec.source_message is not None:
            payload["message"] = self.message_payload(rec.source_message)
        return await self._send_interaction(payload, rec.source_message)


# ---------------------------------------------------------------------------
# Log collection
# ---------------------------------------------------------------------------


class DiscordErrorCollector(logging.Handler):
    """Collects ERROR (and worse) records from the ``discord`` loggers (or others given).

    Use as a context manager or ``install()``/``uninstall()``; ``assert_clean()`` fails with the
    formatted records."""

    def __init__(self, logger_names: Iterable[str] = ("discord",), level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.logger_names = tuple(logger_names)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> "DiscordErrorCollector":
        for n in self.logger_names:
            logging.getLogger(n).addHandler(self)
        return self

    def uninstall(self) -> None:
        for n in self.logger_names:
            logging.getLogger(n).removeHandler(self)

    def __enter__(self) -> "DiscordErrorCollector":
        return self.install()

    def __exit__(self, *exc: Any) -> None:
        self.uninstall()

    def clear(self) -> None:
        self.records.clear()

    def format_all(self) -> str:
        fmt = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return "\n\n".join(fmt.format(r) for r in self.records)

    def assert_clean(self) -> None:
        if self.records:
            raise AssertionError(f"{len(self.records)} error log record(s) from discord:\n{self.format_all()}")
