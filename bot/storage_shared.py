"""What both stores (SQLite ``bot/storage.py``, PostgreSQL ``bot/storage_pg.py``) share and what doesn't depend on
the database: the rows they return, their errors, the time budgets of a database wait (and the interaction being
answered, which shortens them), and the rows of a finished game's results.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

WRITE_BUDGET = 2.0  # seconds a write may wait for the database before giving up
READ_BUDGET = 2.0  # seconds a read may wait for a database server (PostgreSQL) before giving up
ANSWER_WITHIN = 2.0  # seconds an interaction's database waits may take before its first answer (Discord allows 3)


class VersionConflictError(Exception):
    """The game changed since the caller read it (another click got there first)."""


class ChannelBusyError(Exception):
    """The channel already has a game in its lobby or running."""


class StorageError(Exception):
    """A write could not be stored (database locked by another program, disk full,
    I/O error). It was rolled back: nothing changed."""


class CommitUnknownError(StorageError):
    """The database stopped answering after a write's COMMIT was sent: it may or may not have been stored.
    ``await settle()`` finds out (returns the new revision if it was stored, raises StorageError if it was not,
    or CommitUnknownError again while the database still does not answer)."""

    def __init__(self, settle: Callable[[], Awaitable[int]]) -> None:
        super().__init__("the database stopped answering while saving")
        self.settle = settle


class DatabaseInUseError(Exception):
    """Another process is already using this SQLite database file."""


@dataclass
class Answering:
    """An interaction waiting for its first answer: Discord shows "This interaction failed" unless the bot answers
    (or defers) within 3 seconds, so every database wait made for it before then ends by ``deadline`` (loop time)
    with StorageError, leaving time to say so. Once ``answered()`` (the reply or a deferral went out) the waits
    get their own budgets again. ``saved`` records that a write made for it was committed, so that a failure
    after it is never reported as "nothing changed"."""
    deadline: float
    answered: Callable[[], bool]
    saved: bool = False

    def left(self) -> float:
        """Seconds the database may still take before the first answer (infinite once it was answered)."""
        if self.answered():
            return float("inf")
        return self.deadline - asyncio.get_running_loop().time()


_ANSWERING: ContextVar[Answering | None] = ContextVar("heistcord_answering", default=None)


def answering(answered: Callable[[], bool], within: float = ANSWER_WITHIN) -> Answering:
    """Mark the current task as handling an interaction that must be answered: its database waits end within
    ``within`` seconds until ``answered()`` (see :class:`Answering`). Tasks it starts inherit it."""
    current = Answering(asyncio.get_running_loop().time() + within, answered)
    _ANSWERING.set(current)
    return current


def current_answering() -> Answering | None:
    """The interaction the current task is answering, if any."""
    return _ANSWERING.get()


def wait_budget(own: float) -> float:
    """How long a database wait may take: its own budget, or less when an interaction must be answered sooner.
    StorageError at once when that time is already spent."""
    current = _ANSWERING.get()
    if current is None:
        return own
    left = current.left()
    if left <= 0:
        raise StorageError("the database did not answer in time")
    return min(own, left)


def note_saved() -> None:
    """A write was committed for the interaction being answered (if any)."""
    current = _ANSWERING.get()
    if current is not None:
        current.saved = True


@dataclass
class GameRow:
    """One stored game as the table service holds it: lobby, seats, options, engine state and timers."""
    id: int
    guild_id: int
    channel_id: int
    game_key: str
    status: str
    host_id: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    state: dict[str, Any] | None
    version: int
    rev: int = 0
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    deadline_at: float | None = None
    reminder_at: float | None = None
    ended_reason: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    parent_channel_id: int | None = None  # the channel the lobby was in, when the game moved into a thread

    @property
    def home_channel_id(self) -> int:
        """Where the table was opened: the parent channel of its thread, or its own channel."""
        return self.parent_channel_id or self.channel_id

    @property
    def started(self) -> bool:
        """The game was set up (it has, or had, a state): a finished game's state may
        have been compacted away by the retention policy, its log replays it."""
        return self.state is not None or self.status == "finished" or self.version > 0

    @classmethod
    def from_row(cls, row: Any) -> GameRow:
        """The game of one database row, its JSON columns decoded."""
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["seats"] = json.loads(data["seats"])
        data["state"] = json.loads(data["state"]) if data["state"] else None
        return cls(**data)


@dataclass
class GameSummary:
    """A game without its state (for lists): nothing to decode but its seats."""
    id: int
    guild_id: int
    channel_id: int
    game_key: str
    status: str
    seats: list[dict[str, Any]]
    version: int


@dataclass
class GuildSettings:
    """One server's settings: who manages games, where they may be played, timers and defaults."""
    guild_id: int
    manager_role_id: int | None = None
    allowed_channels: list[int] = field(default_factory=list)
    maintenance: bool = False
    turn_minutes: int | None = None
    on_leave: str = "bot"  # "bot": a bot player takes the seat; "end": the game ends
    threads: bool = True  # a started game moves into a thread of its own
    bot_level: str = "normal"  # the bot playing a timed-out or departed seat: easy, normal or hard


@dataclass
class TutorialRow:
    """One learner's run through a game's tutorial: ``run`` is ``TutorialRun.to_json()``; every save is a
    compare-and-set on ``rev``, so two clicks on one step never both count."""
    id: int
    user_id: int
    game_key: str
    run: dict[str, Any]
    rev: int = 0
    finished: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0

    @classmethod
    def from_row(cls, row: Any) -> TutorialRow:
        """The run of one database row, its JSON decoded."""
        data = dict(row)
        data["run"] = json.loads(data["run"])
        data["finished"] = bool(data["finished"])
        return cls(**data)


_RESULT_INSERT = ("INSERT INTO results (game_id, guild_id, game_key, seat, user_id, name, is_bot, score, rank,"
                  " won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def result_rows(game: GameRow, results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Rows for the results table (without the time stamp), for ``save_game``."""
    return [(game.id, game.guild_id, game.game_key, r["seat"], game.seats[r["seat"]].get("user_id"),
             game.seats[r["seat"]]["name"], int(bool(game.seats[r["seat"]].get("bot"))), float(r["score"]),
             int(r["rank"]), int(bool(r["won"]))) for r in results]
