"""What the bot's messages say and show: the lobby embed and its buttons, the board's text and
buttons, alt text for every picture, final scores. Pure builders: nothing here sends anything."""
from __future__ import annotations

import io
import re
from collections import OrderedDict
from typing import Any

import discord

from bot import ratings
from bot.engine import RULES_OPTION, Engine
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


# --- the rules set (issue 29: tuned or rulebook) -----------------------------------------------
def rules_sets() -> dict[str, str]:
    """``{rules set: what it plays}``, from the one description of the ``rules`` option ("tuned: ...; rulebook:
    ..."), so the lobby, ``/game rules`` and the final scores say what the option's help says."""
    described = {}
    for part in RULES_OPTION.description.split("; "):
        name, _, what = part.partition(": ")
        described[name.strip()] = what.strip().rstrip(".")
    return {choice: described.get(choice, "") for choice in RULES_OPTION.choices}


def rules_set(options: dict[str, Any] | None) -> str:
    """The rules set a table plays (a table stored before the option existed plays the default)."""
    value = (options or {}).get(RULES_OPTION.key, RULES_OPTION.default)
    return value if value in RULES_OPTION.choices else RULES_OPTION.default


def rules_line(options: dict[str, Any] | None) -> str:
    """One line naming a table's rules set and what it plays: "**tuned**: the printed rules with ..."."""
    name = rules_set(options)
    what = rules_sets().get(name)
    return f"**{name}**" + (f": {what}." if what else "")


# --- lobby ---------------------------------------------------------------------------------
def lobby_embed(game: GameRow, engine: Engine) -> discord.Embed:
    """The lobby's card: seats, player counts, the rules set and the other options."""
    meta = engine.meta
    embed = discord.Embed(title=f"{meta.name} — table #{game.id}", description=meta.blurb, colour=EMBED_COLOUR)
    seats = "\n".join(f"{i + 1}. {seat_label(game, i)}{' (host)' if s.get('user_id') == game.host_id else ''}"
                      for i, s in enumerate(game.seats)) or "nobody yet"
    embed.add_field(name=f"Seats ({len(game.seats)}/{meta.max_players}, need {meta.min_players})", value=seats,
                    inline=False)
    if any(opt.key == RULES_OPTION.key for opt in meta.options):
        rules = rules_line(game.options)
        if game.status == "lobby":
            other = next(choice for choice in RULES_OPTION.choices if choice != rules_set(game.options))
            rules += f" The host can switch: `/game option {RULES_OPTION.key} {other}`."
        embed.add_field(name="Rules", value=rules, inline=False)
    shown_options = [opt for opt in meta.options if opt.key != RULES_OPTION.key]
    if shown_options:
        lines = []
        for opt in shown_options:
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


def howto_button(key: str) -> discord.ui.Button:
    """The **How to play** button of a game (lobby, first boards, ``/game rules``): its text and picture, privately."""
    return discord.ui.Button(label="How to play", emoji="📖", style=discord.ButtonStyle.secondary,
                             custom_id=customid.encode_key("howto", key))


def lobby_view(game: GameRow) -> discord.ui.View | None:
    """The lobby's buttons (join, leave, add a bot, start, how to play), or None once it started."""
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
    view.add_item(howto_button(game.game_key))
    return view


# --- board -------------------------------------------------------------------------------------
BOARD_VIEWS_KEPT = 4096
# (game id, its game's key on a first-round board) -> that board's buttons (they never change)
_board_views: OrderedDict[tuple[int, str | None], discord.ui.View] = OrderedDict()


def first_round(game: GameRow) -> bool:
    """Whether a board of the game is one of its first: the first board posted (however many moves bots made
    before it), or any while fewer moves were made than there are seats, so each player's first board (the one
    that pings them to play their first move) is among them."""
    return not game.board_message_id or game.version < len(game.seats)


def board_view(game: GameRow) -> discord.ui.View | None:
    """A running game's buttons (play, show my hand; in the first round how to play too), or None once it is over.
    Built once per game and kind (0.1-0.3 ms each time, for every board posted or edited): a view the bot sends
    is stopped, so discord.py only reads it."""
    if game.status != "running":
        return None
    key = (game.id, game.game_key if first_round(game) else None)
    view = _board_views.get(key)
    if view is None:
        view = _board_views[key] = _new_board_view(*key)
        while len(_board_views) > BOARD_VIEWS_KEPT:
            _board_views.popitem(last=False)
    else:
        _board_views.move_to_end(key)
    return view


def _new_board_view(game_id: int, howto: str | None = None) -> discord.ui.View:
    """A board's buttons; with ``howto`` (a game key) the game's **How to play** too."""
    view = new_view()
    view.add_item(discord.ui.Button(label="Play", emoji="🎲", style=discord.ButtonStyle.primary,
                                    custom_id=customid.encode("play", game_id)))
    view.add_item(discord.ui.Button(label="Show my hand", emoji="🂠", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("hand", game_id)))
    if howto is not None:
        view.add_item(howto_button(howto))
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
    """Markdown and mentions out, for alt text a screen reader reads aloud; spaces as in a sentence (none before
    a comma or a closing bracket, one between words)."""
    text = re.sub(r"<@!?(\d+)>", "a player", text)
    text = re.sub(r"<#\d+>", "a channel", text)
    text = re.sub(r"<t:(\d+)(:[a-zA-Z])?>", "soon", text)
    text = re.sub(r"[*_`~>|]", "", text)
    text = re.sub(r"\s+(?=[,;:.!?)])", "", re.sub(r"\(\s+", "(", text))
    return re.sub(r"\s+", " ", text).strip()


def clip_words(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, cut after a whole word (with an ellipsis) when too long."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:  # (a word longer than half the room is cut where it must be)
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def alt_text(game: GameRow, engine: Engine, kind: str, view: dict[str, Any], events: list[dict[str, Any]] | None = None,
             results: list[dict[str, Any]] | None = None) -> str:
    """The words for an image (Discord's attachment description): what the picture
    shows a sighted player, from the same view it is drawn from."""
    head = f"{engine.meta.name}, table #{game.id}."
    if kind == "private":
        body = f"Your private view. {engine.private_text(view)}"
    elif kind == "final" and results is not None:
        body = "Final scores: " + "; ".join(
            f"{result['rank']}. {game.seats[result['seat']]['name']} {result['score']}"
            + (" (winner)" if result["won"] else "")
            for result in sorted(results, key=lambda result: (result["rank"], result["seat"])))
    else:
        module = renderer(game.game_key)
        describe = getattr(module, "describe", None) if module else None
        body = describe(view) if describe else (engine.status_line(game.state) if game.state else "")
        if kind != "board":
            body = f"{kind.replace('_', ' ').capitalize()}. {body}"
    said = plain(body)
    happened = [e["text"] for e in events or [] if "to" not in e and e.get("text") and plain(e["text"]) not in said]
    if not happened:
        return clip_words(plain(f"{head} {body}"), ALT_TEXT_LIMIT)
    tail = clip_words(plain("Just happened: " + " ".join(happened[-6:])), ALT_TEXT_LIMIT // 3)
    text = clip_words(plain(f"{head} {body}"), ALT_TEXT_LIMIT - len(tail) - 2)
    return f"{text}{'' if text.endswith(('.', '!', '?', '…')) else '.'} {tail}"


def as_files(images: list[tuple[str, bytes, str]]) -> list[discord.File]:
    """Fresh ``discord.File`` objects (discord.py closes them once sent) for ``(name, bytes, alt text)``."""
    return [discord.File(io.BytesIO(data), filename=name, description=description)
            for name, data, description in images]


async def render_file(game: GameRow, kind: str, view: dict[str, Any], *extra: Any, filename: str = "board.png",
                      description: str | None = None, urgent: bool = False,
                      background: bool = False) -> discord.File | None:
    """The picture of ``view`` as a file to attach (None when the game draws none or drawing failed)."""
    png = await render_async(game.game_key, kind, view, *extra, urgent=urgent, background=background)
    return None if png is None else discord.File(io.BytesIO(png), filename=filename, description=description)


def results_text(game: GameRow, results: list[dict[str, Any]],
                 rating: tuple[str | None, int, list[tuple[Any, ...]]] | None = None) -> str:
    """The final scores, best first, with each seat's detail and the rules set the table played; then, given the
    game's ``rating`` (its status, season and rated seats' changes, ``Storage.game_rating``), each player's rating
    before and after."""
    lines = ["**Final scores**" + (f" · rules: {rules_set(game.options)}" if RULES_OPTION.key in game.options else "")]
    for result in sorted(results, key=lambda result: (result["rank"], result["seat"])):
        crown = "🏆 " if result["won"] else ""
        detail = f" — {result['detail']}" if result.get("detail") else ""
        lines.append(f"{result['rank']}. {crown}{seat_label(game, result['seat'])}: **{result['score']}**{detail}")
    changes = rating_lines(game, rating) if rating is not None else []
    # The scores are clipped, never the ratings (short: a line a seat).
    text = clip("\n".join(lines), 1900 - sum(len(line) + 1 for line in changes))
    return "\n".join([text, *changes])


RATED_NAME = 24  # characters of a name in a rating line (a phone shows about 35 on a line)


def rating_lines(game: GameRow, rating: tuple[str | None, int, list[tuple[Any, ...]]]) -> list[str]:
    """The ratings block of the final scores: "Ann 0.0 -> 3.1" per rated seat (the conservative rating, the
    one ``/leaderboard`` ranks by), "provisional" under 5 rated games, and why a seat or the game wasn't rated."""
    status, season, changes = rating
    if status is None:
        return []
    if status == ratings.PENDING:
        return ["**Ratings**: not updated yet (they will be shortly)."]
    if status != ratings.RATED:
        return [f"**Not rated**: {ratings.NOT_RATED_WHY.get(status, status)}."]
    head = "**Ratings**" + (f" · season {season}" if season > 1 else "")
    lines, rated = [head], set()
    for seat, player, mu0, sigma0, mu1, sigma1, games in changes:
        rated.add(seat)
        before, after = ratings.Rating(mu0, sigma0).ordinal, ratings.Rating(mu1, sigma1).ordinal
        note = " · provisional" if games < ratings.PROVISIONAL_GAMES and not ratings.bot_level(player) else ""
        lines.append(f"{ladder_name(player)} {before:.1f} -> {after:.1f}{note}")
    for seat, info in enumerate(game.seats):
        user = info.get("user_id") or info.get("left_user_id")
        if seat not in rated and user:
            why = "left the game" if info.get("left_user_id") else "a bot played most of their moves"
            lines.append(f"<@{user}>: not rated ({why})")
    return lines


def ladder_name(player: str, name: str = "") -> str:
    """A ladder entry as the channel shows it: a mention for a player (shown as their name, pinging nobody
    when sent without allowed mentions), "🤖 Bot (hard)" for a bot, else the name they last played under."""
    user_id = ratings.user_id_of(player)
    if user_id is not None:
        return f"<@{user_id}>"
    return clip(("🤖 " if ratings.bot_level(player) else "") + ratings.player_name(player, name), RATED_NAME)
