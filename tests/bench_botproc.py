"""The bot side of ``tests/bench_load.py``: one bot in its own process, logged into
the benchmark's fake Discord on loopback.

    python -m tests.bench_botproc heistcord --url http://127.0.0.1:PORT --db FILE --guild ID [--seed N]
    python -m tests.bench_botproc bare --url http://127.0.0.1:PORT --guild ID --pngs FILE.json

``heistcord`` is the real bot (``bot.app.create_bot`` with every cog). ``bare`` is the
floor: a bare discord.py bot with the same surface and none of the work. ``/game play``
answers an ephemeral panel of buttons; a button edits the panel, then posts a "board" with
a same-size PNG read from a file (``--pngs`` maps channel id to the PNG of that channel's
game). No storage, no rules, no drawing. Both sync their commands to the guild at start,
as heistcord does, and stop cleanly on SIGTERM.

Imports are kept to what each bot needs, so process start to first answer is comparable.
"""
from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import itertools
import json
import logging
import os
import re
import signal
import sys
import time


def point_discord_at(url: str) -> None:
    """REST, webhooks and the gateway of discord.py go to the fake at ``url`` (as FakeDiscord.install does
    in-process)."""
    import discord.http
    import yarl
    from discord.gateway import DiscordWebSocket

    discord.http.Route.BASE = f"{url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http://", "ws://", 1) + "/gateway/")


def heistcord_bot(args: argparse.Namespace):
    from bot.app import configure_logging, create_bot
    from bot.config import Config

    configure_logging(args.log_level)
    if args.with_test_game:  # tests: the small Coin Pile game of tests/dummy_game.py
        from bot.games import register
        from tests.dummy_game import ENGINE

        register(ENGINE)
    if args.timer_poll is not None:  # tests: timers another process set are noticed sooner than 30 s
        import bot.app

        bot.app.TIMER_MAX_SLEEP = args.timer_poll
    seeds = itertools.count(args.seed)
    settings = Config.from_env(env_file=None)  # the workers' settings (HEISTCORD_RENDER_WORKERS, ...) from the run
    return create_bot(dataclasses.replace(settings, token="fake-token", db_path=args.db or "unused.db",
                                          dev_guild_id=args.guild or None, log_level=args.log_level,
                                          database_url=args.database_url, shard_count=args.shard_count,
                                          shard_ids=args.shard_ids),
                      seed_source=lambda: next(seeds))


def bare_bot(args: argparse.Namespace):
    import discord
    from discord import app_commands

    logging.basicConfig(level=getattr(logging, args.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with open(args.pngs, encoding="utf-8") as f:
        pngs = {int(channel): open(path, "rb").read() for channel, path in json.load(f).items()}
    versions: dict[int, int] = {}

    def panel(channel_id: int) -> discord.ui.View:
        version = versions.setdefault(channel_id, 0)
        view = discord.ui.View(timeout=None)
        for i in range(6):
            view.add_item(discord.ui.Button(label=f"Move number {i + 1} of the bare bot", custom_id=f"hc:act:{channel_id}:{version}:{i}"))
        return view

    def board_view(channel_id: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Play", emoji="🎲", custom_id=f"hc:play:{channel_id}"))
        return view

    class Move(discord.ui.DynamicItem[discord.ui.Button], template=r"hc:act:(?P<channel>\d+):(?P<version>\d+):(?P<index>\d+)"):
        def __init__(self, item: discord.ui.Button, channel: int = 0, index: int = 0) -> None:
            super().__init__(item)
            self.channel, self.index = channel, index

        @classmethod
        async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
            return cls(item, int(match["channel"]), int(match["index"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            versions[self.channel] = versions.get(self.channel, 0) + 1
            await interaction.response.edit_message(content=f"✅ Move {self.index + 1}\nIt's not your turn.", view=None)
            channel = interaction.client.get_channel(self.channel)
            await channel.send(f"**Bare** · move {versions[self.channel]}\n• played by <@{interaction.user.id}>",
                               file=discord.File(io.BytesIO(pngs[self.channel]), filename="board.png"),
                               view=board_view(self.channel), allowed_mentions=discord.AllowedMentions(users=True))

    class BareBot(discord.Client):
        def __init__(self) -> None:
            intents = discord.Intents.none()
            intents.guilds = True
            super().__init__(intents=intents)
            self.tree = app_commands.CommandTree(self)
            game = app_commands.Group(name="game", description="Bare benchmark bot", guild_only=True)

            @game.command(name="play", description="Open your move panel")
            async def play(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("**Your move.**", view=panel(interaction.channel_id),
                                                        ephemeral=True)

            self.tree.add_command(game)

        async def setup_hook(self) -> None:
            self.add_dynamic_items(Move)
            guild = discord.Object(id=args.guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    return BareBot()


# --- HEISTCORD_TIMELINE=FILE: where a move's time goes ---------------------------------------------------------------
# Off by default. Stamps (time.perf_counter, the system's monotonic clock, comparable with the benchmark's process) are
# taken at the points a click -> board goes through, and written to FILE as JSON when the bot stops: the gateway event
# parsed, the move stored, each REST request started and answered, a picture asked for, handed to the drawing worker,
# drawn there (start and end, stamped in the worker) and back on the event loop, the board's post begun.
# ``tests/bench_load.py --timeline`` reads it and prints the p50 timeline of the one-at-a-time moves.
STAMPS: list[tuple[float, str, float]] = []  # (perf_counter, what, CPU seconds of the stamping thread)


def stamp(label: str) -> None:
    STAMPS.append((time.perf_counter(), label, time.thread_time()))


def timed_call(func, *args):
    """Runs in the drawing worker: ``func(*args)`` and when it started and ended there."""
    start, cpu = time.perf_counter(), time.thread_time()
    result = func(*args)
    return result, [(start, "worker: drawing starts", cpu),
                    (time.perf_counter(), "worker: drawing ends", time.thread_time())]


class TimedExecutor:
    """The drawing executor, stamping when a job is handed to it and when its result is back (in the executor's
    own thread, before the event loop hears of it)."""

    def __init__(self, executor) -> None:
        self._executor = executor

    def __getattr__(self, name: str):
        return getattr(self._executor, name)

    def submit(self, fn, *args, **kwargs):
        import concurrent.futures

        stamp("drawing handed to the worker")
        inner = self._executor.submit(timed_call, fn, *args, **kwargs)
        outer: concurrent.futures.Future = concurrent.futures.Future()

        def done(future) -> None:
            stamp("drawing back from the worker (its thread)")
            if outer.cancelled():
                return
            if future.cancelled():
                outer.cancel()
            elif future.exception() is not None:
                outer.set_exception(future.exception())
            else:
                result, stamps = future.result()
                STAMPS.extend(stamps)
                outer.set_result(result)

        inner.add_done_callback(done)
        return outer


def wrap_async(owner, name: str, label) -> None:
    """``owner.name`` (a coroutine function) stamps ``label(*args)`` + " begins"/" ends" around each call."""
    original = getattr(owner, name)

    async def wrapper(*args, **kwargs):
        what = label(*args, **kwargs)
        if what is None:
            return await original(*args, **kwargs)
        stamp(f"{what} begins")
        try:
            return await original(*args, **kwargs)
        finally:
            stamp(f"{what} ends")

    setattr(owner, name, wrapper)


def install_timeline(kind: str) -> None:
    """Patch the stamps in (``kind``: "heistcord" or "bare")."""
    import discord.http
    import discord.state
    import discord.webhook.async_

    def http_label(http, route, *args, files=None, **kwargs):
        path = route.path.replace("{channel_id}/messages/{message_id}", "*/messages/*")
        path = path.replace("/{interaction_id}/{interaction_token}", "/*").replace("/{webhook_id}/{webhook_token}", "/*")
        names = [f.filename for f in files or []]
        return f"{route.method} {path}{' with ' + ', '.join(names) if names else ''}"

    wrap_async(discord.http.HTTPClient, "request", http_label)
    wrap_async(discord.webhook.async_.AsyncWebhookAdapter, "request", http_label)
    parse = discord.state.ConnectionState.parse_interaction_create

    def parse_interaction_create(self, data):
        stamp("click received (gateway event parsed)")
        return parse(self, data)

    discord.state.ConnectionState.parse_interaction_create = parse_interaction_create
    if kind != "heistcord":
        return
    import cogs.boards
    import cogs.embeds
    import rendering
    from bot.tables import TableService

    wrap_async(TableService, "act", lambda *a, **k: "move (TableService.act)")
    wrap_async(cogs.boards.TableUI, "publish", lambda *a, **k: "publish")
    wrap_async(cogs.boards.TableUI, "post_board", lambda *a, **k: "post_board")
    for module in (cogs.boards, cogs.embeds):
        wrap_async(module, "render_async", lambda key, kind, *a, **k: f"render_async {kind}")
    early = cogs.boards.TableUI.draw_board_early

    def draw_board_early(self, game):
        before = self._early.get(game.id)
        early(self, game)
        if self._early.get(game.id) is not before:
            stamp("board drawing started early")

    cogs.boards.TableUI.draw_board_early = draw_board_early
    executor = rendering.render_executor
    timed: dict[int, TimedExecutor] = {}

    def render_executor():
        real = executor()
        if id(real) not in timed:
            timed.clear()
            timed[id(real)] = TimedExecutor(real)
        return timed[id(real)]

    rendering.render_executor = render_executor


async def report_quiet(bot, asked: list[asyncio.Task]) -> None:
    """Tests (``--quiet-signal``, SIGUSR1): log "QUIET" once two timer passes ran since the signal and every
    interaction being handled is done: whatever a move or a timer would still do has been done by then."""
    passes = bot.timer_passes
    while bot.timer_passes < passes + 2:  # (the first may have begun before the signal)
        bot.wake_timers()
        await asyncio.sleep(0.02)
    await bot.idle()
    logging.getLogger("heistcord").info("QUIET after %d timer passes", bot.timer_passes)
    asked[:] = [t for t in asked if not t.done()]


async def serve(args: argparse.Namespace) -> None:
    point_discord_at(args.url)
    bot = heistcord_bot(args) if args.bot == "heistcord" else bare_bot(args)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task] = []
    loop.add_signal_handler(signal.SIGTERM, lambda: stopping.append(asyncio.create_task(bot.close())))
    if args.quiet_signal and args.bot == "heistcord":
        asked: list[asyncio.Task] = []
        loop.add_signal_handler(signal.SIGUSR1, lambda: asked.append(asyncio.create_task(report_quiet(bot, asked))))
    try:
        await bot.start("fake-token")
    finally:
        if not bot.is_closed():
            await bot.close()
        if stopping:
            await asyncio.gather(*stopping, return_exceptions=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", choices=("heistcord", "bare"))
    parser.add_argument("--url", required=True, help="the fake Discord's base URL (loopback)")
    parser.add_argument("--guild", type=int, required=True, help="the guild to sync commands to (0: global)")
    parser.add_argument("--db", help="heistcord: the SQLite file")
    parser.add_argument("--seed", type=int, default=1, help="heistcord: first seed for new games")
    parser.add_argument("--database-url", help="heistcord: a PostgreSQL URL (instead of --db)")
    parser.add_argument("--shard-count", type=int, help="heistcord: the total number of shards")
    parser.add_argument("--shard-ids", type=lambda t: [int(x) for x in t.split(",")], help="heistcord: e.g. 0 or 0,1")
    parser.add_argument("--timer-poll", type=float, help="heistcord: longest sleep of the timer loop (seconds)")
    parser.add_argument("--with-test-game", action="store_true", help="heistcord: add the tests' Coin Pile game")
    parser.add_argument("--quiet-signal", action="store_true",
                        help="heistcord: on SIGUSR1, log QUIET once idle after two timer passes (tests)")
    parser.add_argument("--pngs", help="bare: JSON file mapping channel id to the PNG its boards upload")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args()
    if not args.url.startswith("http://127.0.0.1:"):
        parser.error("the benchmark bots only talk to a fake Discord on loopback")
    timeline_to = os.environ.get("HEISTCORD_TIMELINE")
    if not timeline_to:
        return run(args)
    install_timeline(args.bot)
    try:
        return run(args)
    finally:
        with open(timeline_to, "w") as out:
            json.dump(STAMPS, out)


def run(args: argparse.Namespace) -> int:
    """Serve until stopped, under cProfile when HEISTCORD_PROFILE is set."""
    profile_to = os.environ.get("HEISTCORD_PROFILE")
    if not profile_to:
        asyncio.run(serve(args))
        return 0
    # HEISTCORD_PROFILE=PREFIX: cProfile (CPU time) the main thread (the event loop; not the writer thread nor the drawing
    # worker) and write PREFIX.<bot>.prof when the bot stops (`python -m pstats` reads it).
    import cProfile

    # The garbage collector's passes are charged by cProfile to whatever function was allocating: they are also
    # counted apart, per generation, in PREFIX.<bot>.gc (count and CPU seconds of this thread).
    import gc

    collections: dict[int, list[float]] = {}
    started: list[float] = []
    slow: list[str] = []  # the passes over 10 ms: when (seconds since start), which generation, how long
    began = time.monotonic()

    def count_collection(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.thread_time()]
        elif started:
            spent = collections.setdefault(info["generation"], [0, 0.0])
            took = time.thread_time() - started[0]
            spent[0] += 1
            spent[1] += took
            if took > 0.01:
                slow.append(f"  at {time.monotonic() - began:.1f} s: generation {info['generation']}, {took * 1000:.0f} ms"
                            f" ({gc.get_freeze_count()} objects frozen)")

    gc.callbacks.append(count_collection)
    profiler = cProfile.Profile(time.thread_time)  # CPU of this thread, not waits for the GIL

    def write(path: str) -> None:
        profiler.dump_stats(f"{path}.prof")
        with open(f"{path}.gc", "w") as out:
            for generation, (count, spent) in sorted(collections.items()):
                out.write(f"generation {generation}: {count} collections, {spent:.3f} s of CPU\n")
            out.write("passes over 10 ms:\n" + "\n".join(slow) + "\n")

    # One phase of the benchmark alone: SIGUSR1 forgets what was profiled so far, SIGUSR2 writes what was profiled
    # since as PREFIX.<bot>.phase<N>.prof (and .gc) and starts afresh (tests/bench_load.py sends them around a phase).
    phases = itertools.count(1)

    def restart() -> None:
        profiler.disable()
        profiler.clear()
        collections.clear()
        slow.clear()
        profiler.enable()

    def phase_ends() -> None:
        write(f"{profile_to}.{args.bot}.phase{next(phases)}")
        restart()

    signal.signal(signal.SIGUSR1, lambda *_: restart())
    signal.signal(signal.SIGUSR2, lambda *_: phase_ends())
    profiler.enable()
    try:
        asyncio.run(serve(args))
    finally:
        profiler.disable()
        write(f"{profile_to}.{args.bot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
