"""Discord presentation shared by the cogs: lobby and board messages, the action
panel built from ``legal_actions``, private-view delivery by DM, and the one
component router that makes every button work forever (custom_ids carry the
game id, so they survive restarts).

Custom ids are made and read by ``cogs.customid`` only; everything sent fits
Discord's limits through ``cogs.limits``.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.coalesce import Coalescer
from bot.engine import Engine
from bot.storage import GameRow
from bot.tables import Outcome, TableError, TableService, seat_of
from cogs import customid, refusals
from cogs.limits import BUTTON_LABEL, CONTENT, OPTION_TEXT, PLACEHOLDER, SELECT_OPTIONS, clip, fit
from rendering import render_async, renderer

if TYPE_CHECKING:
    from bot.app import HeistBot

log = logging.getLogger("heistcord.ui")

MAX_BUTTONS = 20
ARCHIVED_THREAD = 50083  # Discord's error code for an edit in an archived thread
THREAD_ARCHIVE_MINUTES = 10080  # the longest auto-archive Discord allows: a slow game's thread stays open a week
SELECT_LIMIT = SELECT_OPTIONS
EMBED_COLOUR = discord.Colour.from_rgb(232, 190, 80)


def seat_label(game: GameRow, seat: int) -> str:
    info = game.seats[seat]
    if info.get("bot"):
        return f"🤖 {info['name']}"
    away = " (away — bot playing)" if info.get("away") else ""
    return f"<@{info['user_id']}>{away}"


# --- lobby ---------------------------------------------------------------------------------
def lobby_embed(game: GameRow, engine: Engine) -> discord.Embed:
    meta = engine.meta
    embed = discord.Embed(title=f"{meta.name} — table #{game.id}", description=meta.blurb, colour=EMBED_COLOUR)
    seats = "\n".join(f"{i + 1}. {seat_label(game, i)}{' (host)' if s.get('user_id') == game.host_id else ''}"
                      for i, s in enumerate(game.seats)) or "nobody yet"
    embed.add_field(name=f"Seats ({len(game.seats)}/{meta.max_players}, need {meta.min_players})", value=seats,
                    inline=False)
    if meta.options:
        lines = []
        for opt in meta.options:
            value = game.options.get(opt.key, opt.default)
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            lines.append(f"**{opt.label}**: {shown}")
        embed.add_field(name="Options (host: `/game option`)", value="\n".join(lines), inline=False)
    minutes = game.options.get("_turn_minutes")
    embed.add_field(name="Turn timer", value=f"{minutes} minutes per move" if minutes else
                    "server default (`/game option turn_minutes 10` to set one)", inline=False)
    leave = game.options.get("_on_leave")
    embed.add_field(name="If a player leaves", value={"bot": "a bot takes their seat", "end": "the game ends"}.get(
        leave, "server default (`/game option on_leave bot` or `end`)"), inline=False)
    if game.status == "lobby":
        embed.set_footer(text="Join to take a seat. The host starts the game when everyone is in.")
    elif game.status == "running":
        embed.set_footer(text="The game has started.")
    else:
        embed.set_footer(text=f"Closed. {game.ended_reason or ''}")
    return fit(embed=embed)["embed"]


def lobby_view(game: GameRow) -> discord.ui.View | None:
    if game.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success,
                                    custom_id=customid.encode("join", game.id)))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("leave", game.id)))
    view.add_item(discord.ui.Button(label="Add bot", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("bot", game.id)))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary,
                                    custom_id=customid.encode("start", game.id)))
    return view


# --- board -------------------------------------------------------------------------------------
def board_view(game: GameRow) -> discord.ui.View | None:
    if game.status != "running":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Play", emoji="🎲", style=discord.ButtonStyle.primary,
                                    custom_id=customid.encode("play", game.id)))
    view.add_item(discord.ui.Button(label="Show my hand", emoji="🂠", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("hand", game.id)))
    return view


def dm_retry_view(game: GameRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Try DMs again", emoji="✉️", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("dm", game.id)))
    return view


def board_content(game: GameRow, engine: Engine, events: list[dict[str, Any]] | None = None) -> str:
    lines = [e["text"] for e in (events or []) if "to" not in e and e.get("text")]
    text = "\n".join(f"• {line}" for line in lines[-15:])
    if game.status == "running":
        waiting = engine.to_act(game.state)
        who = ", ".join(seat_label(game, s) for s in waiting)
        status = engine.status_line(game.state)
        footer = f"**{status}**" + (f"\n⏳ Waiting for: {who}" if who else "")
        if who and game.deadline_at:
            footer += f" · time runs out <t:{int(game.deadline_at)}:R>"
    elif game.status == "finished":
        footer = "**Game over!**"
    else:
        footer = f"**Game ended.** {game.ended_reason or ''}"
    header = f"**{engine.meta.name}** · table #{game.id}"
    return clip(f"{header}\n{text}\n{footer}" if text else f"{header}\n{footer}", 1900)


ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment's description


def plain(text: str) -> str:
    """Markdown and mentions out, for alt text a screen reader reads aloud."""
    text = re.sub(r"<@!?(\d+)>", "a player", text)
    text = re.sub(r"<#\d+>", "a channel", text)
    text = re.sub(r"<t:(\d+)(:[a-zA-Z])?>", "soon", text)
    return re.sub(r"[*_`~>|]", "", text).strip()


def alt_text(game: GameRow, engine: Engine, kind: str, view: dict[str, Any], events: list[dict[str, Any]] | None = None,
             results: list[dict[str, Any]] | None = None) -> str:
    """The words for an image (Discord's attachment description): what the picture
    shows a sighted player, from the same view it is drawn from."""
    head = f"{engine.meta.name}, table #{game.id}."
    if kind == "private":
        body = f"Your private view. {engine.private_text(view)}"
    elif kind == "final" and results is not None:
        body = "Final scores: " + "; ".join(
            f"{r['rank']}. {game.seats[r['seat']]['name']} {r['score']}" + (" (winner)" if r["won"] else "")
            for r in sorted(results, key=lambda r: (r["rank"], r["seat"])))
    else:
        module = renderer(game.game_key)
        describe = getattr(module, "describe", None) if module else None
        body = describe(view) if describe else (engine.status_line(game.state) if game.state else "")
        if kind != "board":
            body = f"{kind.replace('_', ' ').capitalize()}. {body}"
    said = plain(body)
    happened = [e["text"] for e in events or [] if "to" not in e and e.get("text") and plain(e["text"]) not in said]
    tail = clip(plain(" Just happened: " + " ".join(happened[-6:])), ALT_TEXT_LIMIT // 3) if happened else ""
    return clip(plain(f"{head} {body}"), ALT_TEXT_LIMIT - len(tail)) + tail


def as_files(images: list[tuple[str, bytes, str]]) -> list[discord.File]:
    """Fresh ``discord.File`` objects (discord.py closes them once sent) for ``(name, bytes, alt text)``."""
    return [discord.File(io.BytesIO(data), filename=name, description=description) for name, data, description in images]


async def render_file(game: GameRow, kind: str, view: dict[str, Any], *extra: Any, filename: str = "board.png",
                      description: str | None = None, urgent: bool = False) -> discord.File | None:
    png = await render_async(game.game_key, kind, view, *extra, urgent=urgent)
    return None if png is None else discord.File(io.BytesIO(png), filename=filename, description=description)


def results_text(game: GameRow, results: list[dict[str, Any]]) -> str:
    lines = ["**Final scores**"]
    for r in sorted(results, key=lambda r: (r["rank"], r["seat"])):
        crown = "🏆 " if r["won"] else ""
        detail = f" — {r['detail']}" if r.get("detail") else ""
        lines.append(f"{r['rank']}. {crown}{seat_label(game, r['seat'])}: **{r['score']}**{detail}")
    return clip("\n".join(lines), 1900)


# --- action panel --------------------------------------------------------------------------------
def pack_menus(groups: list[tuple[str, list[int]]], total: int) -> list[tuple[str, list[int]]]:
    """Fit grouped action indexes into at most five select menus of at most 25
    options (Discord's limits): split big groups, merge the smallest pairs that
    fit; if the groups still need more than five menus, page all moves in order."""
    menus: list[tuple[str, list[int]]] = []
    for name, idxs in groups:
        chunks = [idxs[k:k + SELECT_LIMIT] for k in range(0, len(idxs), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks):
            menus.append((name if len(chunks) == 1 else f"{name} ({n + 1}/{len(chunks)})", chunk))
    while len(menus) > 5:
        pairs = [(len(menus[i][1]) + len(menus[j][1]), i, j)
                 for i in range(len(menus)) for j in range(i + 1, len(menus))]
        fitting = [p for p in pairs if p[0] <= SELECT_LIMIT]
        if not fitting:
            break
        _, i, j = min(fitting)
        merged = (f"{menus[i][0]} / {menus[j][0]}", sorted(menus[i][1] + menus[j][1]))
        menus[i] = merged
        del menus[j]
    if len(menus) > 5:
        order = sorted(i for _, idxs in menus for i in idxs)
        menus = [(f"Moves {k + 1}-{min(k + SELECT_LIMIT, total)}", order[k:k + SELECT_LIMIT])
                 for k in range(0, len(order), SELECT_LIMIT)]
    return menus[:5]


def build_panel(game: GameRow, engine: Engine, seat: int) -> tuple[str, discord.ui.View | None]:
    """The ephemeral panel: buttons for a few moves, select menus (grouped) for many."""
    state = game.state
    status = engine.status_line(state)
    if seat not in engine.to_act(state):
        return f"It's not your turn. {status}", None
    legal = engine.legal_actions(state, seat)
    if not legal:
        return f"You have no move right now. {status}", None
    labels = [engine.describe_action(state, seat, a) for a in legal]
    view = discord.ui.View(timeout=None)
    if len(legal) <= MAX_BUTTONS:
        for i, label in enumerate(labels):
            view.add_item(discord.ui.Button(label=clip(label, BUTTON_LABEL), style=discord.ButtonStyle.primary,
                                            custom_id=customid.encode("act", game.id, game.version, i)))
        return f"**Your move.** {status}", view
    groups: dict[str, list[int]] = {}
    for i, action in enumerate(legal):
        groups.setdefault(clip(engine.action_group(state, seat, action), 60), []).append(i)
    menus = pack_menus(list(groups.items()), len(legal))
    for n, (name, idxs) in enumerate(menus):
        select = discord.ui.Select(placeholder=clip(name, PLACEHOLDER),
                                   custom_id=customid.encode("sel", game.id, game.version, n),
                                   options=[discord.SelectOption(label=clip(labels[i], OPTION_TEXT),
                                                                 value=customid.encode_index(i)) for i in idxs])
        view.add_item(select)
    shown = sum(len(idxs) for _, idxs in menus)
    if shown < len(legal):
        status += f"\n({len(legal) - shown} more moves: type `/game move` to search them all.)"
    return f"**Your move.** {status}", view


class ComponentRouter(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s)hc:.*"):
    """Every heistcord button and select, whatever message it sits on. The template
    takes any ``hc:`` id, so a damaged one is answered (strictly parsed in the callback)."""

    def __init__(self, item: discord.ui.Item, custom_id: str = "") -> None:
        super().__init__(item)
        self.raw = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(item, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: HeistBot = interaction.client  # type: ignore[assignment]
        values = list(getattr(self.item, "values", []) or interaction.data.get("values", []))  # type: ignore[union-attr]
        await bot.ui.handle_component(interaction, self.raw, values)


class TableUI:
    """What the cogs do with outcomes: post boards, refresh lobbies, DM hands."""

    def __init__(self, bot: "HeistBot") -> None:
        self.bot = bot
        self.boards = Coalescer(self._post_latest_board)
        bot.refusals.on_channel_refused = self.channel_refused
        self._turn_events: dict[int, list[dict[str, Any]]] = {}  # events of the living board's turn, per game

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    async def error(self, interaction: discord.Interaction, message: str) -> None:
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
        if not game.lobby_message_id:
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
    async def publish(self, outcome: Outcome, *, ping: bool = True) -> None:
        """Post the new board in the channel, then deliver private views."""
        game = outcome.game
        engine = self.tables.engine(game)
        # The board and the private views go out side by side: a slow or failing board
        # never holds back (or drops) a player's DM.
        board = asyncio.create_task(self.boards.submit(game.id, [(outcome.events, outcome.turn_passed)]))
        try:
            await self.deliver_private(game, engine, outcome)
        finally:
            await board
        if outcome.finished and outcome.results is not None:
            await self.post_final(game, engine, outcome.results)

    async def _post_latest_board(self, game_id: int, batches: list[tuple[list[dict[str, Any]], bool]]) -> None:
        """One board for the table's latest state, with every event queued since the last one:
        a new message when a turn passed in between, else the living board edited in place."""
        game = await self.tables.get(game_id)
        channel = await self.channel(game.channel_id)
        if channel is not None:
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
        public = engine.view(game.state, None) if game.state else None
        # The words and buttons of the same moment as the picture (the game may move on while it is drawn).
        content = board_content(game, engine, events)
        view = board_view(game)
        images: list[tuple[str, bytes, str]] = []  # (file name, PNG, alt text)
        if public is not None:
            extras = dict.fromkeys(e["image"] for e in events if "to" not in e and e.get("image"))
            alt = {kind: alt_text(game, engine, kind, public, events) for kind in ["board", *extras]}
            for kind in ["board", *extras]:
                png = await render_async(game.game_key, kind, public)
                if png is not None:
                    images.append((f"{kind}.png", png, alt[kind]))
        if not new_turn and game.board_message_id:
            edited = await self._edit_board(channel, game, content, images, view)
            if edited is not None:
                return edited
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
        public = engine.view(game.state, None)
        png = await render_async(game.game_key, "final", public, results)
        description = alt_text(game, engine, "final", public, results=results)
        lines = await self.tables.public_log(game.id)
        full_log = "\n".join(f"{n:>4}  {text}" for n, text in lines)
        targets = [game.channel_id] + ([game.parent_channel_id] if game.parent_channel_id else [])
        for channel_id in targets:
            channel = await self.channel(channel_id)
            if channel is None:
                continue
            files = as_files([("final.png", png, description)]) if png is not None else []
            content = results_text(game, results)
            if channel_id == game.channel_id:
                files.append(discord.File(io.BytesIO(full_log.encode()), filename=f"table-{game.id}-log.txt"))
            else:
                content = f"{content}\nThe whole game: <#{game.channel_id}>"
            await self.post(channel, content, files=files, allowed_mentions=discord.AllowedMentions.none())

    async def deliver_private(self, game: GameRow, engine: Engine, outcome: Outcome) -> None:
        """DM each human whose private view changed (plus their private events)."""
        notes: dict[int, list[str]] = {}
        for event in outcome.events:
            if "to" in event and event.get("text"):
                notes.setdefault(int(event["to"]), []).append(event["text"])
        seats = sorted(outcome.changed_private | set(notes))
        closed: list[int] = []
        for seat in seats:
            info = game.seats[seat]
            if info.get("bot") or not info.get("user_id"):
                continue
            ok = await self.send_private(game, engine, seat, notes.get(seat, []))
            if not ok:
                closed.append(seat)
        newly_closed = [s for s in closed if not game.seats[s].get("dm_closed")]
        if newly_closed:
            await self.tables.set_seat_info(game, {s: {"dm_closed": True} for s in newly_closed})
            channel = await self.channel(game.channel_id)
            if channel is not None:
                who = ", ".join(f"<@{game.seats[s]['user_id']}>" for s in newly_closed)
                await self.post(channel, f"{who}: I couldn't DM you your private information (your DMs are closed),"
                                " so I won't try again. Use `/game hand` or the **Show my hand** button to see it"
                                " privately. To get DMs back: allow direct messages from this server's members"
                                " (server name → Privacy Settings), then press **Try DMs again**.",
                                view=dm_retry_view(game), allowed_mentions=discord.AllowedMentions(users=True))

    async def send_private(self, game: GameRow, engine: Engine, seat: int, notes: list[str]) -> bool:
        """Keep one DM per player per game up to date (edited in place, so a hand
        that changes every turn doesn't flood their DMs); anything that happened
        to them personally (``notes``) arrives as a new message, which notifies."""
        info = game.seats[seat]
        user_id = info["user_id"]
        if not self.bot.refusals.dm_allowed(user_id):  # Discord refused them before: don't knock again
            return False
        view = engine.view(game.state, seat)
        text = engine.private_text(view)
        if notes:
            text = "\n".join(f"• {n}" for n in notes) + "\n\n" + text
        content = clip(f"**{engine.meta.name}** · table #{game.id} in <#{game.channel_id}>\n{text}", 1990)
        file = await render_file(game, "private", view, filename="hand.png",
                                 description=alt_text(game, engine, "private", view))
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            if info.get("dm") and not notes:
                try:
                    channel = user.dm_channel or await user.create_dm()
                    await channel.get_partial_message(info["dm"]).edit(
                        content=content, attachments=[file] if file is not None else [])
                    return True
                except discord.NotFound:  # they deleted it: send a new one
                    pass
            message = await (user.send(content, file=file) if file is not None else user.send(content))
        except discord.HTTPException as exc:
            await self.bot.refusals.dm_failed(user_id, exc)
            return False
        await self.tables.set_seat_info(game, {seat: {"dm": message.id, "dm_closed": False}})
        return True

    async def show_hand(self, interaction: discord.Interaction, game: GameRow) -> None:
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            return await self.error(interaction, "You're not playing in this game, so you have no hand here.")
        if game.status != "running":
            return await self.error(interaction, "The game hasn't started yet." if game.status == "lobby"
                                    else "This game is over.")
        engine = self.tables.engine(game)
        view = engine.view(game.state, seat)
        # Answer Discord first (3-second deadline), then draw: the picture may wait for the worker.
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await render_file(game, "private", view, filename="hand.png",
                                 description=alt_text(game, engine, "private", view), urgent=True)
        kwargs: dict[str, Any] = {"ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**fit(engine.private_text(view), **kwargs))

    async def show_panel(self, interaction: discord.Interaction, game: GameRow, prefix: str = "",
                         edit: bool = False) -> None:
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            return await self.error(interaction, "You're not playing in this game: you can watch, but only seated"
                                    " players act.")
        if game.status != "running":
            return await self.error(interaction, "The game hasn't started yet." if game.status == "lobby"
                                    else "This game is over.")
        text, view = build_panel(game, self.tables.engine(game), seat)
        if game.channel_id in self.bot.refusals.muted_channels:
            text += ("\n⚠️ Discord won't let me post in this channel (missing permissions), so new boards aren't"
                     " posted: please ask a server admin. `/game status` shows the board meanwhile.")
        kwargs: dict[str, Any] = fit(prefix + text)
        if view is not None:
            kwargs["view"] = view
        if edit:
            if view is None:
                kwargs["view"] = None
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.response.send_message(**kwargs, ephemeral=True)

    # --- the router ------------------------------------------------------------------------------
    async def handle_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        try:
            parts = customid.parse(custom_id)
            if interaction.guild_id:
                await self.bot.refresh_manager_role(interaction.guild_id)
            await self._handle_component(interaction, parts, values)
        except TableError as exc:
            await self.error(interaction, str(exc))

    async def _handle_component(self, interaction: discord.Interaction, parts: customid.CustomId,
                                values: list[str]) -> None:
        tables = self.tables
        user = interaction.user
        kind, game_id = parts.kind, parts.game_id
        if kind == "join":
            game = await tables.join(game_id, user.id, user.display_name)
            await interaction.response.edit_message(embed=lobby_embed(game, tables.engine(game)), view=lobby_view(game))
        elif kind == "leave":
            game, outcome = await tables.leave(game_id, user.id)
            if outcome is not None:
                await interaction.response.send_message("You left the game.", ephemeral=True)
                await self.publish(outcome)
            else:
                await interaction.response.edit_message(embed=lobby_embed(game, tables.engine(game)), view=lobby_view(game))
        elif kind == "bot":
            game = await tables.add_bot(game_id, user.id)
            await interaction.response.edit_message(embed=lobby_embed(game, tables.engine(game)), view=lobby_view(game))
        elif kind == "start":
            outcome = await tables.start(game_id, user.id, is_manager=self.bot.is_manager(interaction))
            await interaction.response.edit_message(embed=lobby_embed(outcome.game, tables.engine(outcome.game)), view=None)
            await self.open_thread(outcome.game)
            await self.publish(outcome)
        elif kind == "play":
            await self.show_panel(interaction, await tables.get(game_id))
        elif kind == "hand":
            await self.show_hand(interaction, await tables.get(game_id))
        elif kind == "end":
            game = await tables.get(game_id)
            if not (user.id == game.host_id or self.bot.is_manager(interaction)):
                raise TableError("Only the host or a game manager can end this game.")
            await tables.end(game_id, f"Ended by {user.display_name}.")
            await interaction.response.edit_message(content="The game was ended.", view=None)
            await self.announce_end(game)
        elif kind == "dm":
            await self.retry_dms(interaction, await tables.get(game_id))
        elif kind == "cancel":
            await interaction.response.edit_message(content="The game goes on.", view=None)
        elif kind in ("act", "sel"):
            if kind == "sel" and len(values) != 1:
                raise customid.BadInput(customid.DAMAGED)
            index = customid.parse_index(values[0]) if kind == "sel" else parts.n
            version = parts.version
            game = await tables.get(game_id)
            try:
                outcome = await tables.act(game_id, user.id, version=version, index=index)
            except TableError as exc:
                if "out of date" in str(exc):
                    return await self.show_panel(interaction, game, prefix=f"{exc}\n", edit=True)
                raise
            done = f"✅ {outcome.label}\n" if outcome.label else "✅ Done.\n"
            if outcome.game.status == "running":
                await self.show_panel(interaction, outcome.game, prefix=done, edit=True)
            else:
                await interaction.response.edit_message(content=done + "The game is over.", view=None)
            await self.publish(outcome)
        else:
            raise customid.BadInput(customid.DAMAGED)

    async def tell(self, user_id: int, text: str) -> bool:
        """A DM in words to one person (a host, about their table), unless their DMs are closed."""
        if not self.bot.refusals.dm_allowed(user_id):
            return False
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**fit(text))
        except discord.HTTPException as exc:
            await self.bot.refusals.dm_failed(user_id, exc)
            return False
        return True

    async def channel_refused(self, channel_id: int, code: int) -> None:
        """Discord said the channel is gone, or that the bot may not post there: stop
        using it, end its table if it is gone, and tell the host once."""
        game = await self.tables.in_channel(channel_id)
        if game is None:
            return
        name = self.tables.engine(game).meta.name
        if code == refusals.UNKNOWN_CHANNEL:
            try:
                await self.tables.end(game.id, "Its channel was deleted.")
            except TableError:
                return
            await self.tell(game.host_id, f"Your table #{game.id} ({name}) has ended: its channel was deleted.")
            return
        await self.tell(game.host_id, (
            f"I can't post in <#{channel_id}>, where your table #{game.id} ({name}) is playing: Discord says I'm"
            " missing permissions there. Please ask a server admin to let me View Channel, Send Messages, Embed"
            " Links and Attach Files in that channel. Until then the game goes on: `/game play` to move and"
            " `/game status` to see the board. I'll post boards again as soon as the permissions change."))

    async def retry_dms(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The **Try DMs again** button: DMs back on for this player, and their hand sent now."""
        user_id = interaction.user.id
        await self.bot.refusals.dm_retry(user_id)
        seat = seat_of(game, user_id)
        if seat is None or game.status != "running":
            return await self.error(interaction, "DMs are back on: I'll send your private information by DM"
                                    " in your next game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if await self.send_private(game, self.tables.engine(game), seat, []):
            text = "✅ Sent: check your DMs. I'll keep your hand there up to date."
        else:
            text = ("Your DMs are still closed, so I'll stop trying again. Allow direct messages from this"
                    " server's members (server name → Privacy Settings), then press **Try DMs again**.")
        await interaction.followup.send(**fit(text, ephemeral=True))

    async def announce_end(self, game: GameRow) -> None:
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
