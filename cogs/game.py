"""The ``/game`` commands: open a table, seat players, play, look, end.

No rules here: everything goes through the table service and the engines.
"""
from __future__ import annotations

import functools
import io
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import RULES_OPTION
from bot.games import get_engine, registry
from bot.paths import rules_doc
from bot.storage import StorageError
from bot.tables import TableError, require_replayable, seat_of
from cogs import customid
from cogs.deadline import in_time, reply
from cogs.embeds import new_view, rules_set, rules_sets
from cogs.limits import CHOICE_TEXT, EMBED_DESCRIPTION, FIELD_VALUE, clip, fit, fit_choices, quote
from cogs.panel import after_move
from cogs.router import lessons
from cogs.ui import ALT_TEXT_LIMIT, alt_text, board_content, board_view, lobby_embed, lobby_view, render_file
from rendering import render_async

if TYPE_CHECKING:
    from bot.app import HeistBot

LOG_LINES = 15
OPTION_NAME_MAX = 40
OPTION_VALUE_MAX = 100


def check_option_text(name: str, value: str) -> None:
    """Option names and values are short; a long one is refused here, quoted shortened
    (the engines' own errors repeat what was typed)."""
    if len(name) > OPTION_NAME_MAX:
        raise TableError(f"There is no option called {quote(name)}. Pick one from the list.")
    if len(value) > OPTION_VALUE_MAX:
        raise TableError(f"The value of {quote(name)} is too long ({len(value)} characters): {quote(value)}.")


def parse_options(text: str | None) -> dict[str, str]:
    """``"special_set=B, master_thief=yes"`` -> ``{"special_set": "B", "master_thief": "yes"}``."""
    values: dict[str, str] = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise TableError(f"Write options as name=value, separated by commas (got {quote(part.strip())}).")
        check_option_text(key.strip(), value.strip())
        values[key.strip()] = value.strip()
    return values


def require_game_key(key: str) -> str:
    """``key`` if it names a game, else a clear error that quotes it shortened."""
    if key not in registry():
        raise TableError(f"There is no game called {quote(key)}. Pick one from the list.")
    return key


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games whose key or name contains what the player typed."""
    current = current.lower()
    return fit_choices([
        app_commands.Choice(name=f"{e.meta.name} ({e.meta.min_players}-{e.meta.max_players} players)", value=key)
        for key, e in sorted(registry().items(), key=lambda kv: kv[1].meta.name)
        if current in key or current in e.meta.name.lower()])


def quiet_on_outage(complete: Callable[..., Awaitable[list[app_commands.Choice[str]]]]):
    """An autocomplete that reads the database offers nothing while it is down (rather than an error logged and
    no answer: the command itself then says what is wrong)."""
    @functools.wraps(complete)
    async def choices(self: Any, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            return await complete(self, interaction, current)
        except StorageError:
            return []

    return choices


class GameCog(commands.Cog):
    """The /game commands: open, join and play a table in this channel, and look at its rules, log and replays."""
    game = app_commands.Group(name="game", description="Play heist board games in this channel",
                              guild_only=True)

    def __init__(self, bot: HeistBot) -> None:
        self.bot = bot

    @property
    def tables(self):
        """The bot's table service."""
        return self.bot.tables

    @property
    def ui(self):
        """The bot's shared Discord layer (posting, panels, DMs)."""
        return self.bot.ui

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Read the server's manager role before any /game command, so managers are known."""
        await self.bot.refresh_manager_role(interaction.guild_id)  # so is_manager knows the server's role
        return True

    # --- lobby ----------------------------------------------------------------------------
    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Table options as name=value, e.g. special_set=B")
    @app_commands.autocomplete(game=game_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        """/game new: open a lobby of a game in this channel."""
        require_game_key(game)
        row = await self.tables.open(interaction.guild_id, interaction.channel_id, game, interaction.user.id,
                                     interaction.user.display_name, parse_options(options),
                                     is_manager=self.bot.is_manager(interaction))
        engine = self.tables.engine(row)
        await interaction.response.send_message(embed=lobby_embed(row, engine), view=lobby_view(row))
        message = await interaction.original_response()
        await self.tables.set_message(row, lobby_message_id=message.id)
        await lessons(self.bot).offer(interaction, row)  # the host's first table of this game?

    @new.autocomplete("options")
    async def new_options_autocomplete(self, interaction: discord.Interaction, current: str):
        """The chosen game's options, as ``key=default`` hints."""
        key = getattr(interaction.namespace, "game", None)
        if key not in registry():
            return []
        choices = []
        for opt in get_engine(key).meta.options:
            hint = f"{opt.key}={opt.default}"
            choices.append(app_commands.Choice(name=f"{hint} — {opt.label}", value=hint))
        choices.append(app_commands.Choice(name="turn_minutes=10 — minutes per move before the bot plays it",
                                           value="turn_minutes=10"))
        choices.append(app_commands.Choice(name="on_leave=bot — if a player leaves: bot (takes the seat) or end",
                                           value="on_leave=bot"))
        return fit_choices([c for c in choices if current.lower() in c.value.lower()] or choices)

    @game.command(name="option", description="Change a table option before the game starts (host)")
    @app_commands.describe(name="Which option", value="Its new value")
    async def option(self, interaction: discord.Interaction, name: str, value: str) -> None:
        """/game option: the host sets one of the lobby's options."""
        self.ui.check_user_limit(interaction, "lobby")
        check_option_text(name, value)
        row = await self.tables.set_option(interaction.channel_id, interaction.user.id, name, value)
        shown = row.options.get(name, row.options.get("_" + name))
        await interaction.response.send_message(**fit(f"Option **{name}** set to **{shown}**.", ephemeral=True))
        await self.ui.refresh_lobby(row)

    @option.autocomplete("name")
    @quiet_on_outage
    async def option_autocomplete(self, interaction: discord.Interaction, current: str):
        """The option names of this channel's lobby (the game's and the platform's)."""
        row = await self.tables.in_channel(interaction.channel_id)
        if row is None:
            return []
        names = [(o.key, o.label) for o in self.tables.engine(row).meta.options]
        names.append(("turn_minutes", "Minutes per move before the bot plays it (0 = none)"))
        names.append(("on_leave", "If a player leaves: bot (a bot takes the seat) or end (the game ends)"))
        return fit_choices([app_commands.Choice(name=f"{key} — {label}", value=key)
                            for key, label in names if current.lower() in key.lower()])

    @game.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        """/game join: take a seat in this channel's lobby."""
        self.ui.check_user_limit(interaction, "lobby")
        row = await self.tables.require_in_channel(interaction.channel_id)
        row = await self.tables.join(row.id, interaction.user.id, interaction.user.display_name)
        engine = self.tables.engine(row)
        text, kwargs = f"You joined {engine.meta.name}.", {}
        offer = await lessons(self.bot).first_table_offer(interaction.user.id, engine)
        if offer is not None:
            text, kwargs = f"{text}\n{offer[0]}", {"view": offer[1]}
        await interaction.response.send_message(**fit(text, ephemeral=True, **kwargs))
        await self.ui.refresh_lobby(row)

    @game.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction) -> None:
        """/game leave: leave this channel's table (in a game, a bot or the end takes the seat)."""
        self.ui.check_user_limit(interaction, "lobby")
        row = await self.tables.require_in_channel(interaction.channel_id)
        row, outcome = await in_time(interaction, self.tables.leave(row.id, interaction.user.id))
        await reply(interaction, content="You left the table.")
        if outcome is not None:
            await self.ui.publish(outcome, interaction=interaction)
        else:
            await self.ui.refresh_lobby(row)

    @game.command(name="addbot", description="Fill a seat with a bot player (host)")
    @app_commands.describe(level="easy (makes mistakes), normal, or hard (thinks ahead; slower)")
    async def addbot(self, interaction: discord.Interaction,
                     level: Literal["easy", "normal", "hard"] = "normal") -> None:
        """/game addbot: seat a bot player of a level in the lobby."""
        self.ui.check_user_limit(interaction, "lobby")
        row = await self.tables.require_in_channel(interaction.channel_id)
        row = await self.tables.add_bot(row.id, interaction.user.id, level)
        await interaction.response.send_message(f"A bot ({level}) took a seat.", ephemeral=True)
        await self.ui.refresh_lobby(row)

    @game.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """/game start: the host starts the game; it moves into its own thread if the server wants."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        outcome = await in_time(interaction, self.tables.start(row.id, interaction.user.id,
                                                               is_manager=self.bot.is_manager(interaction)))
        await reply(interaction, content=f"{self.tables.engine(row).meta.name} starts!")
        await self.ui.refresh_lobby(outcome.game)
        await self.ui.open_thread(outcome.game, interaction=interaction)
        await self.ui.publish(outcome, interaction=interaction)

    # --- play ---------------------------------------------------------------------------------
    @game.command(name="play", description="Open your move panel")
    async def play(self, interaction: discord.Interaction) -> None:
        """/game play: the player's move panel."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        await self.ui.show_panel(interaction, row)

    @game.command(name="move", description="Make a move by typing it")
    @app_commands.describe(move="Start typing: your legal moves are listed")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        """/game move: play a move typed (picked from the autocomplete)."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        version, index = self._parse_move(row, interaction.user.id, move)
        outcome = await in_time(interaction, self.tables.act(row.id, interaction.user.id, version=version, index=index))
        private = self.ui.move_reply(outcome, interaction.user.id)  # what the move did to them, in their reply
        done = f"✅ {outcome.label}" if outcome.label else "✅ Done."
        game, engine, seat = outcome.game, self.tables.engine(outcome.game), seat_of(outcome.game, interaction.user.id)
        if game.status == "running" and seat is not None and seat not in engine.to_act(game.state):
            done += "\n" + after_move(game, engine, seat, outcome)  # e.g. "Locked in; waiting for Dave."
        await reply(interaction, **fit(f"{done}\n{private}" if private else done))
        await self.ui.publish(outcome, interaction=interaction)

    def _parse_move(self, row, user_id: int, text: str) -> tuple[int, int]:
        picked = customid.parse_move(text)
        if picked is not None:
            return picked
        # Typed without autocomplete: match the label.
        seat = self.tables.require_seat(row, user_id)
        engine = self.tables.engine(row)
        legal = engine.legal_actions(row.state, seat) if seat in engine.to_act(row.state) else []
        wanted = text.strip().lower()
        matches = [i for i, a in enumerate(legal) if engine.describe_action(row.state, seat, a).lower() == wanted]
        if not matches:
            matches = [i for i, a in enumerate(legal) if wanted in engine.describe_action(row.state, seat, a).lower()]
        if len(matches) != 1:
            raise TableError(customid.NOT_A_MOVE)
        return row.version, matches[0]

    @move.autocomplete("move")
    @quiet_on_outage
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        """The player's legal moves whose description contains what they typed."""
        row = await self.tables.in_channel(interaction.channel_id)
        if row is None or row.status != "running":
            return []
        seat = seat_of(row, interaction.user.id)
        engine = self.tables.engine(row)
        if seat is None or seat not in engine.to_act(row.state):
            return []
        current = current.lower()
        choices = []
        for i, action in enumerate(engine.legal_actions(row.state, seat)):
            label = clip(engine.describe_action(row.state, seat, action), CHOICE_TEXT)
            if current in label.lower():
                choices.append(app_commands.Choice(name=label, value=customid.encode_move(row.version, i)))
        return fit_choices(choices)

    @game.command(name="hand", description="See your private hand and secrets (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """/game hand: the player's private hand here, and one more try at DMing it."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        await self.bot.refusals.dm_retry(interaction.user.id)  # asking again: worth one more DM
        await self.ui.show_hand(interaction, row)

    @game.command(name="status", description="Post the current board again")
    async def status(self, interaction: discord.Interaction) -> None:
        """/game status: the lobby card or the current board."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        engine = self.tables.engine(row)
        if row.status == "lobby":
            await interaction.response.send_message(embed=lobby_embed(row, engine), view=lobby_view(row))
            message = await interaction.original_response()
            await self.tables.set_message(row, lobby_message_id=message.id)
            return
        await interaction.response.defer(thinking=True)
        public = self.tables.view(row, None)
        file = await render_file(row, "board", public, description=alt_text(row, engine, "board", public))
        kwargs: dict[str, Any] = {"content": board_content(row, engine)}
        if file is not None:
            kwargs["file"] = file
        view = board_view(row)
        if view is not None:
            kwargs["view"] = view
        message = await interaction.followup.send(**fit(**kwargs, allowed_mentions=discord.AllowedMentions.none()),
                                                  wait=True)
        await self.ui.adopt_board(row, message.id)  # the living board now: retired like every other

    @game.command(name="rejoin", description="Take your seat back from the bot after missing turns")
    async def rejoin(self, interaction: discord.Interaction) -> None:
        """/game rejoin: a player benched as away takes their seat back."""
        self.ui.check_user_limit(interaction, "note")
        row = await self.tables.rejoin(interaction.channel_id, interaction.user.id)
        await interaction.response.send_message("Welcome back: your seat is yours again.", ephemeral=True)
        await self.bot.ui.channel_note(row, f"<@{interaction.user.id}> is back at the table.", interaction=interaction)

    @game.command(name="rules", description="A short summary of a game's rules, and where to learn it")
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """/game rules: a game's rules summary, its rules sets (and which one this channel's table plays), its
        options, and the way on: How to play, Full rules (the rules doc as a file), Learn by playing."""
        engine = get_engine(require_game_key(game))
        meta = engine.meta
        embed = discord.Embed(title=f"{meta.name} ({meta.min_players}-{meta.max_players} players)",
                              description=clip(meta.summary, EMBED_DESCRIPTION), colour=discord.Colour.gold())
        if any(o.key == RULES_OPTION.key for o in meta.options):
            sets = "\n".join(f"**{name}**{' (the default)' if name == RULES_OPTION.default else ''}: {what}."
                             for name, what in rules_sets().items())
            table = await self.tables.in_channel(interaction.channel_id)
            if table is not None and table.game_key == meta.key:
                sets += f"\nThe table here (#{table.id}) plays the **{rules_set(table.options)}** rules."
            else:
                sets += (f"\nThe host picks one in the lobby: `/game option {RULES_OPTION.key}"
                         f" {RULES_OPTION.choices[-1]}`.")
            embed.add_field(name="Rules sets", value=clip(sets, FIELD_VALUE), inline=False)
        options = [o for o in meta.options if o.key != RULES_OPTION.key]
        if options:
            embed.add_field(name="Table options", value=clip("\n".join(
                f"`{o.key}` (default {o.default}): {o.label}" for o in options), FIELD_VALUE), inline=False)
        learn = ["**How to play**: the goal, a turn and the board in a minute."]
        if engine.tutorial() is not None:
            learn.append(f"**Learn by playing** (`/game learn game:{meta.key}`): a private lesson against bots.")
        if rules_doc(meta.key) is not None:
            learn.append("**Full rules**: every rule as this bot plays it, as a file.")
        embed.add_field(name="Learn it", value=clip("\n".join(learn), FIELD_VALUE), inline=False)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        view = lessons(self.bot).leads_on(engine, howto=True)
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**fit(**kwargs))

    @game.command(name="learn", description="Learn a game in a short private lesson against bots (by DM)")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        """/game learn: the game's tutorial, played privately (in DMs, or here when they are closed)."""
        await lessons(self.bot).learn(interaction, require_game_key(game))

    @game.command(name="end", description="End this channel's game (host or game manager)")
    async def end(self, interaction: discord.Interaction) -> None:
        """/game end: the host or a manager ends the game (after a confirmation)."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        if not (interaction.user.id == row.host_id or self.bot.is_manager(interaction)):
            raise TableError("Only the host or a game manager can end this game.")
        view = new_view()
        view.add_item(discord.ui.Button(label="End the game", style=discord.ButtonStyle.danger,
                                        custom_id=customid.encode("end", row.id)))
        view.add_item(discord.ui.Button(label="Keep playing", style=discord.ButtonStyle.secondary,
                                        custom_id=customid.encode("cancel", row.id)))
        await interaction.response.send_message(
            f"End {self.tables.engine(row).meta.name} (table #{row.id}) for everyone? It can't be resumed.",
            view=view, ephemeral=True)

    @game.command(name="log", description="The last moves of this channel's game, in words")
    @app_commands.describe(lines="How many moves (default 15)")
    async def log(self, interaction: discord.Interaction, lines: app_commands.Range[int, 1, 50] = LOG_LINES) -> None:
        """/game log: the table's last moves."""
        row = await self.tables.require_in_channel(interaction.channel_id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a long game takes a moment to replay
        await interaction.followup.send(await self.ui.log_text(row, lines), ephemeral=True)

    @game.command(name="replay", description="A finished game as an animation, or its board at any move")
    @app_commands.describe(id="The table number",
                           move="After how many moves (0 = the start); leave out for the whole game")
    async def replay(self, interaction: discord.Interaction, id: int, move: int | None = None) -> None:
        """/game replay: a finished game of this server as an animation, or its board after a move."""
        # Every check before the public "thinking" reply: an error after it would be
        # public too (Discord makes the first follow-up the deferred reply, ephemeral or not).
        row = await self.bot.storage.get_game(id) if 0 < id <= customid.MAX_ID else None
        if row is None or row.guild_id != interaction.guild_id:  # the server first: nothing about other servers' games
            raise TableError(f"There is no game #{id} on this server.")
        if row.status in ("lobby", "running") and not self.bot.is_manager(interaction):
            raise TableError("Replays are for finished games (a running game's secrets would show).")
        if not row.started:
            raise TableError(f"Game #{id} never started.")
        require_replayable(row)
        moves = row.version  # the log's length, without reading it
        if move is not None and not 0 <= move <= moves:
            raise TableError(f"Game #{id} has moves 0 to {moves}.")
        await interaction.response.defer(thinking=True)  # public: everything below is the game's public history
        engine = self.tables.engine(row)
        if move is None:
            row, snapshots, total, scores = await self.tables.replay_turns(id)
            gif = await render_async(row.game_key, "replay", snapshots, total, scores)
            kwargs: dict[str, Any] = {"content": f"**{engine.meta.name}** · table #{id} · the whole game:"
                                                 f" {len(snapshots) - 1} turns, {total} moves"}
            if gif is not None:
                ranked = sorted(scores or [], key=lambda r: (r["rank"], r["seat"]))
                final = (" Final scores: " + "; ".join(f"{row.seats[r['seat']]['name']} {r['score']}"
                                                       for r in ranked)) if scores else ""
                description = clip(f"Animated replay of {engine.meta.name}, table #{id}: the board after each of"
                                   f" {len(snapshots) - 1} turns.{final}", ALT_TEXT_LIMIT)
                kwargs["file"] = discord.File(io.BytesIO(gif), filename=f"replay-{id}.gif", description=description)
            await interaction.followup.send(**fit(**kwargs))
            return
        row, state, total = await self.tables.replay(id, move)
        public = engine.view(state, None)
        file = await render_file(row, "board", public, filename=f"replay-{id}-{move}.png",
                                 description=alt_text(row, engine, "board", public))
        kwargs = {"content": f"**{engine.meta.name}** · table #{id} · after move {move} of {total}\n"
                             f"{engine.status_line(state)}"}
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**fit(**kwargs))


async def setup(bot: HeistBot) -> None:
    """Load the game cog (discord.py's extension entry point)."""
    await bot.add_cog(GameCog(bot))
