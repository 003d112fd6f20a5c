"""``TableUI``: what the cogs do with the table service's outcomes in a game's channel -- post the board
(or edit the living one), refresh the lobby, open the game's thread, post the final scores, notes and
reminders. Its other jobs are mixed in from their own modules: the move panel (``cogs.panel``), DMs
(``cogs.dms``) and the button router (``cogs.router``).

**A move rides its interaction.** What a player's click causes (bot seats moving after it, the living board
edited, the new board when the turn passes, its ping) goes through that click's interaction endpoints, which
Discord does not count against the bot's global rate limit: a new board is a follow-up of the move's
interaction, and a message created so is edited later through the same interaction token (valid 15 minutes)
-- the living board by the moves of the same turn, an old board when its buttons come off. Only what has no
fresh interaction (a deadline's move, a reminder, a board whose token expired, DMs) goes through the budgeted
sender (``bot.sender``): the current board first, then DMs, then tidying old boards."""
from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.coalesce import Coalescer
from bot.engine import Engine
from bot.sender import BOARD, TIDY
from bot.storage import GameRow
from bot.tables import Outcome, TableError, TableService, engine_options
from cogs import refusals
from cogs.dms import HAND_SPACING, OWN_MOVE_SPACING, DirectMessages
from cogs.embeds import (
    alt_text,
    as_files,
    board_content,
    board_page,
    board_pages,
    board_view,
    lobby_embed,
    lobby_view,
    results_text,
)
from cogs.limits import CONTENT, clip, fit
from cogs.panel import PanelReplies
from cogs.router import ComponentHandlers
from rendering import drawing_idle, render_async

if TYPE_CHECKING:
    from bot.app import HeistBot

log = logging.getLogger("heistcord.ui")

ARCHIVED_THREAD = 50083  # Discord's error code for an edit in an archived thread
BOARD_FIRST_WAIT = 0.5  # seconds a move's DMs wait at most for its board to be posted first
THREAD_ARCHIVE_MINUTES = 10080  # the longest auto-archive Discord allows: a slow game's thread stays open a week
TOKEN_LIFETIME = 15 * 60.0  # an interaction token's life (Discord: 15 minutes) ...
TOKEN_MARGIN = 60.0  # ... of which the last minute is left alone (clocks, a slow request)
HOOKS_KEPT = 20_000  # messages whose creating interaction token is remembered
LOBBY_SPACING = 1.0  # seconds between two edits of one lobby, however fast people join and leave

Kwargs = Callable[[], dict[str, Any]]  # builds a message's arguments afresh (files are read once per request)


@dataclass
class Via:
    """An interaction the bot answered: new messages in its channel go as its follow-ups, and the messages it
    created are edited through its token, until the token is about to expire."""
    webhook: discord.Webhook
    channel_id: int
    expires: float  # time.monotonic()
    clicked_at: float = 0.0  # time.time() of the interaction (for the click -> board figures)

    @classmethod
    def of(cls, interaction: discord.Interaction | None) -> Via | None:
        """The answered ``interaction``'s way to Discord (None if it has none: not answered yet, or too old)."""
        if interaction is None or interaction.channel_id is None or not interaction.response.is_done():
            return None
        age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
        via = cls(interaction.followup, interaction.channel_id, time.monotonic() + TOKEN_LIFETIME - TOKEN_MARGIN - age,
                  interaction.created_at.timestamp())
        return via if via.fresh(interaction.channel_id) else None

    def fresh(self, channel_id: int) -> bool:
        """Whether a message for ``channel_id`` may go this way now."""
        return self.channel_id == channel_id and time.monotonic() < self.expires


def pinged(game: GameRow, engine: Engine) -> list[int]:
    """The players a new board pings: the people the game waits for, but nobody in a timed window (e.g. "anyone may
    interrupt this roll"): it needs no answer, closing by itself, and pinging only the seats that hold an answer
    would tell the table who holds one. Outside a window a decision with one option is pinged like any other: the
    table waits for its click, and who has one option can hang on a hidden hand (HEIST's "No assist"), so leaving
    those out would reveal it. Every name is on the board all the same."""
    if game.status != "running" or game.state is None:
        return []
    if engine.window_seconds(game.state, engine_options(game)) is not None:
        return []
    users = []
    for seat in engine.to_act(game.state):
        info = game.seats[seat]
        if not info.get("bot") and not info.get("away") and info.get("user_id"):
            users.append(int(info["user_id"]))
    return users


class TableUI(PanelReplies, DirectMessages, ComponentHandlers):
    """What the cogs do with outcomes: post boards, refresh lobbies, DM hands."""

    def __init__(self, bot: HeistBot) -> None:
        self.bot = bot
        self.boards = Coalescer(self._post_latest_board)
        bot.refusals.on_channel_refused = self.channel_refused
        self._turn_events: dict[int, list[dict[str, Any]]] = {}  # per game: the living board's events (its turn's)
        self._board_asked: dict[int, list[asyncio.Event]] = {}  # per game: moves whose DMs wait for the board
        # per game: a board picture started before the move's reply (the state it shows, its public view, the drawing)
        self._early: dict[int, tuple[dict[str, Any], dict[str, Any], asyncio.Task]] = {}
        self._hooks: OrderedDict[int, Via] = OrderedDict()  # message id -> the interaction that created it
        self.dm_channel_ids: dict[int, int] = {}
        self._dms_refused: dict[int, set[int]] = {}
        self._pending_notes: dict[tuple[int, int], list[str]] = {}
        # per channel: old boards whose buttons Discord would not let the bot take off (a locked thread), taken off
        # when it may post there again (fresh_board)
        self._unretired: dict[int, set[int]] = {}
        self._recent_notes: dict[tuple[int, int], deque[str]] = {}
        self._notified: dict[tuple[int, int], int] = {}  # (game, seat) -> notifying DMs sent or queued
        self.hand_spacing, self.own_move_spacing = HAND_SPACING, OWN_MOVE_SPACING  # (cogs.dms)
        self._background: set[asyncio.Task] = set()  # work that outlives the interaction it answered

    async def idle(self, timeout: float = 30.0, *, dms: bool = False) -> None:  # noqa: ASYNC109 (a drain with a deadline: it returns when time is up, never raises)
        """Wait until the work queued by handlers (old boards' buttons, DMs) is done; hand DMs that wait to
        catch up at leisure (``cogs.dms``) go now if ``dms``, else they are not waited for."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.quiet(dms=dms) and loop.time() < deadline:
            if dms:
                self.bot.sender.flush()
            if self._background:
                await asyncio.wait(set(self._background), timeout=max(0.0, deadline - loop.time()))
            await self.bot.sender.idle(timeout=max(0.0, deadline - loop.time()), lazy=dms)

    def quiet(self, *, dms: bool = False) -> bool:
        """Nothing queued or running (``dms``: not even a hand DM waiting to catch up)."""
        return not self._background and not self.bot.sender.queued(lazy=dms)

    @property
    def tables(self) -> TableService:
        """The table service the cogs act through."""
        return self.bot.tables

    async def error(self, interaction: discord.Interaction, message: str) -> None:
        """Tell the clicker what went wrong, privately (a follow-up if the interaction was answered)."""
        if interaction.response.is_done():
            await interaction.followup.send(**fit(message, ephemeral=True))
        else:
            await interaction.response.send_message(**fit(message, ephemeral=True))

    def check_user_limit(self, interaction: discord.Interaction, kind: str) -> None:
        """What a user can trigger again and again, costing the bot requests against Discord's global limit
        (a lobby edited, a line in the channel), is limited per user (``bot.sender.UserLimits``): TableError
        saying how long to wait."""
        wait = self.bot.sender.users.check(interaction.user.id, kind)
        if wait is not None:
            raise TableError(f"That was a lot at once: please wait {int(wait) + 1} seconds before trying again.")

    # --- sending ---------------------------------------------------------------------------
    async def post(self, channel: discord.abc.Messageable, content: str, *, via: Via | None = None,
                   **kwargs: Any) -> discord.Message | None:
        """A note in a table's channel, fitted to Discord's limits: a follow-up of ``via`` when it can, else
        through the sender (a refusal is logged, and remembered by ``cogs.refusals``, never raised)."""
        files = kwargs.pop("files", None)
        images = [(f.filename, f.fp.read(), f.description) for f in files] if files else []

        def build() -> dict[str, Any]:
            return fit(content, **kwargs, **({"files": as_files(images)} if images else {}))

        return await self.deliver(channel, build, via=via)

    async def deliver(self, channel: discord.abc.Messageable, build: Kwargs, *, via: Via | None = None,
                      priority: int = BOARD) -> discord.Message | None:
        """A new message in a game's channel (``build()`` gives its arguments): as a follow-up of ``via``'s
        interaction when that happened in this channel, else through the budgeted sender. None if refused."""
        channel_id = getattr(channel, "id", 0)
        if via is not None and via.fresh(channel_id):
            try:
                message = await via.webhook.send(wait=True, **build())
            except discord.HTTPException as exc:
                log.info("a follow-up in channel %s was refused (%s): sent as a message instead", channel_id, exc)
            else:
                self._remember_hook(message.id, via)
                return message
        try:
            return await self.bot.sender.send(priority, lambda: channel.send(**build()))
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", channel_id, exc)
            return None

    async def edit(self, channel: discord.abc.Messageable, message_id: int, build: Kwargs, *,
                   priority: int = BOARD) -> discord.Message:
        """Edit a message the bot posted in a game's channel: through the interaction token that created it
        while that is fresh, else through the sender (a burst of edits of one message becomes one edit).
        Raises what Discord answered."""
        channel_id = getattr(channel, "id", 0)
        via = self._hooks.get(message_id)
        if via is not None and via.fresh(channel_id):
            try:
                return await via.webhook.edit_message(message_id, **build())
            except discord.HTTPException as exc:
                if exc.status != 401:  # 401: the token is gone after all: the channel's own route then
                    raise
                self._hooks.pop(message_id, None)
        partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        return await self.bot.sender.send(priority, lambda: partial.edit(**build()), key=("edit", message_id))

    def _remember_hook(self, message_id: int, via: Via) -> None:
        self._hooks[message_id] = via
        while len(self._hooks) > HOOKS_KEPT:
            self._hooks.popitem(last=False)

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel to post in, or None if it is gone or the bot may not post there
        (Discord refused it before: see ``cogs.refusals``)."""
        if not self.bot.refusals.channel_usable(channel_id):
            return None
        return await self.channel_object(channel_id)

    async def channel_object(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel (from the cache, else fetched), whatever the bot may do there; None if it is gone."""
        if channel_id in self.bot.refusals.gone_channels:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.sender.send(BOARD, lambda: self.bot.fetch_channel(channel_id))
            except discord.HTTPException:
                return None
        return channel  # type: ignore[return-value]

    async def where_to_post(self, channel_id: int, via: Via | None) -> discord.abc.Messageable | None:
        """The channel for a game's board: the bot may answer an interaction there even without permission to
        post (Discord's interaction replies need none), so a muted channel still gets boards that ride one."""
        if via is not None and via.fresh(channel_id):
            return await self.channel_object(channel_id)
        return await self.channel(channel_id)

    # --- lobby ----------------------------------------------------------------------------
    async def refresh_lobby(self, game: GameRow) -> None:
        """Redraw the table's lobby message (through the sender: a burst of refreshes is one edit, a second
        apart at most)."""
        if game.lobby_message_id:
            self.bot.sender.submit(BOARD, lambda: self._refresh_latest_lobby(game.id), key=("lobby", game.id),
                                   spacing=LOBBY_SPACING)

    async def _refresh_latest_lobby(self, game_id: int) -> None:
        try:
            game = await self.tables.get(game_id)
        except TableError:  # the table is gone
            return
        if not game.lobby_message_id:  # gone meanwhile (deleted, and forgotten by the refresh before)
            return
        channel = await self.channel(game.home_channel_id)
        if channel is None:
            return
        engine = self.tables.engine(game)
        try:
            message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[attr-defined]
            await message.edit(embed=lobby_embed(game, engine), view=lobby_view(game))
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise  # the sender waits and runs it again
            log.warning("could not refresh lobby of game %s: %s", game.id, exc)
            if exc.code == refusals.UNKNOWN_MESSAGE:  # deleted: stop editing it, and say how to get it back
                await self.tables.set_message(game, lobby_message_id=None)
                if game.status == "lobby":
                    await self.post(channel, f"The lobby of table #{game.id} was deleted: `/game status` posts it"
                                    " again.", allowed_mentions=discord.AllowedMentions.none())

    # --- outcomes --------------------------------------------------------------------------
    def draw_board_early(self, game: GameRow) -> None:
        """Start drawing the board of a move just committed, before its reply is sent: the picture is drawn in
        the worker while the reply goes out, and the board that shows this state uses it. Only when the
        drawing worker is idle and no board of this table is underway (under load a later move's board would
        show a newer state, and this drawing would only delay the others)."""
        if game.state is None or self.boards.busy(game.id) or not drawing_idle():
            return
        public = self.tables.view(game, None)
        self._forget_early(game.id)
        self._early[game.id] = (game.state, public, asyncio.ensure_future(
            render_async(game.game_key, "board", public)))

    def _forget_early(self, game_id: int) -> None:
        early = self._early.pop(game_id, None)
        if early is not None:
            early[2].cancel()

    async def publish(self, outcome: Outcome, *, interaction: discord.Interaction | None = None) -> None:
        """Post the new board in the channel, then deliver private views. With the ``interaction`` the outcome
        answers (already acknowledged), the board rides it (see the module docstring)."""
        game = outcome.game
        engine = self.tables.engine(game)
        via = Via.of(interaction)
        self.bot.metrics.moved(len(outcome.moves))
        if interaction is not None and outcome.moves:  # (called right after the move's reply went out)
            self.bot.metrics.replied(interaction.created_at.timestamp())
        # The board and the private views go out side by side: a slow or failing board
        # never holds back (or drops) a player's DM.
        asked = asyncio.Event()
        self._board_asked.setdefault(game.id, []).append(asked)
        board = asyncio.create_task(self.boards.submit(game.id, [(outcome.events, outcome.turn_passed, via)]))
        try:
            # The whole table waits for the board, nobody watches for a DMed hand: the board is posted first
            # (its task posts it, or ends, e.g. as this table's board already being drawn will show this move),
            # then the DMs go, their pictures after it.
            waiter = asyncio.ensure_future(asked.wait())
            try:
                await asyncio.wait({board, waiter}, timeout=BOARD_FIRST_WAIT, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
            await self.deliver_private(game, engine, outcome,
                                       mover=interaction.user.id if interaction is not None else None)
        finally:
            waiting = self._board_asked.get(game.id)
            if waiting is not None and asked in waiting:
                waiting.remove(asked)
                if not waiting:
                    del self._board_asked[game.id]
            await board
        if outcome.finished and outcome.results is not None:
            await self.post_final(game, engine, outcome.results, via=via)

    async def _post_latest_board(self, game_id: int,
                                 batches: list[tuple[list[dict[str, Any]], bool, Via | None]]) -> None:
        """One board for the table's latest state, with every event queued since the last one:
        a new message when a turn passed in between, else the living board edited in place."""
        game = await self.tables.get(game_id)
        vias = [via for _, _, via in batches if via is not None and via.fresh(game.channel_id)]
        via = vias[-1] if vias else None
        channel = await self.where_to_post(game.channel_id, via)
        if channel is None:
            self._forget_early(game_id)
        else:
            events = [event for batch, _, _ in batches for event in batch]
            posted = await self.post_board(channel, game, self.tables.engine(game), events,
                                           new_turn=any(passed for _, passed, _ in batches), via=via)
            if posted is not None:
                for _, _, clicked in batches:
                    if clicked is not None and clicked.clicked_at:
                        self.bot.metrics.board_posted(clicked.clicked_at)

    async def post_board(self, channel: discord.abc.Messageable, game: GameRow, engine: Engine,
                         events: list[dict[str, Any]] | None = None, *, new_turn: bool = True,
                         via: Via | None = None) -> discord.Message | None:
        """The living board: while the same player keeps acting, the board message is
        edited in place (its text gathers the turn's events); when the turn passes, a new
        board is posted (pinging whoever is up) and the old one loses its buttons, so only
        the newest board has them. Every public line reaches the channel: when a turn's lines outgrow one
        message, the earlier ones stay in the messages before (the living board keeps them and loses its
        buttons, continuations follow) and a new board carries on."""
        same_turn = not new_turn and bool(game.board_message_id)
        events = (self._turn_events.get(game.id, []) if same_turn else []) + list(events or [])
        public = [i for i, e in enumerate(events) if "to" not in e and e.get("text")]
        lines = [events[i]["text"] for i in public]
        early = self._early.pop(game.id, None)
        if early is not None and early[0] is not game.state:  # drawn for a state the game has left
            early[2].cancel()
            early = None
        view_now = early[1] if early is not None else self.tables.view(game, None) if game.state else None
        # The words and buttons of the same moment as the picture (the game may move on while it is drawn).
        pages = board_pages(game, engine, lines)
        # The living board keeps the events of its last page (those before stay in the messages before it).
        kept = events[public[len(lines) - len(pages[-1])]:] if pages[-1] else events[public[-1] + 1:] if public \
            else events
        content = board_page(game, engine, pages[-1], board=True)
        view = board_view(game)
        ping = pinged(game, engine) if not same_turn else []
        images: list[tuple[str, bytes, str]] = []  # (file name, PNG, alt text)
        # The moves shown here send their DMs once this board is up: their hand pictures, drawn meanwhile, and
        # their uploads would slow the board's own upload, which the whole table waits for.
        shown = self._board_asked.pop(game.id, [])
        previous = game.board_message_id
        try:
            if view_now is not None:
                extras = dict.fromkeys(e["image"] for e in kept if "to" not in e and e.get("image"))
                alt = {kind: alt_text(game, engine, kind, view_now, events) for kind in ["board", *extras]}
                for kind in ["board", *extras]:
                    png = await (early[2] if early is not None and kind == "board" else
                                 render_async(game.game_key, kind, view_now))
                    if png is not None:
                        images.append((f"{kind}.png", png, alt[kind]))
            if same_turn and len(pages) == 1:
                edited = await self._edit_board(channel, game, content, images, view)
                if edited is not None:
                    self._turn_events[game.id] = kept
                    return edited
                if not self.bot.refusals.channel_usable(game.channel_id):  # refused for good: don't post either
                    return None
            before = pages[:-1]
            if same_turn and before:  # the living board keeps the turn's earlier lines, without its buttons
                first = board_page(game, engine, before.pop(0), board=False)
                retired = await self._edit_board(channel, game, first, None, None)
                if retired is not None:
                    previous = None
            for page in before:  # continuations: the lines that came between
                text = board_page(game, engine, page, board=False)
                quiet = discord.AllowedMentions.none()
                await self.deliver(channel, lambda text=text, quiet=quiet: fit(text, allowed_mentions=quiet), via=via)

            def build() -> dict[str, Any]:
                kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(
                    users=[discord.Object(uid) for uid in ping])}
                if images:
                    kwargs["files"] = as_files(images)
                if view is not None:
                    kwargs["view"] = view
                return fit(content, **kwargs)

            message = await self.deliver(channel, build, via=via)
            if message is None:
                return None
        finally:
            for asked in shown:
                asked.set()
        self._turn_events[game.id] = kept
        await self.tables.set_message(game, board_message_id=message.id)
        if previous:
            self._retire_board(channel, game, previous)
        if game.status != "running":
            self._turn_events.pop(game.id, None)
        return message

    async def _edit_board(self, channel: discord.abc.Messageable, game: GameRow, content: str,
                          images: list[tuple[str, bytes, str]] | None,
                          view: discord.ui.View | None) -> discord.Message | None:
        """Edit the living board in place (unarchiving its thread if Discord archived it); ``images`` None keeps
        its picture. None if it can't be, e.g. someone deleted it: then a new board is posted."""
        def build() -> dict[str, Any]:
            kwargs: dict[str, Any] = {"view": view, "allowed_mentions": discord.AllowedMentions.none()}
            if images is not None:
                kwargs["attachments"] = as_files(images)
            return fit(content, **kwargs)

        for attempt in range(2):
            try:
                return await self.edit(channel, game.board_message_id, build)
            except discord.NotFound:
                return None
            except discord.HTTPException as exc:
                if exc.code != ARCHIVED_THREAD or attempt or not await self._unarchive(channel):
                    log.warning("could not edit the board of game %s: %s", game.id, exc)
                    return None
        return None

    def _retire_board(self, channel: discord.abc.Messageable, game: GameRow, message_id: int) -> None:
        """An older board keeps its picture and text but loses its buttons (tidying: it goes last)."""
        async def retire() -> None:
            try:
                await self.edit(channel, message_id, lambda: {"view": None}, priority=TIDY)
            except discord.HTTPException as exc:
                log.info("could not take the buttons off an old board of game %s: %s", game.id, exc)
                if exc.code in (refusals.THREAD_LOCKED, refusals.MISSING_ACCESS, refusals.MISSING_PERMISSIONS):
                    self._unretired.setdefault(getattr(channel, "id", 0), set()).add(message_id)

        self._tasks_spawn(retire())

    def _tasks_spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _unarchive(self, channel: discord.abc.Messageable) -> bool:
        """Discord archives a quiet thread; the bot (its creator) may unarchive it."""
        if not isinstance(channel, discord.Thread):
            return False
        try:
            await self.bot.sender.send(BOARD, lambda: channel.edit(archived=False))
            return True
        except discord.HTTPException as exc:
            log.warning("could not unarchive thread %s: %s", channel.id, exc)
            return False

    # --- threads ---------------------------------------------------------------------------
    async def open_thread(self, game: GameRow, *, interaction: discord.Interaction | None = None) -> None:
        """Move a starting game into a public thread made from its lobby message (the
        players are added to it), so that the channel only sees the lobby, one line
        pointing to the thread and the final result. Falls back to playing in the
        channel when threads are off on this server or the bot may not create one. The line in the channel
        rides the Start click's ``interaction`` (answered already) when there is one."""
        settings = await self.tables.guild_settings(game.guild_id)
        channel = await self.channel(game.channel_id)
        if not settings.threads or channel is None or not game.lobby_message_id \
                or not isinstance(channel, discord.TextChannel):
            return
        engine = self.tables.engine(game)
        lobby = channel.get_partial_message(game.lobby_message_id)
        try:
            thread = await self.bot.sender.send(BOARD, lambda: lobby.create_thread(
                name=clip(f"{engine.meta.name} · table #{game.id}", 100), auto_archive_duration=THREAD_ARCHIVE_MINUTES))
        except discord.HTTPException as exc:
            log.info("no thread for game %s in channel %s: %s", game.id, channel.id, exc)
            why = ("I need the **Create Public Threads** permission in this channel"
                   if isinstance(exc, discord.Forbidden) else "Discord refused it")
            await self.post(channel, f"Table #{game.id} is played here in the channel: I couldn't open a thread for"
                            f" it ({why}).", allowed_mentions=discord.AllowedMentions.none())
            return
        await self.tables.move_to_thread(game, thread.id)
        for seat in game.seats:
            if seat.get("user_id"):
                user = discord.Object(seat["user_id"])
                try:
                    await self.bot.sender.send(BOARD, lambda user=user: thread.add_user(user))
                except discord.HTTPException as exc:
                    log.info("could not add %s to the thread of game %s: %s", seat["user_id"], game.id, exc)
        started = f"🎲 {engine.meta.name} (table #{game.id}) has started: follow it in {thread.mention}."
        await self.post(channel, started,
                        via=Via.of(interaction), allowed_mentions=discord.AllowedMentions.none())

    async def post_final(self, game: GameRow, engine: Engine, results: list[dict[str, Any]], *,
                         via: Via | None = None) -> None:
        """The final scores with their picture in the game's channel (with the whole log; riding ``via`` when
        the last move came with one), and, when the game was played in a thread, in the channel it came from."""
        public = self.tables.view(game, None)
        png = await render_async(game.game_key, "final", public, results)
        description = alt_text(game, engine, "final", public, results=results)
        lines = await self.tables.public_log(game.id)
        full_log = "\n".join(f"{n:>4}  {text}" for n, text in lines)
        try:  # the ratings the game's results moved (recorded in the same transaction)
            rating = await self.bot.storage.game_rating(game.id)
        except Exception:
            log.exception("game %s: its ratings could not be read for the final scores", game.id)
            rating = None
        targets = [game.channel_id] + ([game.parent_channel_id] if game.parent_channel_id else [])
        for channel_id in targets:
            channel = await self.where_to_post(channel_id, via)
            if channel is None:
                continue
            files = as_files([("final.png", png, description)]) if png is not None else []
            content = results_text(game, results, rating)
            if channel_id == game.channel_id:
                files.append(discord.File(io.BytesIO(full_log.encode()), filename=f"table-{game.id}-log.txt"))
            else:
                content = f"{content}\nThe whole game: <#{game.channel_id}>"
            await self.post(channel, content, via=via, files=files, allowed_mentions=discord.AllowedMentions.none())

    async def channel_refused(self, channel_id: int, code: int) -> None:
        """Discord said the channel is gone, or that the bot may not post there: stop
        using it, end its table if it is gone, and tell the host once."""
        game = await self.tables.in_channel(channel_id)
        if game is None:
            return
        name = self.tables.engine(game).meta.name
        if code == refusals.UNKNOWN_CHANNEL:
            # A thread of its own, unless the channel it was in went too (its threads are reported after it).
            what = ("thread" if game.parent_channel_id and game.parent_channel_id not in self.bot.refusals.gone_channels
                    else "channel")
            try:
                await self.tables.end(game.id, f"Its {what} was deleted.")
            except TableError:
                return
            await self.tell(game.host_id, f"Your table #{game.id} ({name}) has ended: its {what} was deleted.")
            return
        if code == refusals.THREAD_LOCKED:
            await self.tell(game.host_id, (
                f"A moderator locked <#{channel_id}>, the thread of your table #{game.id} ({name}), so I can't post"
                " its boards there. Until it is unlocked the game goes on: the **Play** and **Show my hand** buttons"
                " of its last board still work. I'll post a fresh board there as soon as the thread is unlocked."))
            return
        await self.tell(game.host_id, (
            f"I can't post in <#{channel_id}>, where your table #{game.id} ({name}) is playing: Discord says I'm"
            " missing permissions there. Please ask a server admin to let me View Channel, Send Messages, Embed"
            " Links and Attach Files in that channel. Until then the game goes on: `/game play` to move and"
            " `/game status` to see the board. I'll post boards again as soon as the permissions change."))

    async def adopt_board(self, game: GameRow, message_id: int) -> None:
        """A board posted in answer to a command (``/game status``) becomes the table's living board: the one it
        replaces loses its buttons now, and it loses its own when the next board comes or the game ends."""
        previous = game.board_message_id
        await self.tables.set_message(game, board_message_id=message_id)
        channel = await self.channel(game.channel_id) if previous and previous != message_id else None
        if channel is not None and previous:
            self._retire_board(channel, game, previous)

    async def fresh_board(self, channel_id: int) -> None:
        """Post the board of the table playing in ``channel_id`` anew (the old one retired), and take the buttons off
        the old boards it could not meanwhile: the bot may post there again after it could not (a thread unlocked)."""
        game = await self.tables.in_channel(channel_id)
        if game is not None and game.status == "running":
            await self.boards.submit(game.id, [([], True, None)])
        stale = self._unretired.pop(channel_id, set())
        if stale and game is not None and (channel := await self.channel(channel_id)) is not None:
            for message_id in sorted(stale):
                self._retire_board(channel, game, message_id)

    async def announce_end(self, game: GameRow) -> None:
        """Say in the channel that the table ended, take the buttons off its board, refresh its lobby."""
        engine = self.tables.engine(game)
        channel = await self.channel(game.channel_id)
        if channel is not None:
            await self.post(channel, board_content(game, engine), allowed_mentions=discord.AllowedMentions.none())
            if game.board_message_id:
                self._retire_board(channel, game, game.board_message_id)
        if game.parent_channel_id:
            parent = await self.channel(game.parent_channel_id)
            if parent is not None:
                ended = f"{engine.meta.name} (table #{game.id}) ended. {game.ended_reason or ''}".strip()
                await self.post(parent, ended,
                                allowed_mentions=discord.AllowedMentions.none())
        if game.lobby_message_id:
            await self.refresh_lobby(game)

    async def channel_note(self, game: GameRow, text: str, *, interaction: discord.Interaction | None = None) -> None:
        """A short note in the table's channel (riding ``interaction``, answered already, when it was there)."""
        via = Via.of(interaction)
        channel = await self.where_to_post(game.channel_id, via)
        if channel is not None:
            await self.post(channel, text, via=via, allowed_mentions=discord.AllowedMentions.none())

    async def log_text(self, game: GameRow, lines: int) -> str:
        """The last public moves in words, rebuilt from the action log (hidden
        moves are worded by the engine without their secret)."""
        if game.status == "lobby":
            return "The game hasn't started yet."
        entries = await self.tables.public_log(game.id)
        if not entries:
            return "No moves yet."
        shown = entries[-lines:]
        text = "\n".join(f"`{n:>3}` {line}" for n, line in shown)
        game_name = self.tables.engine(game).meta.name
        return clip(f"**{game_name}** · table #{game.id} · last {len(shown)} moves\n{text}", CONTENT)

    async def timer_fired(self, kind: str, outcome: Outcome) -> None:
        """A reminder pings whoever is late; a deadline says the bot played for them, then shows the move."""
        game = outcome.game
        who = ", ".join(f"<@{game.seats[s]['user_id']}>" for s in outcome.missed if game.seats[s].get("user_id"))
        channel = await self.channel(game.channel_id)
        if kind == "reminder":
            if channel is not None and who:
                when = f"<t:{int(game.deadline_at)}:R>" if game.deadline_at else "soon"
                await self.post(channel, f"⏰ {who}: it's your move in table #{game.id}. Time runs out {when}.",
                                allowed_mentions=discord.AllowedMentions(users=True))
            return
        if channel is not None and outcome.missed:  # (a real-time window closing is not worth a note)
            note = f"⌛ Time ran out for {who}: the bot played for them." if who else "⌛ Time ran out."
            benched = [game.seats[s] for s in outcome.benched]
            if benched:
                names = ", ".join(f"<@{s['user_id']}>" for s in benched if s.get("user_id"))
                note += (f"\n{names} missed three turns in a row: a bot plays their seat until they come back"
                         " with `/game rejoin`.")
            await self.post(channel, note, allowed_mentions=discord.AllowedMentions(users=True))
        await self.publish(outcome)
