"""Don't knock on closed doors: what Discord keeps refusing, remembered, so the
bot stops asking.

Discord temporarily blocks a bot's IP after too many invalid requests (401, 403
and 429 answers: 10,000 in 10 minutes, Rate Limits § Invalid Request Limit), so
a refusal that will repeat must not be repeated:

- a player's DMs are closed (403, 50007): no DM to them, in any game, until they
  ask for DMs again (``/game hand``, the **Try DMs again** button) or
  :data:`DM_BACKOFF` has passed. Remembered across restarts (``dm_refusals`` table).
- a channel or thread is gone (404, 10003): never used again; its table ends and
  its host is told.
- the bot lacks permission in a channel (403, 50013 / 50001), or a moderator locked
  the game's thread (403, 160005): nothing is posted there until its permissions
  change (channel or role update), the thread is unlocked (a fresh board is posted
  then) or :data:`CHANNEL_BACKOFF` has passed; the host is told once.

Every 4xx answer is counted by kind (an aiohttp trace on discord.py's HTTP session,
so interaction replies count too), logged at INFO every :data:`LOG_EVERY` seconds
when there were new ones, and shown by ``/gameadmin status``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp

from bot import loops

if TYPE_CHECKING:
    from bot.storage import Storage

log = logging.getLogger("heistcord.refusals")

DM_BACKOFF = 24 * 3600.0
CHANNEL_BACKOFF = 15 * 60.0
LOG_EVERY = 300.0
INVALID_WINDOW = 600.0
INVALID_LIMIT = 10_000

CANNOT_DM = 50007
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_LOCKED = 160005  # a moderator locked the thread: only members who may Manage Threads post there

NAMES = {
    0: "general error", 10003: "Unknown Channel", 10008: "Unknown Message", 10015: "Unknown Webhook",
    10062: "Unknown Interaction", 40060: "Interaction already acknowledged", 50001: "Missing Access",
    50006: "Empty message", 50007: "Cannot send messages to this user", 50013: "Missing Permissions",
    50035: "Invalid Form Body", 50083: "Thread is archived", 160005: "Thread is locked",
}

# A refusal here means the bot may not post in the channel; one on another route (say, starting
# a thread without Create Public Threads) says nothing about posting.
POSTING_ROUTES = ("POST channels/{id}/messages", "PATCH channels/{id}/messages/{id}")
_API = re.compile(r"^/api/v\d+/")
_CHANNEL = re.compile(r"^channels/(\d+)(/|$)")
_ID = re.compile(r"/\d{5,}")
_TOKEN = re.compile(r"^(webhooks/\{id\}|interactions/\{id\})/[^/]+")


def route_of(path: str) -> str:
    """``/api/v10/channels/123/messages/456`` -> ``channels/{id}/messages/{id}`` (tokens hidden)."""
    path = _API.sub("", path)
    path = _ID.sub("/{id}", "/" + path)[1:]
    return _TOKEN.sub(r"\1/{token}", path)


class Refusals:
    """The bot's memory of doors Discord keeps shut."""

    def __init__(self, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock  # wall clock (table service's), for back-offs that survive restarts
        self.monotonic = monotonic
        self.storage: Storage | None = None
        self.dm_closed: dict[int, float] = {}  # user_id -> until
        self.gone_channels: set[int] = set()
        self.muted_channels: dict[int, float] = {}  # channel_id -> until
        self.counts: Counter[tuple[int, int, str]] = Counter()  # (status, code, route) -> n
        self._invalid: deque[float] = deque()
        self._logged_total = 0
        #: called with (channel_id, code) when a channel becomes unusable; set by the UI
        self.on_channel_refused: Callable[[int, int], Awaitable[None]] | None = None
        self._tasks: set[asyncio.Task] = set()

    async def load(self, storage: Storage) -> None:
        """Read the stored DM refusals that are still in force."""
        self.storage = storage
        now = self.clock()
        self.dm_closed = {uid: until for uid, until in (await storage.dm_refusals()).items() if until > now}

    # --- DMs --------------------------------------------------------------------------
    def dm_allowed(self, user_id: int) -> bool:
        """Whether the bot may DM this player now (their DMs weren't found closed recently)."""
        until = self.dm_closed.get(user_id)
        return until is None or until <= self.clock()

    async def dm_refused(self, user_id: int) -> None:
        """Discord answered 50007: no DMs to this player until they ask, or the back-off ends."""
        until = self.clock() + DM_BACKOFF
        self.dm_closed[user_id] = until
        log.info("DMs to %s are closed: not trying again before they ask (or for %.0f h)", user_id,
                 DM_BACKOFF / 3600)
        if self.storage is not None:
            await self.storage.set_dm_refusal(user_id, until)

    async def dm_failed(self, user_id: int, exc: Exception) -> None:
        """A DM to ``user_id`` failed: remember closed DMs (50007), log anything else."""
        if getattr(exc, "code", None) == CANNOT_DM:
            await self.dm_refused(user_id)
        else:
            log.warning("DM to %s failed: %s", user_id, exc)

    async def dm_retry(self, user_id: int) -> bool:
        """The player asked for DMs again. True if they were paused."""
        if self.dm_closed.pop(user_id, None) is None:
            return False
        if self.storage is not None:
            await self.storage.set_dm_refusal(user_id, None)
        return True

    # --- channels ------------------------------------------------------------------------
    def channel_usable(self, channel_id: int) -> bool:
        """Whether the bot may post in this channel now (not deleted, not muted for lack of permission)."""
        if channel_id in self.gone_channels:
            return False
        until = self.muted_channels.get(channel_id)
        if until is not None and until <= self.clock():
            del self.muted_channels[channel_id]
            return True
        return until is None

    def channel_gone(self, channel_id: int) -> bool:
        """Remember a deleted channel. True the first time."""
        if channel_id in self.gone_channels:
            return False
        self.gone_channels.add(channel_id)
        self.muted_channels.pop(channel_id, None)
        log.warning("channel %s is gone: nothing more is sent there", channel_id)
        return True

    def channel_muted(self, channel_id: int) -> bool:
        """Remember a channel the bot may not post in. True if it wasn't already."""
        fresh = channel_id not in self.muted_channels
        self.muted_channels[channel_id] = self.clock() + CHANNEL_BACKOFF
        if fresh:
            log.warning("no permission to post in channel %s: paused until its permissions change", channel_id)
        return fresh

    def permissions_changed(self, channel_ids: list[int] | None = None) -> None:
        """A channel's or role's permissions changed: try the muted channels again."""
        for cid in list(self.muted_channels) if channel_ids is None else channel_ids:
            self.muted_channels.pop(cid, None)

    # --- counting --------------------------------------------------------------------------
    def trace_config(self) -> aiohttp.TraceConfig:
        """For ``discord.Client(http_trace=...)``: sees every answer Discord gives."""
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._on_request_end)
        return trace

    async def _on_request_end(self, session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        if response.status < 400 or response.status >= 500:
            return
        code = 0
        try:
            body = await response.read()  # cached by aiohttp: discord.py reads the same bytes afterwards
            data = json.loads(body) if body else {}
            code = int(data.get("code", 0)) if isinstance(data, dict) else 0
        except (ValueError, TypeError, aiohttp.ClientError):
            pass
        shared = response.headers.get("X-RateLimit-Scope") == "shared"
        self.record(response.status, code, params.method, params.url.path, shared=shared)

    def record(self, status: int, code: int, method: str, path: str, *, shared: bool = False) -> None:
        """Count one refusal of Discord's; a deleted channel or missing permission stops posting there."""
        route = f"{method} {route_of(path)}"
        self.counts[(status, code, route)] += 1
        if status in (401, 403) or (status == 429 and not shared):
            now = self.monotonic()
            self._invalid.append(now)
            while self._invalid and self._invalid[0] < now - INVALID_WINDOW:
                self._invalid.popleft()
        match = _CHANNEL.match(_API.sub("", path))
        if match is None:
            return
        channel_id = int(match.group(1))
        if code == UNKNOWN_CHANNEL and status == 404:
            if self.channel_gone(channel_id):
                self._notify(channel_id, code)
        elif (code in (MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_LOCKED) and route in POSTING_ROUTES
              and self.channel_muted(channel_id)):
            self._notify(channel_id, code)

    def _notify(self, channel_id: int, code: int) -> None:
        if self.on_channel_refused is None:
            return
        task = asyncio.get_running_loop().create_task(self.on_channel_refused(channel_id, code),
                                                      name=f"heistcord-refusal-{channel_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def invalid_recently(self) -> int:
        """401/403/429 answers in the last ten minutes (Discord blocks the IP at 10,000)."""
        now = self.monotonic()
        while self._invalid and self._invalid[0] < now - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)

    def by_kind(self) -> list[tuple[str, int]]:
        """``("403 50007 Cannot send messages to this user", n)``, most frequent first."""
        kinds: Counter[str] = Counter()
        for (status, code, _route), n in self.counts.items():
            kinds[f"{status} {code} {NAMES.get(code, '')}".rstrip()] += n
        return kinds.most_common()

    def summary(self) -> str:
        """One line for the log: refusals by kind, invalid requests, paused DMs, unusable channels."""
        kinds = ", ".join(f"{kind}: {n}" for kind, n in self.by_kind()) or "none"
        return (f"Discord refusals since start: {kinds}. Invalid requests (401/403/429) in the last 10 minutes:"
                f" {self.invalid_recently()} of Discord's {INVALID_LIMIT:,}."
                f" DMs paused for {len(self.dm_open_pauses())} player(s); {len(self.gone_channels)} channel(s) gone,"
                f" {len(self.muted_channels)} without permission.")

    def dm_open_pauses(self) -> list[int]:
        """The players whose DMs are paused now."""
        now = self.clock()
        return [uid for uid, until in self.dm_closed.items() if until > now]

    def log_summary(self) -> bool:
        """Log the counts at INFO if Discord refused anything since the last time."""
        total = sum(self.counts.values())
        if total == self._logged_total:
            return False
        self._logged_total = total
        log.info("%s", self.summary())
        return True

    async def log_forever(self, every: float = LOG_EVERY) -> None:
        """Log the summary every ``every`` seconds (a background task that survives anything: ``bot.loops``)."""
        async def log_now() -> float:
            self.log_summary()
            return every

        await asyncio.sleep(every)
        await loops.forever("the refusal log", log_now, log)
