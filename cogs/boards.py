"""``TableUI``: what the cogs do with the table service's outcomes in a game's channel -- post the board
(or edit the living one), refresh the lobby, open the game's thread, post the final scores, notes and
reminders. Its other jobs are mixed in from their own modules: the move panel (``cogs.panel``), DMs
(``cogs.dms``) and the button router (``cogs.router``)."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.coalesce import Coalescer
from bot.engine import Engine
from bot.storage import GameRow
from bot.tables import Outcome, TableError, TableService
from cogs import refusals
from cogs.dms import DirectMessages
from cogs.embeds import alt_text, as_files, board_content, board_view, lobby_embed, lobby_view, results_text
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


class TableUI(PanelReplies, DirectMessages, ComponentHandlers):
    """What the cogs do with outcomes: post boards, refresh lobbies, DM hands."""

    def __init__(self, bot: "HeistBot") -> None:
        self.bot = bot
        self.boards = Coalescer(self._post_latest_board)
        # A table's lobby refreshes never overlap: refreshes asked for meanwhile become one, of the latest lobby.
        self.lobbies = Coalescer(self._refresh_latest_lobby)
        bot.refusals.on_channel_refused = self.channel_refused
        self._turn_events: dict[int, list[dict[str, Any]]] = {}  # events of the living board's turn, per game
        self._board_asked: dict[int, list[asyncio.Event]] = {}  # per game: moves whose DMs wait for the board
        # per game: a board picture started before the move's reply (the state it shows, its public view, the drawing)
        self._early: dict[int, tuple[dict[str, Any], dict[str, Any], asyncio.Task]] = {}
        self.dm_channel_ids: dict[int, int] = {}
        self.hands = Coalescer(self._send_latest_hand)
        self._dms_refused: dict[int, set[int]] = {}

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

    @staticmethod
    async def post(channel: discord.abc.Messageable, content: str, **kwargs: Any) -> discord.Message | None:
        """A note in a table's channel, fitted to Discord's limits; a refusal is logged
        (and remembered by ``cogs.refusals``), never raised into a game's flow."""
        try:
            return await channel.send(**fit(content, **kwargs))
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", getattr(channel, "id", "?"), exc)
            return None

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel to post in, or None if it is gone or the bot may not post there
        (Discord refused it before: see ``cogs.refusals``)."""
        if not self.bot.refusals.channel_usable(channel_id):
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel  # type: ignore[return-value]

    # --- lobby ----------------------------------------------------------------------------
    async def refresh_lobby(self, game: GameRow) -> None:
        """Redraw the table's lobby message (refreshes asked together become one)."""
        if game.lobby_message_id:
            await self.lobbies.submit(game.id, [None])

    async def _refresh_latest_lobby(self, game_id: int, _: list[Any]) -> None:
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
        if (game.state is None or self.boards.busy(game.id) or not drawing_idle()
                or not self.bot.refusals.channel_usable(game.channel_id)):
            return
        public = self.tables.view(game, None)
        self._forget_early(game.id)
        self._early[game.id] = (game.state, public, asyncio.ensure_future(
            render_async(game.game_key, "board", public)))

    def _forget_early(self, game_id: int) -> None:
        early = self._early.pop(game_id, None)
        if early is not None:
            early[2].cancel()

    async def publish(self, outcome: Outcome, *, ping: bool = True) -> None:
        """Post the new board in the channel, then deliver private views."""
        game = outcome.game
        engine = self.tables.engine(game)
        # The board and the private views go out side by side: a slow or failing board
        # never holds back (or drops) a player's DM.
        asked = asyncio.Event()
        self._board_asked.setdefault(game.id, []).append(asked)
        board = asyncio.create_task(self.boards.submit(game.id, [(outcome.events, outcome.turn_passed)]))
        try:
            # The whole table waits for the board, nobody watches for a DMed hand: the board is posted first
            # (its task posts it, or ends, e.g. as this table's board already being drawn will show this move),
            # then the DMs go, their pictures after it.
            waiter = asyncio.ensure_future(asked.wait())
            try:
                await asyncio.wait({board, waiter}, timeout=BOARD_FIRST_WAIT, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
            await self.deliver_private(game, engine, outcome)
        finally:
            waiting = self._board_asked.get(game.id)
            if waiting is not None and asked in waiting:
                waiting.remove(asked)
                if not waiting:
                    del self._board_asked[game.id]
            await board
        if outcome.finished and outcome.results is not None:
            await self.post_final(game, engine, outcome.results)

    async def _post_latest_board(self, game_id: int, batches: list[tuple[list[dict[str, Any]], bool]]) -> None:
        """One board for the table's latest state, with every event queued since the last one:
        a new message when a turn passed in between, else the living board edited in place."""
        game = await self.tables.get(game_id)
        channel = await self.channel(game.channel_id)
        if channel is None:
            self._forget_early(game_id)
        else:
            events = [event for batch, _ in batches for event in batch]
            await self.post_board(channel, game, self.tables.engine(game), events,
                                  new_turn=any(passed for _, passed in batches))

    async def post_board(self, channel: discord.abc.Messageable, game: GameRow, engine: Engine,
                         events: list[dict[str, Any]] | None = None, *, new_turn: bool = True) -> discord.Message | None:
        """The living board: while the same player keeps acting, the board message is
        edited in place (its text gathers the turn's events); when the turn passes, a new
        board is posted (pinging whoever is up) and the old one loses its buttons, so only
        the newest board has them."""
        events = list(events or [])
        if new_turn or not game.board_message_id:
            self._turn_events[game.id] = events
        else:
            events = self._turn_events.setdefault(game.id, []) + events
            self._turn_events[game.id] = events
        early = self._early.pop(game.id, None)
        if early is not None and early[0] is not game.state:  # drawn for a state the game has left
            early[2].cancel()
            early = None
        public = early[1] if early is not None else self.tables.view(game, None) if game.state else None
        # The words and buttons of the same moment as the picture (the game may move on while it is drawn).
        content = board_content(game, engine, events)
        view = board_view(game)
        images: list[tuple[str, bytes, str]] = []  # (file name, PNG, alt text)
        # The moves shown here send their DMs once this board is up: their hand pictures, drawn meanwhile, and
        # their uploads would slow the board's own upload, which the whole table waits for.
        shown = self._board_asked.pop(game.id, [])
        try:
            if public is not None:
                extras = dict.fromkeys(e["image"] for e in events if "to" not in e and e.get("image"))
                alt = {kind: alt_text(game, engine, kind, public, events) for kind in ["board", *extras]}
                for kind in ["board", *extras]:
                    png = await (early[2] if early is not None and kind == "board" else
                                 render_async(game.game_key, kind, public))
                    if png is not None:
                        images.append((f"{kind}.png", png, alt[kind]))
            if not new_turn and game.board_message_id:
                edited = await self._edit_board(channel, game, content, images, view)
                if edited is not None:
                    return edited
                if not self.bot.refusals.channel_usable(game.channel_id):  # refused for good: don't post either
                    return None
            kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(users=True)}
            if images:
                kwargs["files"] = as_files(images)
            if view is not None:
                kwargs["view"] = view
            try:
                message = await channel.send(**fit(content, **kwargs))
            except discord.HTTPException as exc:
                log.warning("could not post board of game %s: %s", game.id, exc)
                return None
        finally:
            for asked in shown:
                asked.set()
        previous = game.board_message_id
        await self.tables.set_message(game, board_message_id=message.id)
        if previous:
            await self._retire_board(channel, game, previous)
        if game.status != "running":
            self._turn_events.pop(game.id, None)
        return message

    async def _edit_board(self, channel: discord.abc.Messageable, game: GameRow, content: str,
                          images: list[tuple[str, bytes, str]], view: discord.ui.View | None) -> discord.Message | None:
        """Edit the living board in place (unarchiving its thread if Discord archived it);
        None if it can't be, e.g. someone deleted it: then a new board is posted."""
        message = channel.get_partial_message(game.board_message_id)  # type: ignore[attr-defined]
        for attempt in range(2):
            try:
                return await message.edit(**fit(content, attachments=as_files(images), view=view,
                                                allowed_mentions=discord.AllowedMentions.none()))
            except discord.NotFound:
                return None
            except discord.HTTPException as exc:
                if exc.code != ARCHIVED_THREAD or attempt or not await self._unarchive(channel):
                    log.warning("could not edit the board of game %s: %s", game.id, exc)
                    return None
        return None

    async def _retire_board(self, channel: discord.abc.Messageable, game: GameRow, message_id: int) -> None:
        """An older board keeps its picture and text but loses its buttons."""
        try:
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException as exc:
            log.info("could not take the buttons off an old board of game %s: %s", game.id, exc)

    async def _unarchive(self, channel: discord.abc.Messageable) -> bool:
        """Discord archives a quiet thread; the bot (its creator) may unarchive it."""
        if not isinstance(channel, discord.Thread):
            return False
        try:
            await channel.edit(archived=False)
            return True
        except discord.HTTPException as exc:
            log.warning("could not unarchive thread %s: %s", channel.id, exc)
            return False

    # --- threads ---------------------------------------------------------------------------
    async def open_thread(self, game: GameRow) -> None:
        """Move a starting game into a public thread made from its lobby message (the
        players are added to it), so that the channel only sees the lobby, one line
        pointing to the thread and the final result. Falls back to playing in the
        channel when threads are off on this server or the bot may not create one."""
        settings = await self.tables.guild_settings(game.guild_id)
        channel = await self.channel(game.channel_id)
        if not settings.threads or channel is None or not game.lobby_message_id \
                or not isinstance(channel, discord.TextChannel):
            return
        engine = self.tables.engine(game)
        try:
            thread = await channel.get_partial_message(game.lobby_message_id).create_thread(
                name=clip(f"{engine.meta.name} · table #{game.id}", 100), auto_archive_duration=THREAD_ARCHIVE_MINUTES)
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
                try:
                    await thread.add_user(discord.Object(seat["user_id"]))
                except discord.HTTPException as exc:
                    log.info("could not add %s to the thread of game %s: %s", seat["user_id"], game.id, exc)
        await self.post(channel, f"🎲 {engine.meta.name} (table #{game.id}) has started: follow it in {thread.mention}.",
                        allowed_mentions=discord.AllowedMentions.none())

    async def post_final(self, game: GameRow, engine: Engine, results: list[dict[str, Any]]) -> None:
        """The final scores with their picture in the game's channel (with the whole log),
        and, when the game was played in a thread, in the channel it came from too."""
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
            channel = await self.channel(channel_id)
            if channel is None:
                continue
            files = as_files([("final.png", png, description)]) if png is not None else []
            content = results_text(game, results, rating)
            if channel_id == game.channel_id:
                files.append(discord.File(io.BytesIO(full_log.encode()), filename=f"table-{game.id}-log.txt"))
            else:
                content = f"{content}\nThe whole game: <#{game.channel_id}>"
            await self.post(channel, content, files=files, allowed_mentions=discord.AllowedMentions.none())

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
            await self._retire_board(channel, game, previous)

    async def fresh_board(self, channel_id: int) -> None:
        """Post the board of the table playing in ``channel_id`` anew (the old one retired): the bot may post
        there again after it could not (a thread unlocked)."""
        game = await self.tables.in_channel(channel_id)
        if game is not None and game.status == "running":
            await self.boards.submit(game.id, [([], True)])

    async def announce_end(self, game: GameRow) -> None:
        """Say in the channel that the table ended, take the buttons off its board, refresh its lobby."""
        engine = self.tables.engine(game)
        channel = await self.channel(game.channel_id)
        if channel is not None:
            await self.post(channel, board_content(game, engine), allowed_mentions=discord.AllowedMentions.none())
            if game.board_message_id:
                await self._retire_board(channel, game, game.board_message_id)
        if game.parent_channel_id:
            parent = await self.channel(game.parent_channel_id)
            if parent is not None:
                await self.post(parent, f"{engine.meta.name} (table #{game.id}) ended. {game.ended_reason or ''}".strip(),
                                allowed_mentions=discord.AllowedMentions.none())
        if game.lobby_message_id:
            await self.refresh_lobby(game)

    async def channel_note(self, game: GameRow, text: str) -> None:
        """A short note in the table's channel."""
        channel = await self.channel(game.channel_id)
        if channel is not None:
            await self.post(channel, text, allowed_mentions=discord.AllowedMentions.none())

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
        return clip(f"**{self.tables.engine(game).meta.name}** · table #{game.id} · last {len(shown)} moves\n{text}", CONTENT)

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
