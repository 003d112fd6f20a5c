"""``/gameadmin``: server-admin game management.

Visible by default to members with Manage Server (``default_member_permissions``);
server owners can grant it to others in Server Settings → Integrations. A configured
manager role manages games (list, end, remove players); only Manage Server changes
the server's settings (``settings``, ``maintenance``), so the role can't widen itself.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.games import get_engine
from bot.tables import TableError, seat_of
from cogs.limits import fit
from cogs.refusals import INVALID_LIMIT, UNKNOWN_CHANNEL

SERVER_SETTINGS = ("settings", "maintenance", "season start")  # Manage Server only

if TYPE_CHECKING:
    from bot.app import HeistBot


class AdminCog(commands.Cog):
    """The /gameadmin commands for server managers, and the events that tell the bot a channel or role changed."""
    admin = app_commands.Group(name="gameadmin", description="Manage heistcord games on this server",
                               guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    season = app_commands.Group(name="season", description="Rating seasons on this server", parent=admin)

    def __init__(self, bot: HeistBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Let only server managers (Manage Server, or the game-manager role) use /gameadmin."""
        await self.bot.refresh_manager_role(interaction.guild_id)
        if not self.bot.is_manager(interaction):
            await self.bot.ui.error(interaction, "Only server managers (Manage Server, or the game-manager role)"
                                    " can use /gameadmin.")
            return False
        name = getattr(interaction.command, "qualified_name", "").removeprefix("gameadmin ")
        if name in SERVER_SETTINGS and not self.bot.manages_server(interaction):
            await self.bot.ui.error(interaction, f"Only members with Manage Server can change `/gameadmin {name}`;"
                                    " the game-manager role manages games.")
            return False
        return True

    @admin.command(name="list", description="The games open or running on this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        """/gameadmin list: the server's open tables, their channels and players."""
        games = await self.bot.storage.game_summaries(interaction.guild_id)  # no game's state decoded
        if not games:
            return await interaction.response.send_message("No games are open on this server.", ephemeral=True)
        lines = []
        for game in games:
            engine = get_engine(game.game_key)
            players = ", ".join(s["name"] for s in game.seats)
            lines.append(f"**#{game.id}** {engine.meta.name} in <#{game.channel_id}> — {game.status} — {players}")
        settings = await self.bot.storage.settings(interaction.guild_id)
        if settings.maintenance:
            lines.insert(0, "🛠️ Maintenance mode is on: no new games can be opened.")
        await interaction.response.send_message(**fit("\n".join(lines), ephemeral=True))

    @admin.command(name="end", description="Force-end a game")
    @app_commands.describe(game_id="The table number (see /gameadmin list)")
    async def end_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """/gameadmin end: end any game of this server by its number."""
        game = await self.bot.tables.get(game_id)
        if game.guild_id != interaction.guild_id:
            raise TableError(f"There is no game #{game_id} on this server.")
        await self.bot.tables.end(game_id, f"Ended by a server manager ({interaction.user.display_name}).")
        await interaction.response.send_message(f"Game #{game_id} ended.", ephemeral=True)
        await self.bot.ui.announce_end(game)

    @admin.command(name="remove", description="Remove a player from this channel's game")
    @app_commands.describe(player="Who to remove")
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        """/gameadmin remove: take a player out of this channel's table (a bot or the end takes the seat)."""
        game = await self.bot.tables.require_in_channel(interaction.channel_id)
        if seat_of(game, player.id) is None:
            raise TableError(f"{player.display_name} isn't seated at this table.")
        if game.status == "lobby":
            game, _ = await self.bot.tables.leave(game.id, player.id)
            await interaction.response.send_message(f"{player.display_name} was removed from the lobby.",
                                                    ephemeral=True)
            await self.bot.ui.refresh_lobby(game)
            return
        outcome = await self.bot.tables.remove_player(game.id, player.id)
        await interaction.response.send_message(f"{player.display_name} was removed.", ephemeral=True)
        if outcome.game.status == "ended":
            await self.bot.ui.announce_end(outcome.game)
        else:
            await self.bot.ui.publish(outcome, interaction=interaction)

    @admin.command(name="settings", description="Server defaults for heistcord games")
    @app_commands.describe(
        manager_role="A role whose members may manage games (end, remove players)",
        game_channel="Add or remove a channel where games may be opened (none set = anywhere)",
        turn_minutes="Default turn timer in minutes (0 = no timer)",
        on_leave="When a player leaves a running game: a bot takes the seat, or the game ends",
        clear_role="Remove the manager role",
        threads="Play each started game in a thread of its own (on by default); off: in the channel",
        bot_level="How well the bot plays a seat whose player timed out or left (normal by default)",
    )
    async def settings(self, interaction: discord.Interaction, manager_role: discord.Role | None = None,
                       game_channel: discord.TextChannel | None = None,
                       turn_minutes: app_commands.Range[int, 0, 10080] | None = None,
                       on_leave: Literal["bot", "end"] | None = None, clear_role: bool = False,
                       threads: bool | None = None,
                       bot_level: Literal["easy", "normal", "hard"] | None = None) -> None:
        """/gameadmin settings: show the server's settings, changing those given."""
        storage = self.bot.storage
        settings = await storage.settings(interaction.guild_id)
        if manager_role is not None and manager_role.is_default():
            raise TableError("@everyone can't be the game-manager role: anyone could then end any game."
                             " Pick a role only trusted members have.")
        if manager_role is not None:
            settings.manager_role_id = manager_role.id
        if clear_role:
            settings.manager_role_id = None
        if game_channel is not None:
            if game_channel.id in settings.allowed_channels:
                settings.allowed_channels.remove(game_channel.id)
            else:
                settings.allowed_channels.append(game_channel.id)
        if turn_minutes is not None:
            settings.turn_minutes = turn_minutes
        if on_leave is not None:
            settings.on_leave = on_leave
        if threads is not None:
            settings.threads = threads
        if bot_level is not None:
            settings.bot_level = bot_level
        await storage.save_settings(settings)
        await self.bot.refresh_manager_role(interaction.guild_id)
        await interaction.response.send_message(self._describe(settings), ephemeral=True)

    @admin.command(name="maintenance", description="Pause or allow opening new games (running games carry on)")
    async def maintenance(self, interaction: discord.Interaction, paused: bool) -> None:
        """/gameadmin maintenance: pause or resume new games (running ones carry on)."""
        settings = await self.bot.storage.settings(interaction.guild_id)
        settings.maintenance = paused
        await self.bot.storage.save_settings(settings)
        running = len(await self.bot.storage.active_games(interaction.guild_id))
        if paused:
            text = f"🛠️ New games are paused. {running} open game(s) keep going and survive a redeploy."
        else:
            text = "New games can be opened again."
        await interaction.response.send_message(text, ephemeral=True)

    @admin.command(name="status", description="What Discord refused lately, and what the bot stopped trying")
    async def status(self, interaction: discord.Interaction) -> None:
        """/gameadmin status: Discord's refusals so far, invalid requests, paused DMs and unusable channels."""
        refusals = self.bot.refusals
        kinds = refusals.by_kind()
        lines = ["**Discord's refusals since the bot started** (4xx answers, by kind)"]
        lines += [f"• {kind}: {n}" for kind, n in kinds] or ["• none"]
        lines.append(f"Invalid requests (401/403/429) in the last 10 minutes: **{refusals.invalid_recently()}** of"
                     f" {INVALID_LIMIT:,} (past that, Discord blocks the bot's IP for a while).")
        lines.append(f"DMs paused for {len(refusals.dm_open_pauses())} player(s) whose DMs are closed (they get DMs"
                     " again with **Try DMs again** or `/game hand`).")
        guild = interaction.guild
        here = {c.id for c in guild.channels} if guild is not None else set()
        muted = [f"<#{c}>" for c in refusals.muted_channels if c in here]
        if muted:
            lines.append(f"Channels where I'm missing permissions (nothing posted there): {', '.join(muted)}")
        lines.append("**Discord's rate limits** (this process; moves ride their interactions, which aren't counted)")
        lines += [f"• {line}" for line in self.bot.sender.summary()]
        await interaction.response.send_message(**fit("\n".join(lines), ephemeral=True))

    @season.command(name="start", description="Close this season's ladders and start new ones (old ones stay viewable)")
    async def season_start(self, interaction: discord.Interaction) -> None:
        """/gameadmin season start: the games finished from now on go on new ladders; the old ones are kept."""
        new = await self.bot.storage.start_season(interaction.guild_id)
        await interaction.response.send_message(
            f"Season {new} has started: every game's ladder starts afresh (players at 0, the bots at their seeded"
            f" ratings). Season {new - 1}'s ladders stay on view: `/leaderboard game season:{new - 1}`.",
            ephemeral=True)

    @admin.command(name="unrate", description="Take a finished game off the ratings (its ladder is recomputed)")
    @app_commands.describe(game_id="The table number (in its final scores)",
                           undo="Put a game taken off back on its ladder")
    async def unrate(self, interaction: discord.Interaction, game_id: int, undo: bool = False) -> None:
        """/gameadmin unrate: rebuild a game's ladder without it (or, with ``undo``, with it again)."""
        game = await self.bot.storage.get_game(game_id)
        if game is None or game.guild_id != interaction.guild_id:
            raise TableError(f"There is no game #{game_id} on this server.")
        status, _, _ = await self.bot.storage.game_rating(game_id)
        if status is None:
            raise TableError(f"Game #{game_id} has no final result, so it was never rated.")
        if (status == ratings.UNRATED) != undo:
            raise TableError(f"Game #{game_id} is {'on its ladder' if undo else 'already off the ladder'}.")
        await interaction.response.defer(ephemeral=True, thinking=True)  # a long ladder takes a moment
        ladder = await self.bot.storage.unrate_game(game_id, undo=undo)
        assert ladder is not None  # it had a status above
        name = get_engine(game.game_key).meta.name
        await interaction.followup.send(
            f"Game #{game_id} is {'back on' if undo else 'off'} the {name} ladder (season {ladder[2]}): its ratings"
            f" were recomputed {'with' if undo else 'without'} it.", ephemeral=True)

    @staticmethod
    def _describe(s) -> str:
        role = f"<@&{s.manager_role_id}>" if s.manager_role_id else "none (Manage Server only)"
        channels = ", ".join(f"<#{c}>" for c in s.allowed_channels) or "any channel"
        timer = f"{s.turn_minutes} min" if s.turn_minutes else "no timer"
        leave = "a bot takes the seat" if s.on_leave == "bot" else "the game ends"
        return (f"**heistcord settings**\nManager role: {role}\nGame channels: {channels}\nTurn timer: {timer}\n"
                f"When a player leaves: {leave}\nGames in threads: {'on' if s.threads else 'off'}\n"
                f"Bot for timed-out or departed players: {s.bot_level}\n"
                f"Maintenance: {'on' if s.maintenance else 'off'}")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's table ends; nothing more is posted there."""
        await self._channel_gone(channel.id)  # (its threads go with it: discord.py reports each as a thread delete)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread's table ends; nothing more is posted there."""
        await self._channel_gone(payload.thread_id)

    async def _channel_gone(self, channel_id: int) -> None:
        if self.bot.refusals.channel_gone(channel_id):
            await self.bot.ui.channel_refused(channel_id, UNKNOWN_CHANNEL)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """A channel's permissions may have changed: try posting in it (and its threads) again."""
        # Threads take their permissions from their channel.
        threads = [t.id for t in getattr(after, "threads", [])]
        self.bot.refusals.permissions_changed([after.id, *threads])

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A moderator unlocked a game's thread: post in it again, starting with a fresh board."""
        if before.locked and not after.locked:
            self.bot.refusals.permissions_changed([after.id])
            await self.bot.ui.fresh_board(after.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed: try posting in muted channels again."""
        self.bot.refusals.permissions_changed()

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A seated player left the server (needs the opt-in members intent)."""
        for game in await self.bot.storage.active_games(payload.guild_id):
            if seat_of(game, payload.user.id) is None:
                continue
            try:
                if game.status == "lobby":
                    game, _ = await self.bot.tables.leave(game.id, payload.user.id)
                    await self.bot.ui.refresh_lobby(game)
                    continue
                outcome = await self.bot.tables.remove_player(game.id, payload.user.id)
            except TableError:
                continue
            if outcome.game.status == "ended":
                await self.bot.ui.announce_end(outcome.game)
            else:
                await self.bot.ui.publish(outcome)


async def setup(bot: HeistBot) -> None:
    """Load the admin cog (discord.py's extension entry point)."""
    await bot.add_cog(AdminCog(bot))
