"""``/stats`` and ``/leaderboard``: per-server results of finished games."""
from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import get_engine
from cogs.game import game_autocomplete, require_game_key
from cogs.limits import clip, fit
from cogs.ui import ALT_TEXT_LIMIT
from rendering.charts import leaderboard_chart
from rendering.common import to_png

if TYPE_CHECKING:
    from bot.app import HeistBot


class StatsCog(commands.Cog):
    """The /stats and /leaderboard commands."""
    def __init__(self, bot: "HeistBot") -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Games played, wins and average score on this server")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_autocomplete)
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: str | None = None) -> None:
        """/stats: a player's games, wins and scores on this server."""
        if game is not None:
            require_game_key(game)
        who = user or interaction.user
        rows = await self.bot.storage.user_stats(interaction.guild_id, who.id, game)
        if not rows:
            await interaction.response.send_message(**fit(f"{who.display_name} has no finished games here yet.",
                                                          ephemeral=True))
            return
        lines = [f"**{who.display_name}** on this server"]
        for row in rows:
            name = get_engine(row["game_key"]).meta.name
            rate = 100 * (row["wins"] or 0) / row["played"]
            lines.append(f"{name}: {row['played']} played, {row['wins'] or 0} won ({rate:.0f}%),"
                         f" average score {row['avg_score']:.1f}, best {row['best']:g}")
        await interaction.response.send_message(**fit("\n".join(lines), ephemeral=True))

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """/leaderboard: the server's best players of a game."""
        require_game_key(game)
        rows = await self.bot.storage.leaderboard(interaction.guild_id, game)
        name = get_engine(game).meta.name
        if not rows:
            await interaction.response.send_message(f"Nobody has finished a game of {name} here yet.")
            return
        lines = [f"**{name} leaderboard**"]
        bars = []
        for i, row in enumerate(rows, 1):
            lines.append(f"{i}. <@{row['user_id']}> — {row['wins'] or 0} wins in {row['played']} games,"
                         f" average {row['avg_score']:.1f}")
            bars.append((row["name"] or f"Player {i}", row["wins"] or 0, row["played"]))
        await interaction.response.defer(thinking=True)  # answered at once, whatever the machine is drawing
        png = await asyncio.to_thread(lambda: to_png(leaderboard_chart(f"{name}: wins", bars)))
        description = clip(f"Bar chart of wins at {name} on this server: " + "; ".join(
            f"{label} {wins} wins in {played} games" for label, wins, played in bars), ALT_TEXT_LIMIT)
        await interaction.followup.send(**fit("\n".join(lines), file=discord.File(
            io.BytesIO(png), filename="leaderboard.png", description=description),
            allowed_mentions=discord.AllowedMentions.none()))


async def setup(bot: "HeistBot") -> None:
    """Load the stats cog (discord.py's extension entry point)."""
    await bot.add_cog(StatsCog(bot))
