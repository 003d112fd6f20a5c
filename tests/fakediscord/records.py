"""What the fake Discord stores: messages, interactions, users, roles, channels, threads,
members, guilds and gateway sessions, plus the Discord constants they use."""

from __future__ import annotations

import asyncio
import datetime as _dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from aiohttp import web

if TYPE_CHECKING:
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Gateway intents (bits) that gate events.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_PRESENCES = 1 << 8
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_PRESENCES | INTENT_MESSAGE_CONTENT  # switched on in the portal

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


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()



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
        #: loop time the interaction was sent (Discord's 3-second initial-response clock starts here)
        self.created_at: float = asyncio.get_running_loop().time()
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
    shard: Tuple[int, int] = (0, 1)  # (shard_id, num_shards) from IDENTIFY
