"""A store's skill-rating queries (the ladders: ``bot/ratings.py``; their SQL, for both databases, in
``bot/rating_store.py``), written once over the two ways a store runs a procedure of ``bot.rating_store``: ``read``
(on its reading connection, within the read budget) and ``write`` (in a transaction of its own). Each store keeps
one :class:`Ratings` and hands the rating methods of ``StorageProtocol`` to it (composition: the stores inherit
nothing).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from bot import rating_store
from bot.ratings import Rating, Standing

T = TypeVar("T")
log = logging.getLogger("heistcord.storage")


class Reads(Protocol):
    """How a store runs a reading procedure."""

    async def __call__(self, procedure: rating_store.Procedure[T]) -> T:
        """The procedure's result."""


class Writes(Protocol):
    """How a store runs a writing procedure, made by ``make``, in a transaction of its own."""

    async def __call__(self, make: Callable[[], rating_store.Procedure[T]]) -> T:
        """The procedure's result, once committed."""


class Ratings:
    """The rating queries of one store."""

    def __init__(self, read: Reads, write: Writes) -> None:
        self._read, self._write = read, write

    async def catch_up_ratings(self) -> int:
        """Rate the games waiting on their ladders: stored before the ratings existed (the migration put them
        there, in the order they finished), or whose rating failed. Done as the storage opens; a ladder that
        fails is logged and tried again next time. Returns how many ladders were caught up."""
        ladders = await self._read(rating_store.pending_ladders())
        done = 0
        for ladder in ladders:
            try:
                await self._write(lambda ladder=ladder: rating_store.catch_up(*ladder))  # type: ignore[misc]
                done += 1
            except Exception:
                log.exception("rating the games waiting on ladder %s failed; tried again at the next start", ladder)
        if done:
            log.info("rated the games waiting on %d ladders", done)
        return done

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Every ladder rebuilt from the stored results (``heistcord ratings rebuild``): (ladders, games rated)."""
        return await self._write(rating_store.rebuild_all)

    async def unrate_game(self, game_id: int, *, undo: bool = False) -> tuple[int, str, int] | None:
        """Take a finished game off its ladder (``undo``: put it back), which is rebuilt: the ladder (server,
        game, season), or None if the game has no place on a ladder."""
        return await self._write(lambda: rating_store.unrate(game_id, undo))

    async def start_season(self, guild_id: int, now: float | None = None) -> int:
        """Close the server's season; games finished from now on go on new ladders. Returns the new season."""
        return await self._write(lambda: rating_store.start_season(guild_id, time.time() if now is None else now))

    async def current_season(self, guild_id: int) -> int:
        """The server's season now."""
        return await self._read(rating_store.current_season(guild_id))

    async def rating_seasons(self, guild_id: int) -> list[tuple[int, float | None]]:
        """The server's seasons, ``(season, started_at)``, oldest first."""
        return await self._read(rating_store.seasons(guild_id))

    async def game_rating(self, game_id: int) -> tuple[str | None, int, list[tuple[Any, ...]]]:
        """A finished game's status on its ladder, its season and its rated seats' changes (see bot.rating_store)."""
        return await self._read(rating_store.game_rating(game_id))

    async def ladder(self, guild_id: int, game_key: str, season: int) -> list[tuple[str, Standing]]:
        """A ladder's standings, best conservative rating first (the bots only once they played here)."""
        return await self._read(rating_store.standings(guild_id, game_key, season))

    async def rating_history(self, guild_id: int, game_key: str, season: int,
                             player: str) -> list[tuple[int, Rating, Rating]]:
        """A player's rated games on a ladder, oldest first: (game id, before, after)."""
        return await self._read(rating_store.history(guild_id, game_key, season, player))

    async def rating_versus_bots(self, guild_id: int, game_key: str, season: int,
                                 player: str) -> list[tuple[str, int, int, int]]:
        """A player's results against each level's bot on a ladder: (bot, ahead, tied, behind)."""
        return await self._read(rating_store.versus_bots(guild_id, game_key, season, player))

    async def all_ratings(self) -> list[tuple[Any, ...]]:
        """Every standing, change and ladder place, in a fixed order (to compare a rebuild with before)."""
        return await self._read(rating_store.all_ratings())
