"""What the bot's messages say and show: the lobby embed and its buttons, the board's text and
buttons, alt text for every picture, final scores. Pure builders: nothing here sends anything."""
from __future__ import annotations

import io
import re
from collections import OrderedDict
from typing import Any

import discord

from bot.engine import Engine
from bot.storage import GameRow
from cogs import customid
from cogs.limits import clip, fit
from rendering import render_async, renderer

EMBED_COLOUR = discord.Colour.from_rgb(232, 190, 80)


def seat_label(game: GameRow, seat: int) -> str:
    """A seat as shown in the channel: a mention, or the bot's name; "(away)" when a bot plays for them."""
    info = game.seats[seat]
    if info.get("bot"):
        return f"🤖 {info['name']}"
    away = " (away — bot playing)" if info.get("away") else ""
    return f"<@{info['user_id']}>{away}"


def new_view() -> discord.ui.View:
    """An empty view for a message's buttons and selects, that discord.py won't listen on: every click comes to
    the one router (``cogs.router``). discord.py keeps each view it sends unless it is stopped: a board's or a
    lobby's for ever, a panel's with a 15-minute timer task, and it runs one more task at each click on it."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


# --- lobby ---------------------------------------------------------------------------------
def lobby_embed(game: GameRow, engine: Engine) -> discord.Embed:
    """The lobby's card: seats, player counts and options."""
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
    """The lobby's buttons (join, leave, add a bot, start, cancel), or None once it started."""
    if game.status != "lobby":
        return None
    view = new_view()
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
BOARD_VIEWS_KEPT = 4096
_board_views: OrderedDict[int, discord.ui.View] = OrderedDict()  # game id -> its board's buttons (they never change)


def board_view(game: GameRow) -> discord.ui.View | None:
    """A running game's buttons (play, show my hand), or None once it is over. Built once per game (0.1-0.3 ms
    each time, for every board posted or edited): a view the bot sends is stopped, so discord.py only reads it."""
    if game.status != "running":
        return None
    view = _board_views.get(game.id)
    if view is None:
        view = _board_views[game.id] = _new_board_view(game.id)
        while len(_board_views) > BOARD_VIEWS_KEPT:
            _board_views.popitem(last=False)
    else:
        _board_views.move_to_end(game.id)
    return view


def _new_board_view(game_id: int) -> discord.ui.View:
    view = new_view()
    view.add_item(discord.ui.Button(label="Play", emoji="🎲", style=discord.ButtonStyle.primary,
                                    custom_id=customid.encode("play", game_id)))
    view.add_item(discord.ui.Button(label="Show my hand", emoji="🂠", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("hand", game_id)))
    return view


def dm_retry_view(game: GameRow) -> discord.ui.View:
    """The button a player with closed DMs clicks to be sent their hand again."""
    view = new_view()
    view.add_item(discord.ui.Button(label="Try DMs again", emoji="✉️", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("dm", game.id)))
    return view


def board_content(game: GameRow, engine: Engine, events: list[dict[str, Any]] | None = None) -> str:
    """The board message's text: the latest public events, whose turn it is, or the final scores."""
    lines = [e["text"] for e in (events or []) if "to" not in e and e.get("text")]
    text = "\n".join(f"• {line}" for line in lines[-15:])
    header, footer = board_header(game, engine), board_footer(game, engine)
    return clip(f"{header}\n{text}\n{footer}" if text else f"{header}\n{footer}", 1900)


def board_header(game: GameRow, engine: Engine) -> str:
    """The first line of a board: the game and the table."""
    return f"**{engine.meta.name}** · table #{game.id}"


def board_footer(game: GameRow, engine: Engine) -> str:
    """The last lines of a board: the status and whom the game waits for, or that it is over."""
    if game.status == "running":
        waiting = engine.to_act(game.state)
        who = ", ".join(seat_label(game, s) for s in waiting)
        status = engine.status_line(game.state)
        footer = f"**{status}**" + (f"\n⏳ Waiting for: {who}" if who else "")
        if who and game.deadline_at:
            footer += f" · time runs out <t:{int(game.deadline_at)}:R>"
        return footer
    if game.status == "finished":
        return "**Game over!**"
    return f"**Game ended.** {game.ended_reason or ''}"


BOARD_TEXT = 1900  # a board message's text at most (Discord's limit is 2,000)


def board_pages(game: GameRow, engine: Engine, lines: list[str], limit: int = BOARD_TEXT) -> list[list[str]]:
    """The public lines of a turn cut into the messages that hold them, oldest first: the last one is the board
    (with the footer), the others continuations. Nothing is dropped: a turn with many lines (bots moving one
    after another, a long reveal) takes several messages rather than losing its oldest lines."""
    header, footer = board_header(game, engine), board_footer(game, engine)
    room = limit - len(header) - 2
    bullets = [clip(f"• {line}", room - len(footer) - 1) for line in lines]
    last: list[str] = []
    used = len(footer) + 1
    while bullets and used + len(bullets[-1]) + 1 <= room:  # the board: the latest lines that fit beside the footer
        used += len(bullets[-1]) + 1
        last.insert(0, bullets.pop())
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for bullet in bullets:  # the earlier lines, in order, as full as each message holds
        if page and used + len(bullet) + 1 > room:
            pages.append(page)
            page, used = [], 0
        page.append(bullet)
        used += len(bullet) + 1
    if page:
        pages.append(page)
    return [*pages, last]


def board_page(game: GameRow, engine: Engine, bullets: list[str], *, board: bool) -> str:
    """One message of :func:`board_pages`: the header and its lines, and the footer on the board itself."""
    parts = [board_header(game, engine), *bullets]
    if board:
        parts.append(board_footer(game, engine))
    return "\n".join(parts)


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
            f"{result['rank']}. {game.seats[result['seat']]['name']} {result['score']}" + (" (winner)" if result["won"] else "")
            for result in sorted(results, key=lambda result: (result["rank"], result["seat"])))
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
                      description: str | None = None, urgent: bool = False,
                      background: bool = False) -> discord.File | None:
    """The picture of ``view`` as a file to attach (None when the game draws none or drawing failed)."""
    png = await render_async(game.game_key, kind, view, *extra, urgent=urgent, background=background)
    return None if png is None else discord.File(io.BytesIO(png), filename=filename, description=description)


def results_text(game: GameRow, results: list[dict[str, Any]]) -> str:
    """The final scores, best first, with each seat's detail."""
    lines = ["**Final scores**"]
    for result in sorted(results, key=lambda result: (result["rank"], result["seat"])):
        crown = "🏆 " if result["won"] else ""
        detail = f" — {result['detail']}" if result.get("detail") else ""
        lines.append(f"{result['rank']}. {crown}{seat_label(game, result['seat'])}: **{result['score']}**{detail}")
    return clip("\n".join(lines), 1900)
