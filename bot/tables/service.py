"""``TableService``: the one object the bot holds, composed of the parts that do the work.

It is a directory, not a hub: every name below is one collaborator's own method, bound here so the cogs (and
the tests) keep calling ``bot.tables.act(...)`` while the code lives with its job. To follow a call, read the
line that binds it and go to that collaborator.
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable

from bot.storage import GameRow
from bot.storage_protocol import StorageProtocol
from bot.tables.cache import Tables, engine_of
from bot.tables.history import History
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.timers import Timers


class TableService:
    """Lobbies, seats, moves, turns and deadlines of every table, over the storage (knows nothing of Discord)."""
    def __init__(self, storage: StorageProtocol, *, seed_source: Callable[[], int] | None = None,
                 clock: Callable[[], float] = time.time, default_turn_minutes: int = 0,
                 cache_size: int = 2048) -> None:
        self.storage = storage
        self.clock = clock
        self.tables = tables = Tables(storage, clock=clock, cache_size=cache_size)
        self.play = play = Play(tables, default_turn_minutes=default_turn_minutes)
        self.lobby = lobby = Lobby(tables, play, seed_source=seed_source or (lambda: secrets.randbits(62)))
        self.timers = timers = Timers(tables, play)
        self.history = history = History(storage)

        # The games in memory (bot/tables/cache.py).
        self.engine = engine_of
        self.lock = tables.lock
        self.get = tables.get
        self.in_channel = tables.in_channel
        self.require_in_channel = tables.require_in_channel
        self.view = tables.view
        self.guild_settings = tables.guild_settings
        # The lobby and the table's life (bot/tables/lobby.py).
        self.open = lobby.open
        self.set_option = lobby.set_option
        self.join = lobby.join
        self.add_bot = lobby.add_bot
        self.leave = lobby.leave
        self.start = lobby.start
        self.end = lobby.end
        self.move_to_thread = lobby.move_to_thread
        self.set_message = lobby.set_message
        self.set_seat_info = lobby.set_seat_info
        # Play: moves, bot seats, the next turn's timers (bot/tables/play.py).
        self.act = play.act
        self.require_seat = play.require_seat
        self.waiting_seats = play.waiting_seats
        self.turn_minutes = play.turn_minutes
        self.rejoin = play.rejoin
        self.remove_player = play.remove_player
        # Timers and recovery (bot/tables/timers.py).
        self.fire_timers = timers.fire_timers
        self.compact = timers.compact
        self.recover = timers.recover
        # History: replays and the public log (bot/tables/history.py).
        self.replay = history.replay
        self.replay_turns = history.replay_turns
        self.public_log = history.public_log

    @property
    def on_late_save(self) -> Callable[[GameRow, int], Awaitable[None]] | None:
        """Called with a game whose save was in doubt and turned out stored (see ``Tables.on_late_save``)."""
        return self.tables.on_late_save

    @on_late_save.setter
    def on_late_save(self, callback: Callable[[GameRow, int], Awaitable[None]] | None) -> None:
        self.tables.on_late_save = callback

    @property
    def retention_days(self) -> int:
        """Days a finished game keeps its stored state (see ``Timers.compact``)."""
        return self.timers.retention_days

    @retention_days.setter
    def retention_days(self, days: int) -> None:
        self.timers.retention_days = days
