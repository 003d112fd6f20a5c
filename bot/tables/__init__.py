"""The table service: lobbies, seats, turns, bot seats, deadlines and replays.

It knows the engines and the storage, never Discord: the cogs turn Discord interactions into calls here and turn
the returned :class:`Outcome` into messages. Every rule a player meets here raises :class:`TableError` with a
sentence the player can read.

Split by job, around one shared cache of game rows and their locks:

- ``cache.py``: ``Tables``, the games in memory (cache, one lock per game, recent states and views) and the one
  write path every change takes (a copy of the row, stored in one compare-and-set transaction, then cached).
- ``lobby.py``: ``Lobby``, opening a table, options, seats and bots, leaving, starting, ending, and where it is shown.
- ``play.py``: ``Play``, a player's move or panel click, the bot seats' moves after it (``advance``: one write),
  the next turn's timers, seats changing hands in a running game.
- ``timers.py``: ``Timers``, reminders and deadlines coming due, compaction of finished games, start-up recovery.
- ``history.py``: ``History``, replays and the public log, rebuilt from the seed and the action log.
- ``common.py``: the error, the outcome, the platform's table options, seat helpers.
- ``service.py``: ``TableService``, the object the bot holds: the collaborators composed, their methods bound.
"""
from bot.tables.cache import HISTORY_SIZE, ROW_FIELDS, SETTLE_TRIES, Tables, engine_of
from bot.tables.common import (
    CHANGED_ELSEWHERE,
    LEAVE_OPTION,
    PLATFORM_OPTIONS,
    REVISION,
    SAVE_FAILED,
    STALE_PANEL,
    TURN_OPTION,
    Outcome,
    TableError,
    bot_controlled,
    bot_rng,
    engine_options,
    game_revision,
    parse_on_leave,
    parse_platform_option,
    parse_turn_minutes,
    replays_here,
    require_replayable,
    seat_of,
)
from bot.tables.history import History
from bot.tables.lobby import Lobby
from bot.tables.play import BOT_STEP_LIMIT, MISSED_TURNS_LIMIT, Play
from bot.tables.service import TableService
from bot.tables.timers import COMPACT_BATCH, RETENTION_DAYS, RETENTION_EVERY, Timers

__all__ = [
    "BOT_STEP_LIMIT", "CHANGED_ELSEWHERE", "COMPACT_BATCH", "HISTORY_SIZE", "LEAVE_OPTION", "MISSED_TURNS_LIMIT",
    "PLATFORM_OPTIONS", "RETENTION_DAYS", "RETENTION_EVERY", "REVISION", "ROW_FIELDS", "SAVE_FAILED",
    "SETTLE_TRIES", "STALE_PANEL", "TURN_OPTION", "History", "Lobby", "Outcome", "Play", "TableError",
    "TableService", "Tables", "Timers", "bot_controlled", "bot_rng", "engine_of", "engine_options",
    "game_revision", "parse_on_leave", "parse_platform_option", "parse_turn_minutes", "replays_here",
    "require_replayable", "seat_of",
]
