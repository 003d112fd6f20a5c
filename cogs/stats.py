"""``/stats`` and ``/leaderboard``: each game's ladder on this server (skill ratings, see :mod:`bot.ratings`
and ``docs/ratings.md``), a player's rating with its history and results against the bots, and the
games played, wins and scores of every finished game."""
from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.games import get_engine
from bot.ratings import Standing
from bot.search import LEVELS
from bot.tables import TableError
from cogs.embeds import ladder_name
from cogs.game import game_autocomplete, require_game_key
from cogs.limits import clip, fit
from cogs.ui import ALT_TEXT_LIMIT
from rendering import render_async

if TYPE_CHECKING:
    from bot.app import HeistBot

LADDER_ROWS = 15  # entries a leaderboard lists (and its chart draws); the asker is added below when further down
CHART_NAME = 18  # characters of a name in a chart


def with_bots(game_key: str, standings: list[tuple[str, Standing]]) -> list[tuple[str, Standing]]:
    """A ladder's standings with every level's bot on it: a bot that hasn't played here yet stands at its
    seeded rating. Best conservative rating first."""
    present = {player for player, _ in standings}
    extra = [(player, Standing(ratings.player_name(player, ""), ratings.initial_rating(game_key, player)))
             for player in (ratings.bot_player(level) for level in LEVELS) if player not in present]
    return sorted(standings + extra, key=lambda entry: (-entry[1].rating.ordinal, entry[0]))


def is_provisional(player: str, standing: Standing) -> bool:
    """A player under 5 rated games (never a bot: its ladder was seeded)."""
    return ratings.bot_level(player) is None and standing.provisional


def bots_around(player_rating: float, ladder: list[tuple[str, Standing]]) -> str:
    """Where a rating stands among the bots, the nearest first: "above Bot (easy) 9.4 · below Bot (normal) 18.1,
    Bot (hard) 21.0" (``ladder`` is best first)."""
    bots = [(ratings.player_name(p, s.name), s.rating.ordinal) for p, s in ladder if ratings.bot_level(p)]
    above = [f"{name} {value:.1f}" for name, value in bots if value < player_rating]
    below = [f"{name} {value:.1f}" for name, value in reversed(bots) if value >= player_rating]
    parts = ([f"above {', '.join(above)}"] if above else []) + ([f"below {', '.join(below)}"] if below else [])
    return " · ".join(parts)


class StatsCog(commands.Cog):
    """The /stats and /leaderboard commands."""
    def __init__(self, bot: HeistBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="A player's ratings, their history and results against the bots")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.describe(user="Whose stats (yours by default)", game="One game (its chart); all by default")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: str | None = None) -> None:
        """/stats: a player's rating per game this season, the chart of one, results against the bots, and
        games played, wins and scores of every season."""
        if game is not None:
            require_game_key(game)
        who = user or interaction.user
        storage, guild = self.bot.storage, interaction.guild_id
        assert guild is not None  # guild_only
        player = ratings.user_player(who.id)
        season = await storage.current_season(guild)
        played = {row["game_key"]: row for row in await storage.user_stats(guild, who.id, game)}
        ladders = {}
        for key in [game] if game else sorted(played):
            ladder = with_bots(key, await storage.ladder(guild, key, season))
            if any(p == player for p, _ in ladder):
                ladders[key] = ladder
        if not played and not ladders:
            await interaction.response.send_message(**fit(f"{who.display_name} has no finished games here yet.",
                                                          ephemeral=True))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the chart is drawn meanwhile
        lines = [f"**{who.display_name}** on this server · season {season}"]
        for key, ladder in ladders.items():
            versus = await storage.rating_versus_bots(guild, key, season, player)
            lines += self._rating_lines(key, ladder, player, versus)
        if game and game not in ladders:
            lines.append(f"{get_engine(game).meta.name}: no rated game this season.")
        if played:
            lines.append("**Every season**")
        for key, row in played.items():
            rate = 100 * (row["wins"] or 0) / row["played"]
            lines.append(f"{get_engine(key).meta.name}: {row['played']} played, {row['wins'] or 0} won ({rate:.0f}%),"
                         f" average score {row['avg_score']:.1f}, best {row['best']:g}")
        chart_key = game if game in ladders else max(ladders, key=lambda k: self._standing(ladders[k], player).games,
                                                     default=None)
        file = None
        if chart_key is not None:
            file = await self._history_chart(who.display_name, guild, chart_key, season, player, ladders[chart_key])
            if not game and len(ladders) > 1:
                chart_name = get_engine(chart_key).meta.name
                lines.append(f"Chart: {chart_name} (most rated games); `/stats game:` for another.")
        await interaction.followup.send(**fit("\n".join(lines), ephemeral=True, **({"file": file} if file else {})))

    @staticmethod
    def _standing(ladder: list[tuple[str, Standing]], player: str) -> Standing:
        return next(s for p, s in ladder if p == player)

    def _rating_lines(self, key: str, ladder: list[tuple[str, Standing]], player: str,
                      versus: list[tuple[str, int, int, int]]) -> list[str]:
        """A game's rating lines in /stats: the rating and place, where it stands among the bots, results
        against each bot."""
        standing = self._standing(ladder, player)
        value = standing.rating.ordinal
        place = 1 + [p for p, _ in ladder].index(player)
        note = (f" · provisional ({standing.games} of {ratings.PROVISIONAL_GAMES} games)"
                if standing.provisional else "")
        lines = [f"**{get_engine(key).meta.name}**: rating **{value:.1f}** (#{place} of {len(ladder)}) ·"
                 f" {standing.games} rated, {standing.wins} won{note}", f"↳ {bots_around(value, ladder)}"]
        if versus:
            lines.append("↳ vs bots (ahead-tied-behind): " + " · ".join(
                f"{ratings.bot_level(bot)} {ahead}-{tied}-{behind}" for bot, ahead, tied, behind in versus))
        return lines

    async def _history_chart(self, name: str, guild: int, key: str, season: int, player: str,
                             ladder: list[tuple[str, Standing]]) -> discord.File | None:
        """The chart of a player's rating game by game, with the bots' ratings now (None if it can't be drawn)."""
        games = await self.bot.storage.rating_history(guild, key, season, player)
        points = [games[0][1].ordinal] + [after.ordinal for _, _, after in games] if games else [0.0]
        bots = [{"name": ratings.bot_level(p), "rating": s.rating.ordinal} for p, s in ladder if ratings.bot_level(p)]
        title = f"{clip(name, CHART_NAME)} · {get_engine(key).meta.name}"
        png = await render_async("charts", "history", {"title": title + (f" · season {season}" if season > 1 else ""),
                                                        "points": points, "bots": bots,
                                                        "provisional": ratings.PROVISIONAL_GAMES}, urgent=True)
        if png is None:
            return None
        description = clip(f"Line chart of {name}'s {get_engine(key).meta.name} rating over {len(games)} rated"
                           f" game{'s' if len(games) != 1 else ''}:"
                           f" from {points[0]:.1f} to {points[-1]:.1f}. The bots now: " + ", ".join(
                               f"{b['name']} {b['rating']:.1f}" for b in bots), ALT_TEXT_LIMIT)
        return discord.File(io.BytesIO(png), filename="rating.png", description=description)

    @app_commands.command(name="leaderboard", description="This server's ladder of a game, by skill rating")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.describe(game="Which game", season="An earlier season's ladder (this season's by default)")
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          season: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        """/leaderboard: a game's ladder on this server, by conservative rating, the bots on it too."""
        require_game_key(game)
        storage, guild = self.bot.storage, interaction.guild_id
        assert guild is not None  # guild_only
        current = await storage.current_season(guild)
        season = season or current
        if season > current:
            raise TableError(f"There is no season {season} here yet: this is season {current}.")
        ladder = with_bots(game, await storage.ladder(guild, game, season))
        name = get_engine(game).meta.name
        await interaction.response.defer(thinking=True)  # answered at once, whatever the machine is drawing
        asker = ratings.user_player(interaction.user.id)
        shown = [(i, entry) for i, entry in enumerate(ladder, 1) if i <= LADDER_ROWS or entry[0] == asker]
        lines = [f"**{name} ladder** · season {season}" + (" (over)" if season < current else "")]
        if all(ratings.bot_level(p) for p, _ in ladder):
            lines.append("Nobody has a rated game here yet: finish a game to join the bots on the ladder.")
        for place, (player, standing) in shown:
            note = " · provisional" if is_provisional(player, standing) else ""
            games = "" if ratings.bot_level(player) else f" · {standing.games} game{'s' if standing.games != 1 else ''}"
            shown_name = ladder_name(player, standing.name)
            lines.append(f"{place}. {shown_name} **{standing.rating.ordinal:.1f}**{games}{note}")
        lines.append("Rating: the skill estimate minus 3 times its uncertainty, so it grows as you play.")
        rows = [self._chart_row(player, standing, player == asker) for _, (player, standing) in shown]
        png = await render_async("charts", "ladder", {"title": f"{name} · season {season}", "rows": rows})
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if png is not None:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="leaderboard.png", description=clip(
                f"Bar chart of the {name} ratings on this server, season {season}: " + "; ".join(
                    f"{row['name']} {row['rating']:.1f}" for row in rows), ALT_TEXT_LIMIT))
        await interaction.followup.send(**fit("\n".join(lines), **kwargs))

    @staticmethod
    def _chart_row(player: str, standing: Standing, you: bool) -> dict[str, Any]:
        return {"name": clip(ratings.player_name(player, standing.name), CHART_NAME), "rating": standing.rating.ordinal,
                "bot": ratings.bot_level(player) is not None, "provisional": is_provisional(player, standing),
                "you": you}


async def setup(bot: HeistBot) -> None:
    """Load the stats cog (discord.py's extension entry point)."""
    await bot.add_cog(StatsCog(bot))
