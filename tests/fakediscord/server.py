"""The fake Discord server: REST (``/api/v10``) + websocket gateway on 127.0.0.1.

Written against discord.py 2.7.1's client code (http.py, gateway.py, state.py,
interactions.py, webhook/async_.py).  Only what a bot normally uses is
implemented; everything else answers 404 and is recorded in ``fake.unhandled``.

This module holds :class:`FakeDiscord` itself (its state, start/stop, install); its
methods live in one module per part (a mixin each): ``world`` (setting the world up),
``recording`` (what tests read back), ``gateway``, ``rest`` (routing) and the
``rest_*`` route groups, ``driver`` (acting as users). The records it stores are in
``records``, Discord's limits in ``limits``. Every name this module had before the
split is still importable from here.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from aiohttp import web

from .driver import DriverMixin
from .gateway import GatewayMixin
from .logs import DiscordErrorCollector
from .ratelimits import RateLimits, Throttle
from .recording import RecordingMixin

# Every name this module had before the split, re-exported (tests import them from here).
from .records import (  # noqa: F401
    ALL_PERMISSIONS_NO_ADMIN,
    CREATE_PUBLIC_THREADS,
    DISCORD_EPOCH_MS,
    EPHEMERAL,
    INTENT_DM_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    INTENT_PRESENCES,
    LOADING,
    MANAGE_THREADS,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUBCOMMAND,
    OPT_USER,
    PRIVILEGED_INTENTS,
    SEND_MESSAGES_IN_THREADS,
    THREAD_ARCHIVE_DURATIONS,
    InteractionRecord,
    RecordedMessage,
    _Channel,
    _Guild,
    _Member,
    _now_iso,
    _Role,
    _Session,
    _User,
)
from .rest import RestMixin, _error, _json_response, _log, _no_content  # noqa: F401
from .rest_channels import ChannelRoutesMixin
from .rest_commands import CommandRoutesMixin
from .rest_interactions import InteractionRoutesMixin
from .rest_messages import MessageRoutesMixin
from .world import WorldMixin

__all__ = ["FakeDiscord", "InteractionRecord", "RecordedMessage", "DiscordErrorCollector"]


class FakeDiscord(
    WorldMixin, RecordingMixin, GatewayMixin, RestMixin, ChannelRoutesMixin, CommandRoutesMixin,
    MessageRoutesMixin, InteractionRoutesMixin, DriverMixin,
):
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
        rate_limits: Optional[RateLimits] = None,
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
        #: as Discord: an interaction not answered (or deferred) within this many seconds is gone
        #: (its callback gets 404 10062 "Unknown interaction"; the user sees "interaction failed")
        self.initial_response_deadline: float = 3.0
        #: interactions whose initial response came too late
        self.expired: List[InteractionRecord] = []
        #: Discord's rate limits (``ratelimits.py``): the global limit, per-route buckets, invalid requests
        self.throttle = Throttle(rate_limits or RateLimits(), application_id)
        #: every 429 answered: dicts {method, path, scope ("global", "user", "shared" or "ban"), retry_after}.
        #: The fixture fails a test that leaves any here unless it set ``expect_rate_limits``.
        self.rate_limited: List[dict] = []
        #: a test that provokes 429s on purpose says so (they are then not logged as warnings either)
        self.expect_rate_limits: bool = False
        #: how long an interaction token may be used for follow-ups and edits (Discord: 15 minutes)
        self.interaction_token_lifetime: float = 15 * 60.0
        #: the bot's token as Discord knows it: another one is refused (401 at login, 4004 at IDENTIFY);
        #: None accepts any token
        self.valid_token: Optional[str] = None
        #: the privileged intents switched on in the Developer Portal: IDENTIFY asking for another closes
        #: the connection with 4014 "Disallowed intent(s)" (all of them by default)
        self.portal_intents: int = PRIVILEGED_INTENTS
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
        #: ``listener(event, obj)`` calls made as things happen (for benchmarks, which time them):
        #: ``("ready", session)`` once a bot's IDENTIFY is answered (READY and every GUILD_CREATE sent),
        #: ``("callback", InteractionRecord)`` when an interaction gets its initial response,
        #: ``("message", RecordedMessage)`` when any message is created, ``("edit", RecordedMessage)`` when the bot
        #: edits a message, through the channel or an interaction token (its ``history[-1]`` is the edit, with
        #: ``_files`` if it uploaded any).
        self.listeners: List[Callable[[str, Any], None]] = []

    # ------------------------------------------------------------------ ids
    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def _tell(self, event: str, obj: Any) -> None:
        for listener in self.listeners:
            listener(event, obj)

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
        import discord.http
        import yarl
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
