"""The one budgeted sender: every request the bot makes that counts against Discord's global rate limit.

Discord lets a bot make 50 requests a second in all (every shard and process together); the interaction
endpoints (an interaction's reply, its follow-ups and their edits) are not counted. So what answers a click rides
that click's interaction (``cogs.boards``, ``cogs.router``), and whatever has no interaction (a deadline's move,
a reminder, a DM to another player, taking the buttons off an old board) goes through here.

API (for the cogs; ``bot.sender`` is the :class:`Sender` of the running bot)::

    from bot.sender import BOARD, DM, TIDY

    # Send now or later, never dropped because Discord said "slow down": ``work`` (a coroutine function that
    # makes the REST request(s), e.g. ``lambda: channel.send("...")``) runs when the global budget allows, in
    # priority order: BOARD (a table's current board, lobby and notes), then DM, then TIDY (old boards).
    # A 429 makes it wait (Retry-After) and run again. Any other error reaches the caller.
    message = await bot.sender.send(DM, lambda: channel.send("Your hand ..."), key=("hand", game_id, seat))

    # Coalescing: jobs with the same ``key`` run one at a time, and while one waits its turn a newer ``work``
    # replaces it (both callers get the newer one's result): a burst of edits of one message is one edit.
    # ``spacing`` keeps at least that many seconds between two runs of one key (a lobby edited at most once a
    # second, however fast people join and leave); ``delay`` (submit) makes a job wait that long after it was
    # first asked for, however long ago its key last ran (a hand DM that catches up at leisure).
    bot.sender.submit(TIDY, lambda: old_board.edit(view=None), key=("retire", message_id))  # fire and forget

    # Per-user limits on what a user can trigger again and again (None: go ahead; else seconds to wait).
    wait = bot.sender.users.check(user_id, "dm-retry")

    await bot.sender.idle()  # until nothing is queued or running (tests, shutdown)

Every global-limited request, whoever makes it (discord.py itself included), waits for the global budget:
:meth:`Budget.trace_config` is installed on discord.py's HTTP session and holds each request back until the
budget has room, so the bot stays under ``HEISTCORD_GLOBAL_RATE`` requests in any second (40 by default, a fifth
under Discord's 50). Several processes on one PostgreSQL database share one budget (:class:`SharedBudget`: each
process leases its requests from the database in quarter-second slots). The counts (requests by kind, 429s by
scope, time spent waiting) are in :class:`Stats`, shown by ``/gameadmin status`` and ``bot.metrics``.
"""
from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import logging
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import aiohttp

if TYPE_CHECKING:
    from bot.storage import Storage

log = logging.getLogger("heistcord.sender")

T = TypeVar("T")

# Priorities: lower goes first.
BOARD, DM, TIDY = 0, 1, 2
PRIORITY_NAMES = {BOARD: "board", DM: "dm", TIDY: "tidy"}

DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot (Discord's docs, Rate Limits § Global Rate Limit)
DEFAULT_RATE = 40  # what heistcord allows itself: a fifth of margin
SLOT_SECONDS = 0.25  # a shared budget's lease slot
RETRY_FIRST = 1.0  # seconds before a job refused with 429 (and no Retry-After) runs again; doubles up to:
RETRY_MAX = 30.0
RECENT = 60.0  # seconds of requests kept to say what share of the budget is in use

_API = re.compile(r"^/api/v\d+/")
_INTERACTION = re.compile(r"^(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+(/messages/[^/]+)?)$")
_ID = re.compile(r"/\d{5,}")
_TOKEN = re.compile(r"^(webhooks/\{id\}|interactions/\{id\})/[^/]+")

_PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("heistcord_send_priority", default=BOARD)
_RESERVATION: contextvars.ContextVar[Reservation | None] = contextvars.ContextVar("heistcord_reservation",
                                                                                     default=None)


def is_interaction_endpoint(path: str) -> bool:
    """The routes Discord does not count against the global limit: an interaction's callback and its webhook."""
    return bool(_INTERACTION.match(_API.sub("", path)))


def route_of(method: str, path: str) -> str:
    """``PATCH /api/v10/channels/123/messages/456`` -> ``PATCH channels/{id}/messages/{id}`` (tokens hidden)."""
    path = _TOKEN.sub(r"\1/{token}", _ID.sub("/{id}", "/" + _API.sub("", path))[1:])
    return f"{method} {path}"


@dataclass
class Stats:
    """What the sender counted since the process started (``/gameadmin status``, ``bot.metrics``)."""
    requests: Counter[str] = field(default_factory=Counter)  # "global" / "interaction" -> n
    routes: Counter[str] = field(default_factory=Counter)  # "PATCH channels/{id}/messages/{id}" -> n (global only)
    rate_limited: Counter[str] = field(default_factory=Counter)  # 429 scope ("global", "user", "shared", "?") -> n
    waited: float = 0.0  # seconds requests spent waiting for the global budget, in all
    waits: int = 0  # requests that had to wait
    queue_wait: dict[str, float] = field(default_factory=lambda: {name: 0.0 for name in PRIORITY_NAMES.values()})
    jobs: Counter[str] = field(default_factory=Counter)  # priority name -> jobs run
    coalesced: int = 0  # jobs folded into a newer one of the same key
    retried: int = 0  # jobs run again after Discord answered 429
    recent: deque[float] = field(default_factory=deque)  # times of global-limited requests in the last RECENT s

    def note_request(self, now: float, interaction: bool, route: str) -> None:
        """Count one request as it starts."""
        if interaction:
            self.requests["interaction"] += 1
            return
        self.requests["global"] += 1
        self.routes[route] += 1
        self.recent.append(now)
        while self.recent and self.recent[0] < now - RECENT:
            self.recent.popleft()

    def per_second(self, now: float, seconds: float = 10.0) -> float:
        """Global-limited requests per second over the last ``seconds``."""
        while self.recent and self.recent[0] < now - RECENT:
            self.recent.popleft()
        return sum(1 for t in self.recent if t >= now - seconds) / seconds


class Reservation:
    """Room in the budget held for a job from the moment it may start until its first request goes out."""
    __slots__ = ("held",)

    def __init__(self) -> None:
        self.held = True


class Budget:
    """The global budget of one process: at most ``rate`` requests in any ``window`` seconds, handed out in
    priority order (lower first, then first come). ``take`` is awaited before each global-limited request
    (by :meth:`trace_config`); ``reserve`` lets a job of the sender wait for its turn before it builds its
    request, so what arrives meanwhile for the same key can replace it."""

    def __init__(self, rate: float = DEFAULT_RATE, window: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = int(rate)
        self.window = window
        # Smoothed: at most a third of the rate in any quarter of the window, so that requests delayed on their
        # way (a busy event loop, the network) can't arrive bunched into more than Discord's limit.
        self.burst = max(1, -(-self.rate // 3))
        self.burst_window = window / 4
        self.clock = clock
        self.stats = Stats()
        self._times: deque[float] = deque()
        self._reserved = 0
        self._waiters: list[tuple[int, int, asyncio.Future[None], bool]] = []  # (priority, seq, future, reserve)
        self._seq = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._paused_until = 0.0

    # --- room --------------------------------------------------------------------------
    def _room(self, now: float) -> int:
        """Requests that may start now (beside the reserved ones)."""
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()
        if now < self._paused_until:
            return 0
        recent = 0
        for t in reversed(times):
            if t <= now - self.burst_window or recent >= self.burst:
                break
            recent += 1
        return min(self.rate - len(times), self.burst - recent) - self._reserved

    def _spend(self, now: float) -> None:
        self._times.append(now)

    def _next_room_at(self, now: float) -> float:
        """When room may come next (a request leaving the window or the quarter, or the pause ending)."""
        times = self._times
        if not times:
            return max(self._paused_until, now + 0.001)
        at = times[0] + self.window if len(times) >= self.rate else now
        if len(times) >= self.burst:
            at = max(at, times[-self.burst] + self.burst_window)
        return max(at, self._paused_until, now + 0.001)

    # --- waiting -----------------------------------------------------------------------
    async def take(self, priority: int | None = None) -> float:
        """Wait until one more global-limited request may go out now; returns the seconds waited."""
        reservation = _RESERVATION.get()
        if reservation is not None and reservation.held:  # the job's turn came: its first request goes
            reservation.held = False
            self._reserved -= 1
            priority = -1  # ahead of everyone: its room was held for it
        now = self.clock()
        if not self._waiters and self._room(now) > 0:
            self._spend(now)
            return 0.0
        return await self._wait(_PRIORITY.get() if priority is None else priority, reserve=False)

    async def reserve(self, priority: int) -> Reservation:
        """Wait for a job's turn (room held for its first request)."""
        now = self.clock()
        if not self._waiters and self._room(now) > 0:
            self._reserved += 1
            return Reservation()
        await self._wait(priority, reserve=True)
        return Reservation()

    def release(self, reservation: Reservation) -> None:
        """A job ended without using its room (it sent nothing): give it back."""
        if reservation.held:
            reservation.held = False
            self._reserved -= 1
            self._grant()

    async def _wait(self, priority: int, *, reserve: bool) -> float:
        start = self.clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._seq), future, reserve))
        self._grant()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # granted just as we were cancelled: give it back
                if reserve:
                    self._reserved -= 1
                self._grant()
            raise
        waited = self.clock() - start
        self.stats.waited += waited
        self.stats.waits += 1
        return waited

    def _grant(self) -> None:
        """Hand room to the waiters, best first; call again when room comes back."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = self.clock()
        while self._waiters:
            if self._room(now) <= 0:
                self._refill(now)
                if self._room(now) <= 0:
                    break
            _, _, future, reserve = heapq.heappop(self._waiters)
            if future.done():
                continue
            if reserve:
                self._reserved += 1
            else:
                self._spend(now)
            future.set_result(None)
        if self._waiters:
            self._timer = asyncio.get_running_loop().call_at(
                self._loop_time(self._next_room_at(now)), self._grant)

    def _refill(self, now: float) -> None:
        """A shared budget fetches more room from the database here."""

    def _loop_time(self, at: float) -> float:
        return asyncio.get_running_loop().time() + max(0.0, at - self.clock())

    def pause(self, seconds: float) -> None:
        """Discord answered a global 429: nothing more goes out for ``seconds``."""
        self._paused_until = max(self._paused_until, self.clock() + seconds)

    def queued(self) -> Counter[str]:
        """Requests and jobs waiting for the budget now, by priority name."""
        return Counter(PRIORITY_NAMES.get(p, "reserved") for p, _, f, _ in self._waiters if not f.done())

    def in_use(self, seconds: float = 10.0) -> float:
        """The share of the budget used over the last ``seconds`` (1.0: all of it)."""
        return self.stats.per_second(self.clock(), seconds) / max(1, self.rate)

    # --- discord.py's HTTP session ----------------------------------------------------------
    def trace_config(self, trace: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """Hooks for discord.py's aiohttp session (``http_trace``): each global-limited request waits for the
        budget just before it is sent (after discord.py's own wait for its route's bucket), and 429s are
        counted by scope (a global one pauses the budget)."""
        trace = trace or aiohttp.TraceConfig()
        trace.on_request_start.append(self._on_request_start)
        trace.on_request_end.append(self._on_request_end)
        return trace

    async def _on_request_start(self, session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        path = params.url.path
        interaction = is_interaction_endpoint(path)
        if not interaction:
            await self.take()
        self.stats.note_request(self.clock(), interaction, route_of(params.method, path))

    async def _on_request_end(self, session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        if response.status != 429:
            return
        scope = response.headers.get("X-RateLimit-Scope") or ("global" if response.headers.get("X-RateLimit-Global")
                                                              else "?")
        self.stats.rate_limited[scope] += 1
        log.warning("Discord answered 429 (%s) to %s %s", scope, params.method, route_of(params.method,
                                                                                        params.url.path))
        if scope == "global":
            try:
                self.pause(float(response.headers.get("Retry-After", "1")))
            except ValueError:
                self.pause(1.0)


class SharedBudget(Budget):
    """The global budget of one of several processes on one PostgreSQL database: each process leases its
    requests from the database (``Storage.lease_requests``), in slots of :data:`SLOT_SECONDS` with at most
    ``rate * SLOT_SECONDS / (1 + SLOT_SECONDS)`` requests per slot for all processes together, so that no
    second (which spans at most ``1 / SLOT_SECONDS + 1`` slots) ever holds more than ``rate``. The slot is the
    database server's clock, the same for every process."""

    def __init__(self, storage: Storage, rate: float = DEFAULT_RATE, window: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, slot: float = SLOT_SECONDS) -> None:
        super().__init__(rate, window, clock)
        self.storage = storage
        self.slot = slot
        slots = round(window / slot) + 1  # slots one window can touch
        self.per_slot = max(1, self.rate // slots)
        self._leased = 0
        self._lease_ends = 0.0
        self._leasing: asyncio.Task[None] | None = None

    def _room(self, now: float) -> int:
        local = super()._room(now)
        if now >= self._lease_ends:
            self._leased = 0
        return min(local, self._leased - self._reserved)

    def _spend(self, now: float) -> None:
        super()._spend(now)
        self._leased -= 1

    def _refill(self, now: float) -> None:
        if now < self._paused_until:
            return
        if self._leasing is None or self._leasing.done():
            want = min(self.per_slot, sum(1 for _, _, f, _ in self._waiters if not f.done()) + self._reserved)
            self._leasing = asyncio.ensure_future(self._lease(want))

    async def _lease(self, want: int) -> None:
        try:
            granted, seconds_left = await self.storage.lease_requests(want, self.per_slot, self.slot)
        except Exception as exc:  # the database is away: one request a slot meanwhile, and ask again
            log.warning("could not lease requests from the database: %s", exc)
            granted, seconds_left = 1, self.slot
        now = self.clock()
        if granted:
            # A reservation made earlier in this slot may hold room that is no longer leased: keep it counted.
            self._leased = granted + (self._leased if now < self._lease_ends else 0)
            self._lease_ends = now + seconds_left
        else:
            self._paused_until = max(self._paused_until, now + seconds_left)
        self._grant()

    def _next_room_at(self, now: float) -> float:
        return min(super()._next_room_at(now), max(self._lease_ends, now + 0.001))


class UserLimits:
    """Per-user limits on what one user can trigger again and again (``kind`` -> ``(times, per seconds)``)."""

    LIMITS: ClassVar[dict[str, tuple[int, float]]] = {
        "dm-retry": (3, 60.0),  # Try DMs again: a DM (and maybe a refusal) each time
        "status": (3, 60.0),  # /game status: a board drawn and posted
        "lobby": (6, 30.0),  # /game join, /game leave: the lobby edited
        "note": (2, 60.0),  # /game rejoin: a line in the channel
    }

    def __init__(self, clock: Callable[[], float] = time.monotonic, limits: dict[str, tuple[int, float]] | None = None,
                 kept: int = 50_000) -> None:
        self.clock = clock
        self.limits = dict(limits or self.LIMITS)
        self._seen: dict[tuple[int, str], deque[float]] = {}
        self._kept = kept
        self.refused: Counter[str] = Counter()

    def check(self, user_id: int, kind: str) -> float | None:
        """None if ``user_id`` may do ``kind`` now (counted), else the seconds until they may."""
        times, per = self.limits[kind]
        now = self.clock()
        seen = self._seen.get((user_id, kind))
        if seen is None:
            if len(self._seen) >= self._kept:
                self._seen.clear()
            seen = self._seen[(user_id, kind)] = deque()
        while seen and seen[0] <= now - per:
            seen.popleft()
        if len(seen) >= times:
            self.refused[kind] += 1
            return seen[0] + per - now
        seen.append(now)
        return None


@dataclass
class _Job:
    key: Hashable | None
    priority: int
    work: Callable[[], Coroutine[Any, Any, Any]]
    future: asyncio.Future[Any]
    queued_at: float
    spacing: float = 0.0
    poke: asyncio.Event = field(default_factory=asyncio.Event)  # set when a coalesced job made it more pressing
    lazy: bool = False  # may wait out its spacing unwatched (``idle`` doesn't wait for it)
    not_before: float = float("-inf")  # (clock) it waits at least until then: ``delay`` after its first change
    spaced: bool = False  # sleeping until its key's spacing is over


class Sender:
    """Jobs that make global-limited requests: in priority order within the budget, coalesced by key, waiting
    and running again when Discord answers 429 (never dropped for it). See the module docstring."""

    def __init__(self, budget: Budget, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.clock = clock
        self.users = UserLimits(clock)
        self._waiting: dict[Hashable, _Job] = {}  # key -> the job of that key waiting for its turn
        self._running: dict[Hashable, asyncio.Future[Any]] = {}  # key -> done when its running job ends
        self._last_run: dict[Hashable, float] = {}  # key -> when a job of that key last ran (for ``spacing``)
        self._tasks: dict[asyncio.Task[Any], _Job] = {}

    @property
    def stats(self) -> Stats:
        """The budget's counts."""
        return self.budget.stats

    async def send(self, priority: int, work: Callable[[], Coroutine[Any, Any, T]], *, key: Hashable | None = None,
                   spacing: float = 0.0) -> T:
        """Run ``work`` when the budget allows (see the module docstring); its result, or its error."""
        return await asyncio.shield(self._enqueue(priority, work, key, spacing, False, 0.0))

    def submit(self, priority: int, work: Callable[[], Coroutine[Any, Any, Any]], *, key: Hashable | None = None,
               spacing: float = 0.0, lazy: bool = False, delay: float = 0.0) -> asyncio.Future[Any]:
        """:meth:`send` without waiting: a refusal is logged, never raised. ``lazy``: nobody waits for it, so
        :meth:`idle` doesn't either while it waits out its spacing (a hand DM catching up at leisure). ``delay``:
        it goes no sooner than that after it was first asked for (later versions of it folded in meanwhile don't
        put it off further), so a burst of changes is one request even after a long quiet."""
        future = self._enqueue(priority, work, key, spacing, lazy, delay)
        future.add_done_callback(_log_failure)
        return future

    def _enqueue(self, priority: int, work: Callable[[], Coroutine[Any, Any, Any]], key: Hashable | None,
                 spacing: float, lazy: bool, delay: float) -> asyncio.Future[Any]:
        not_before = self.clock() + delay if delay > 0 else float("-inf")
        if key is not None:
            waiting = self._waiting.get(key)
            if waiting is not None:  # a newer version of the same job: it replaces the one waiting, and goes as
                waiting.work = work  # soon as the more pressing of the two would have
                waiting.lazy = waiting.lazy and lazy
                if spacing < waiting.spacing or priority < waiting.priority or not_before < waiting.not_before:
                    waiting.spacing = min(waiting.spacing, spacing)
                    waiting.priority = min(waiting.priority, priority)
                    waiting.not_before = min(waiting.not_before, not_before)
                    waiting.poke.set()
                self.stats.coalesced += 1
                return waiting.future
        job = _Job(key, priority, work, asyncio.get_running_loop().create_future(), self.clock(), spacing, lazy=lazy,
                   not_before=not_before)
        if key is not None:
            self._waiting[key] = job
        task = asyncio.ensure_future(self._run(job))
        self._tasks[task] = job
        task.add_done_callback(self._forget)
        return job.future

    def _forget(self, task: asyncio.Task[Any]) -> None:
        job = self._tasks.pop(task, None)
        if job is not None and job.key is not None and len(self._last_run) > 100_000:
            self._last_run.clear()  # (spacing is best effort: forgotten now and then on a very busy bot)

    async def _run(self, job: _Job) -> None:
        delay = RETRY_FIRST
        while True:
            if job.key is not None:  # one job of a key at a time, ``spacing`` apart
                while (running := self._running.get(job.key)) is not None:
                    await asyncio.shield(running)
                wait = max(self._last_run.get(job.key, float("-inf")) + job.spacing, job.not_before) - self.clock()
                if wait > 0:
                    job.poke.clear()
                    job.spaced = True
                    try:  # until the spacing is over, or the job became more pressing
                        await asyncio.wait_for(job.poke.wait(), wait)
                    except TimeoutError:
                        pass
                    finally:
                        job.spaced = False
                    continue
            reservation = await self.budget.reserve(job.priority)
            if job.key is not None:
                if job.key in self._running:  # someone got in first while we waited: give the room back
                    self.budget.release(reservation)
                    continue
                if self._waiting.get(job.key) is job:
                    del self._waiting[job.key]
                done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
                self._running[job.key] = done
                self._last_run[job.key] = self.clock()
            self.stats.jobs[PRIORITY_NAMES[job.priority]] += 1
            self.stats.queue_wait[PRIORITY_NAMES[job.priority]] += self.clock() - job.queued_at
            try:
                result = await self._call(job, reservation)
            except Exception as exc:
                retry = _retry_after(exc)
                if retry is None:
                    _settle(job.future, exc=exc)
                    return
                self.stats.retried += 1
                wait = max(retry, delay)
                delay = min(RETRY_MAX, delay * 2)
                log.info("Discord said slow down (429): a %s job goes again in %.1f s", PRIORITY_NAMES[job.priority],
                         wait)
                if job.key is not None:
                    newer = self._waiting.get(job.key)
                    if newer is not None:  # a newer version waits already: it goes instead
                        newer.future.add_done_callback(partial(_follow, job.future))
                        return
                    self._waiting[job.key] = job
                await asyncio.sleep(wait)
                job.queued_at = self.clock()
                continue
            finally:
                self.budget.release(reservation)
                if job.key is not None:
                    running = self._running.pop(job.key, None)
                    if running is not None and not running.done():
                        running.set_result(None)
            _settle(job.future, result=result)
            return

    @staticmethod
    async def _call(job: _Job, reservation: Reservation) -> Any:
        """Run the job's work as a task of its own whose requests carry its priority and reservation."""
        context = contextvars.copy_context()
        context.run(_PRIORITY.set, job.priority)
        context.run(_RESERVATION.set, reservation)
        return await asyncio.get_running_loop().create_task(context.run(job.work), context=context)

    def queued(self, *, lazy: bool = False) -> int:
        """Jobs waiting or running now (``lazy``: with the lazy ones waiting out their spacing)."""
        return sum(1 for job in self._tasks.values() if lazy or not (job.lazy and job.spaced))

    def flush(self) -> None:
        """Jobs waiting for their key's spacing go now (before a shutdown; tests that read every DM)."""
        for job in self._tasks.values():
            job.spacing, job.not_before = 0.0, float("-inf")
            job.poke.set()

    async def idle(self, timeout: float = 30.0, *, lazy: bool = False) -> None:  # noqa: ASYNC109 (a drain with a deadline: it returns when time is up, never raises)
        """Wait until no job is waiting or running (or ``timeout``); lazy ones waiting out their spacing are not
        waited for unless ``lazy``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            busy = {task for task, job in self._tasks.items() if lazy or not (job.lazy and job.spaced)}
            if not busy:
                return
            await asyncio.wait(busy, timeout=min(0.05, max(0.0, deadline - loop.time())))

    def summary(self) -> list[str]:
        """What the budget did, in lines (``/gameadmin status``, the log)."""
        stats, budget = self.stats, self.budget
        now = self.clock()
        limited = ", ".join(f"{scope} {n}" for scope, n in stats.rate_limited.most_common()) or "none"
        queued = budget.queued()
        return [
            f"Discord's global limit: {budget.rate} requests a second allowed to this process (Discord's limit"
            f" is {DISCORD_GLOBAL_LIMIT} for the whole bot); in use over the last 10 s: {budget.in_use():.0%}"
            f" ({stats.per_second(now):.1f}/s), over the last minute: {stats.per_second(now, RECENT):.1f}/s.",
            f"Requests since start: {stats.requests['global']:,} counted against the global limit,"
            f" {stats.requests['interaction']:,} through interactions (not counted).",
            f"Told to slow down (429) since start: {limited}.",
            f"Waiting for the budget: {stats.waits:,} requests waited {stats.waited:.1f} s in all; queued now: board"
            f" {queued['board']}, DMs {queued['dm']}, tidying {queued['tidy']}; {stats.coalesced:,} jobs folded into"
            f" a newer one, {stats.retried:,} run again after a 429.",
        ]

    async def log_forever(self, every: float = 300.0) -> None:
        """Log :meth:`summary` every ``every`` seconds when requests were made since the last time."""
        logged = -1
        while True:
            await asyncio.sleep(every)
            total = self.stats.requests["global"] + sum(self.stats.rate_limited.values())
            if total != logged:
                logged = total
                log.info("%s", " ".join(self.summary()))

    async def close(self) -> None:
        """Stop every job still waiting (the bot is shutting down)."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=1.0)


def _retry_after(exc: BaseException) -> float | None:
    """Seconds Discord asked to wait when ``exc`` is its 429 (discord.py gave up retrying), else None."""
    status = getattr(exc, "status", None)
    if status != 429:
        return None
    response = getattr(exc, "response", None)
    try:
        return float(response.headers.get("Retry-After", 0)) if response is not None else 0.0
    except (TypeError, ValueError):
        return 0.0


def _settle(future: asyncio.Future[Any], *, result: Any = None, exc: BaseException | None = None,
            source: asyncio.Future[Any] | None = None) -> None:
    if future.done():
        return
    if source is not None:
        if source.cancelled():
            future.cancel()
            return
        exc = source.exception()
        result = None if exc is not None else source.result()
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


def _follow(future: asyncio.Future[Any], source: asyncio.Future[Any]) -> None:
    _settle(future, source=source)


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a queued request failed: %s", future.exception())

