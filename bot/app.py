"""The discord.py application: storage, the table service, cogs, timers."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import pkgutil
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rendering
from bot import loops
from bot.backend import make_storage
from bot.config import Config
from bot.metrics import Metrics
from bot.permissions import ManagerRoles, manages_server
from bot.search import pool as search_pool
from bot.sender import Budget, Sender, SharedBudget
from bot.storage import GameRow, StorageError, answering
from bot.tables import Outcome, TableService
from cogs.boards import TableUI
from cogs.refusals import Refusals
from cogs.router import ComponentRouter

log = logging.getLogger("heistcord")

CORE_COGS = ("cogs.game", "cogs.admin", "cogs.stats")
# Modules of cogs/ that are shared helpers, not cogs.
HELPER_MODULES = ("ui", "limits", "customid", "refusals", "embeds", "panel", "dms", "router", "boards", "deadline")
TIMER_MAX_SLEEP = 30.0
DRAIN_SECONDS = 5.0
# discord.py names the tasks that run commands, events and component callbacks;
# ours are what the bot does when Discord refuses a channel (cogs.refusals).
HANDLER_TASK_PREFIXES = ("discord.py: ", "CommandTree-invoker", "discord-ui-", "heistcord-refusal-")


def intents(members: bool = False) -> discord.Intents:
    """Only what the bot needs: guilds (channels, roles). Slash commands and
    buttons arrive as interactions, which need no intent at all. The privileged
    ``members`` intent is asked for only when the server owner opts in
    (``HEISTCORD_MEMBERS_INTENT=1``): it tells the bot when a seated player
    leaves the server, so their seat is handed on at once."""
    value = discord.Intents.none()
    value.guilds = True
    value.members = members
    return value


def discover_cogs() -> list[str]:
    """The cog modules to load: the core ones first, then every other module of cogs/ but the shared helpers."""
    import cogs

    names = list(CORE_COGS)
    for module in pkgutil.iter_modules(cogs.__path__):
        name = f"cogs.{module.name}"
        if name not in names and module.name not in HELPER_MODULES and not module.name.startswith("_"):
            names.append(name)
    return names


RATELIMIT_SWEEP_SECONDS = 60.0


def sweep_ratelimits_lazily(http: Any, every: float = RATELIMIT_SWEEP_SECONDS,
                            clock: Callable[[], float] = time.monotonic) -> None:
    """discord.py (2.7) forgets a route's rate-limit bucket once it was idle 5 minutes, by walking every bucket
    each time it makes a new one (past 256). A bucket is per route and channel: with a board per table and a DM
    per player the walk covers thousands, 2-4 ms each time, up to 13% of the event loop under load. Walked at
    most once per ``every`` seconds here: the same idle buckets are forgotten, at most ``every`` seconds later."""
    sweep = http._try_clear_expired_ratelimits  # (tests/test_e2e_lean.py fails if discord.py renames it)
    last = float("-inf")

    def sweep_now_and_then() -> None:
        nonlocal last
        if len(http._buckets) >= 256 and clock() - last >= every:
            last = clock()
            sweep()

    http._try_clear_expired_ratelimits = sweep_now_and_then


class HeistTree(app_commands.CommandTree):
    """One place where every slash command's failure is turned into a reply."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every command (and autocomplete) must be answered within Discord's 3 seconds: its database waits end in
        time to say so if the database fails (``bot.storage.answering``)."""
        answering(interaction.response.is_done)
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A failed slash command: a TableError is told to the player, and so is a database that fails; anything
        else is logged, and they retry."""
        from bot.tables import TableError
        from cogs.router import database_trouble

        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await interaction.client.ui.error(interaction, str(original))  # type: ignore[attr-defined]
        elif isinstance(original, StorageError):
            await interaction.client.ui.error(interaction, database_trouble(original))  # type: ignore[attr-defined]
        elif isinstance(error, app_commands.CheckFailure):
            return  # the check already answered
        else:
            log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=original)
            await interaction.client.ui.error(  # type: ignore[attr-defined]
                interaction, "Something went wrong on our side; the game is unchanged. Please try again.")


class HeistBot(commands.AutoShardedBot):
    """Sharded (Discord refuses an unsharded bot in more than 2,500 servers): as many shards
    as Discord recommends, or ``HEISTCORD_SHARD_COUNT`` with this process running the shards
    ``HEISTCORD_SHARD_IDS`` (all of them by default)."""

    def __init__(self, config: Config, *, seed_source=None, clock=None, sync_only: bool = False,
                 **kwargs: Any) -> None:
        kwargs.setdefault("intents", intents(config.members_intent))
        kwargs.setdefault("shard_count", config.shard_count)
        kwargs.setdefault("shard_ids", config.shard_ids)
        refusals = Refusals(clock=clock or time.time)
        storage = make_storage(config.db_path, config.database_url)
        # Every global-limited request waits for the budget (one per process, or leased from PostgreSQL when
        # several processes share the bot), and every answer Discord refuses is counted.
        budget = SharedBudget(storage, config.global_rate) if storage.shared else Budget(config.global_rate)
        kwargs.setdefault("http_trace", budget.trace_config(refusals.trace_config()))
        # The bot uses no voice: discord.py's warnings that its voice libraries are missing would only mislead.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, tree_cls=HeistTree, **kwargs)
        sweep_ratelimits_lazily(self.http)
        self.config = config
        self.refusals = refusals
        self.storage = storage
        self.sender = Sender(budget)
        self.metrics = Metrics(self.sender)
        self.sync_only = sync_only
        self._seed_source = seed_source
        self._clock = clock
        self.tables: TableService = None  # type: ignore[assignment]
        self.ui = TableUI(self)
        self._timer_task: asyncio.Task | None = None
        self._refusal_log_task: asyncio.Task | None = None
        self._budget_log_task: asyncio.Task | None = None
        self._timer_wakeup = asyncio.Event()
        self._recovered = False  # the start-up recovery is done (tried again on every timer pass until it is)
        self.timer_passes = 0  # timer passes done (tests wait on it)
        self._frozen = False
        self._stopping = False
        self.permissions = ManagerRoles(self.storage)

    async def setup_hook(self) -> None:
        """Open the storage, start the table service, load the cogs and the timers before connecting."""
        await self.storage.open()
        await self.refusals.load(self.storage)
        extra = {"clock": self._clock} if self._clock else {}
        self.tables = TableService(self.storage, seed_source=self._seed_source,
                                   default_turn_minutes=self.config.default_turn_minutes, **extra)
        self.tables.on_late_save = self._late_save
        self.add_listener(ComponentRouter.on_interaction, "on_interaction")
        for name in discover_cogs():
            await self.load_extension(name)
        await self.sync_commands(force=self.sync_only)
        if self.sync_only:
            return
        if self.config.metrics_port:
            self.metrics.serve(self.config.metrics_port)
        self._budget_log_task = asyncio.create_task(self.sender.log_forever(), name="heistcord-budget-log")
        self._timer_task = asyncio.create_task(self._timer_loop(), name="heistcord-timers")
        self._refusal_log_task = asyncio.create_task(self.refusals.log_forever(), name="heistcord-http-log")

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the slash commands with Discord (a rate-limited route) only when they changed since the last
        sync: a hash of them is kept in the database, and of several processes starting together with a new
        command set exactly one syncs it. ``force`` (``heistcord sync``) syncs anyway. True if synced."""
        guild = discord.Object(id=self.config.dev_guild_id) if self.config.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"commands:{guild.id if guild is not None else 'global'}"
        changed = await self.storage.swap_meta(key, digest)
        if not changed and not force:
            log.info("slash commands unchanged since they were last synced: not synced again")
            return False
        try:
            await self.tree.sync(guild=guild)
        except Exception:
            await self.storage.swap_meta(key, "")  # not synced after all: the next start tries again
            raise
        if guild is not None:
            log.info("commands synced to development guild %s", guild.id)
        else:
            log.info("commands synced globally (may take up to an hour to appear)")
        return True

    async def close(self) -> None:
        """Stop the timers, let running handlers finish, then close the connection and the storage."""
        self._stopping = True
        for task in (self._timer_task, self._refusal_log_task, self._budget_log_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self._drain_handlers()
        await self.ui.idle(timeout=DRAIN_SECONDS, dms=True)  # hand DMs waiting to catch up go now
        await self.sender.close()
        self.metrics.close()
        await super().close()
        await self.storage.close()
        gc.unfreeze()  # what start-up froze may be collected again (a process that starts another bot: the tests)

    @staticmethod
    def handler_tasks() -> list[asyncio.Task]:
        """Commands, events and button callbacks being handled right now."""
        current = asyncio.current_task()
        return [t for t in asyncio.all_tasks() if t is not current and not t.done()
                and t.get_name().startswith(HANDLER_TASK_PREFIXES)]

    async def _drain_handlers(self) -> None:
        """Let moves already being handled finish (and be stored) before shutting down."""
        pending = self.handler_tasks()
        if pending:
            await asyncio.wait(pending, timeout=DRAIN_SECONDS)

    async def idle(self, timeout: float = 30.0, *, dms: bool = False) -> None:  # noqa: ASYNC109 (a drain with a deadline: it returns when time is up, never raises)
        """Wait until every interaction being handled is done (boards posted, DMs sent; hand DMs that catch up
        at leisure too if ``dms``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            while (pending := self.handler_tasks()) and loop.time() < deadline:
                await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()))
            await self.ui.idle(timeout=max(0.0, deadline - loop.time()), dms=dms)  # what they queued (DMs, tidying)
            if not self.handler_tasks() and self.ui.quiet(dms=dms):
                return

    async def _late_save(self, game: GameRow, version: int) -> None:
        """A change whose save was in doubt (its player was told so) turned out stored: show the table as it is
        now (its board with the moves made since ``version``, hands and final scores; or its lobby, or that it
        ended)."""
        if game.status == "lobby":
            await self.ui.refresh_lobby(game)
        elif game.status == "ended":
            await self.ui.announce_end(game)
        elif game.state is not None:
            finished = game.status == "finished"
            engine = self.tables.engine(game)
            log_lines = await self.tables.public_log(game.id)
            events = [{"type": "late", "text": text} for n, text in log_lines if n > version]
            await self.ui.publish(Outcome(game=game, events=events, turn_passed=True, finished=finished,
                                          changed_private=set(range(len(game.seats))),
                                          results=engine.scores(game.state) if finished else None))

    # The permission checks live in bot.permissions; these names stay for the cogs that call them on the bot.
    manages_server = staticmethod(manages_server)

    def is_manager(self, interaction: discord.Interaction) -> bool:
        """Manage Server permission, or the role the server configured (see ``bot.permissions``)."""
        return self.permissions.is_manager(interaction)

    async def refresh_manager_role(self, guild_id: int) -> None:
        """Read a guild's manager role again after its settings changed."""
        await self.permissions.refresh(guild_id)

    def wake_timers(self) -> None:
        """Make the timer loop look at the deadlines now (a new one may be sooner)."""
        self._timer_wakeup.set()

    async def _timer_loop(self) -> None:
        """Fire reminders and deadlines; sleeps until the next one (they are stored,
        so they fire correctly after a restart). Survives anything (``bot.loops``)."""
        await self.wait_until_ready()
        await loops.forever("timers", self._timer_pass, log, wake=self._timer_wakeup,
                            stopping=lambda: self._stopping or self.is_closed())

    async def _timer_pass(self) -> float:
        """One pass of the timer loop: the start-up recovery until it is done, then the timers due; returns the
        seconds until the next timer (at most ``TIMER_MAX_SLEEP``)."""
        if not self._recovered:
            try:  # games a crash or an outage left waiting on the bot move on now
                for kind, outcome in await self.tables.recover():
                    await self._announce(kind, outcome)
                self._recovered = True
            finally:
                self._freeze_start_up()
        else:
            for kind, outcome in await self.tables.fire_timers():
                await self._announce(kind, outcome)
        next_at = await self.storage.next_timer()
        self.timer_passes += 1
        return TIMER_MAX_SLEEP if next_at is None else max(0.05, min(TIMER_MAX_SLEEP, next_at - self.tables.clock()))

    async def _announce(self, kind: str, outcome: Any) -> None:
        """Post what a timer or the recovery did; a failure is logged and the other games are still announced."""
        try:
            if kind == "recovered":
                await self.ui.publish(outcome)
            else:
                await self.ui.timer_fired(kind, outcome)
        except Exception:
            log.exception("game %s: could not announce its %s", outcome.game.id, kind)

    def _freeze_start_up(self) -> None:
        """What start-up loaded (modules, discord.py's caches, the games recovery read) stays for the process's
        life: kept out of the garbage collector's full passes, which scanned all of it on the event loop
        (65-150 ms each, several during a few minutes of play; tests/bench_botproc.py counts them). Once."""
        if self._frozen:
            return
        self._frozen = True
        gc.collect()
        gc.freeze()
        log.info("start-up done: %d objects kept out of the garbage collector's full passes", gc.get_freeze_count())


def create_bot(config: Config, **kwargs: Any) -> HeistBot:
    """The bot, with its database file claimed for this process (raises
    bot.storage.DatabaseInUseError when another process already runs on it). The drawing and search workers take
    their settings from ``config``."""
    rendering.configure(config.render_workers, config.render_timeout)
    search_pool.configure(config.search_workers)
    bot = HeistBot(config, **kwargs)
    bot.storage.claim()
    return bot


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``, with discord.py's gateway chatter turned down."""
    logging.basicConfig(level=getattr(logging, level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)

