"""The interface of a store, as the platform uses it: both :class:`bot.storage.Storage` (SQLite) and
:class:`bot.storage_pg.PgStorage` (PostgreSQL) implement it in full, which mypy checks (``_conforms`` below).

It lists what the rest of the bot may call; how a store writes (SQLite's writer thread, PostgreSQL's pool) stays
its own. Left out on purpose: ``transaction()``, which yields the backend's own connection (aiosqlite's or
asyncpg's: code using it is backend-specific, like ``bot/dbcopy.py``), and the SQLite store's test and benchmark
hooks (``db``, ``batches``).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from bot.ratings import Rating, Standing
from bot.storage import GameRow, GameSummary, GuildSettings, TutorialRow

if TYPE_CHECKING:
    from bot.storage import Storage as SqliteStorage
    from bot.storage_pg import PgStorage


class StorageProtocol(Protocol):
    """Games, action logs, results and ratings, settings and tutorials: one interface, two databases."""
    shared: bool  # True when other processes write to the same games (a cached row is never trusted)
    path: str  # where the data is, for messages (a PostgreSQL URL without its password)
    write_budget: float  # seconds a write may wait for the database

    # --- life cycle ----------------------------------------------------------------
    def claim(self) -> None:
        """Take the database for this process, or raise DatabaseInUseError (PostgreSQL: shared, nothing to take)."""

    def release(self) -> None:
        """Give back what ``claim`` took."""

    async def open(self) -> StorageProtocol:
        """Connect and bring the schema up to date; returns the store."""

    async def close(self) -> None:
        """Finish the writes already asked for, then disconnect (and give back what ``claim`` took)."""

    async def migrate(self) -> int:
        """Bring the schema up to date; returns its version."""

    async def schema_version(self) -> int:
        """The schema version the database is at."""

    # --- games and their log ---------------------------------------------------------
    async def create_game(self, guild_id: int, channel_id: int, game_key: str, host_id: int,
                          options: dict[str, Any], seed: int, seats: list[dict[str, Any]]) -> int:
        """A new lobby row; ChannelBusyError if the channel has an open game. Returns its id."""

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game's row, or None."""

    async def game_rev(self, game_id: int) -> int | None:
        """The row's revision (None: no such game): a cheap check of a cached copy."""

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running, or None."""

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """The games in a lobby or running (of one server, if given)."""

    async def count_active(self) -> int:
        """How many games are in a lobby or running."""

    async def save_game(self, game_id: int, expected_rev: int, fields: dict[str, Any], *,
                        actions: Iterable[tuple[int, int | None, dict[str, Any]]] = (),
                        expected_version: int | None = None,
                        results: list[tuple[Any, ...]] | None = None) -> int:
        """Store ``fields``, append ``actions`` and record ``results`` in one transaction, if the row is still at
        ``expected_rev`` (VersionConflictError if not). Returns the new revision."""

    async def commit_actions(self, game_id: int, expected_version: int, state: dict[str, Any],
                             actions: Iterable[tuple[int, int | None, dict[str, Any]]], *,
                             expected_rev: int | None = None, **fields: Any) -> int:
        """Append actions and store the new state, if the game is still at ``expected_version``."""

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """The game's whole action log, in order."""

    async def actions_until(self, game_id: int, version: int) -> list[dict[str, Any]]:
        """The first ``version`` entries of the game's action log."""

    async def seat_moved_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether ``seat`` acted after ``version``."""

    async def due_deadlines(self, now: float) -> list[GameRow]:
        """Running games whose reminder or deadline is due at ``now``."""

    async def next_timer(self) -> float | None:
        """When the next reminder or deadline falls due."""

    async def game_summaries(self, guild_id: int) -> list[GameSummary]:
        """The guild's games in their lobby or running, oldest first, without their states."""

    async def compact_finished(self, before: float, limit: int = 500) -> int:
        """Drop the stored state of up to ``limit`` games over before ``before``; returns how many."""

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRow]:
        """A guild's last ``limit`` finished or ended games, newest first."""

    # --- results, stats and ratings -----------------------------------------------------
    @staticmethod
    def result_rows(game: GameRow, results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """Rows for the results table, for ``save_game``."""

    async def record_results(self, game: GameRow, results: list[dict[str, Any]]) -> None:
        """Record a finished game's results (once)."""

    async def user_stats(self, guild_id: int, user_id: int, game_key: str | None = None) -> list[dict[str, Any]]:
        """A player's games, wins and scores per game."""

    async def catch_up_ratings(self) -> int:
        """Rate the games waiting on their ladders; returns how many ladders were caught up."""

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Every ladder rebuilt from the results: (ladders, games rated)."""

    async def unrate_game(self, game_id: int, *, undo: bool = False) -> tuple[int, str, int] | None:
        """Take a finished game off its ladder (or put it back)."""

    async def start_season(self, guild_id: int, now: float | None = None) -> int:
        """Close the server's season; returns the new one."""

    async def current_season(self, guild_id: int) -> int:
        """The server's season now."""

    async def rating_seasons(self, guild_id: int) -> list[tuple[int, float | None]]:
        """The server's seasons, oldest first."""

    async def game_rating(self, game_id: int) -> tuple[str | None, int, list[tuple[Any, ...]]]:
        """A finished game's status on its ladder, its season and its rated seats' changes."""

    async def ladder(self, guild_id: int, game_key: str, season: int) -> list[tuple[str, Standing]]:
        """A ladder's standings, best first."""

    async def rating_history(self, guild_id: int, game_key: str, season: int,
                             player: str) -> list[tuple[int, Rating, Rating]]:
        """A player's rated games on a ladder: (game id, before, after)."""

    async def rating_versus_bots(self, guild_id: int, game_key: str, season: int,
                                 player: str) -> list[tuple[str, int, int, int]]:
        """A player's results against each level's bot on a ladder."""

    async def all_ratings(self) -> list[tuple[Any, ...]]:
        """Every standing, change and ladder place, in a fixed order."""

    # --- settings, DM refusals, tutorials ----------------------------------------------
    async def settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults if it has none)."""

    async def save_settings(self, s: GuildSettings) -> None:
        """Store a server's settings."""

    async def dm_refusals(self) -> dict[int, float]:
        """``{user_id: until}`` of players not to DM before ``until``."""

    async def set_dm_refusal(self, user_id: int, until: float | None) -> None:
        """Remember (or forget, with None) that a user's DMs are closed."""

    async def start_tutorial(self, user_id: int, game_key: str, run: dict[str, Any]) -> TutorialRow:
        """A new tutorial run."""

    async def tutorial_run(self, run_id: int) -> TutorialRow | None:
        """A tutorial run by id."""

    async def open_tutorial(self, user_id: int, game_key: str) -> TutorialRow | None:
        """The learner's unfinished run of a game's tutorial, or None."""

    async def save_tutorial(self, run_id: int, expected_rev: int, run: dict[str, Any], finished: bool) -> bool:
        """Store a tutorial run if it is still at ``expected_rev``; whether it was stored."""

    async def delete_tutorial(self, run_id: int) -> None:
        """Drop a tutorial run."""

    async def knows_game(self, user_id: int, game_key: str) -> bool:
        """Whether a player has finished a game of ``game_key`` (on any server) or started its tutorial."""


if TYPE_CHECKING:
    def _conforms(sqlite: SqliteStorage, pg: PgStorage) -> tuple[StorageProtocol, StorageProtocol]:
        return sqlite, pg  # mypy: both stores implement the whole interface
