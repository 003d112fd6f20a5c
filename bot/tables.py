"""The table service: lobbies, seats, turns, bot seats and deadlines.

It knows the engines and the storage, never Discord: the cogs turn Discord
interactions into calls here and turn the returned :class:`Outcome` into
messages. Every rule a player meets here raises :class:`TableError` with a
sentence the player can read.

Every change to a game is made on a copy of the cached row and stored in one
transaction (a compare-and-set on the row's revision); the cached row takes the
change only once it is committed. A failed write leaves cache and database as
they were and tells the player to try again; a row changed by someone else is
reloaded.
"""
from __future__ import annotations

import asyncio
import contextvars
import copy
import logging
import pickle
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from bot.engine import Engine, RuleError
from bot.games import get_engine, registry
from bot.loops import Backoff
from bot.search import DEFAULT_LEVEL, level_action, parse_level
from bot.search import pool as search_pool
from bot.storage import (
    ChannelBusyError,
    CommitUnknownError,
    GameRow,
    GuildSettings,
    Storage,
    StorageError,
    VersionConflictError,
)
from bot.turns import replay_turns, turn_passed

log = logging.getLogger("heistcord.tables")

MISSED_TURNS_LIMIT = 3  # missed deadlines in a row before a bot takes the seat
BOT_STEP_LIMIT = 5000  # bot moves in one go: a guard against an engine bug looping forever
HISTORY_SIZE = 512  # recent (game, version) states kept in all, to resolve clicks on slightly old panels
RETENTION_DAYS = 30  # a finished game's state is compacted away after this (its log replays it)
RETENTION_EVERY = 3600.0  # seconds between two compaction passes of the timer loop
COMPACT_BATCH = 500  # games compacted per transaction
SETTLE_TRIES = 60  # a write in doubt is looked up this many times (backing off to 15 s: about 15 minutes)

SAVE_FAILED = "I couldn't save that (the database is busy or failing), so nothing changed. Please try again in a moment."
CHANGED_ELSEWHERE = "The game changed at the same moment, so that was not applied. Please look and try again."
STALE_PANEL = "That panel is out of date: the game has moved on. Here is a fresh one."
# The columns of a game row that the table service changes.
ROW_FIELDS = ("status", "host_id", "options", "seats", "state", "lobby_message_id", "board_message_id",
              "deadline_at", "reminder_at", "ended_reason", "channel_id", "parent_channel_id")


class TableError(Exception):
    """A wrong move at the table (not a game rule): the text is shown to the user."""


@dataclass
class Outcome:
    """What a change to a table did: its events, the moves made, whose private views changed, the result."""
    game: GameRow
    events: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    changed_private: set[int] = field(default_factory=set)
    finished: bool = False
    results: list[dict[str, Any]] | None = None
    missed: list[int] = field(default_factory=list)  # seats whose deadline passed
    benched: list[int] = field(default_factory=list)  # seats just handed to a bot for missing turns
    turn_passed: bool = False  # another player is up (see bot.turns): the board is posted anew, not edited
    label: str = ""  # the player's own move, in words (for the "✅" reply)

    @property
    def public_events(self) -> list[dict[str, Any]]:
        """The events everyone may see (those not addressed to one seat)."""
        return [e for e in self.events if "to" not in e]


def seat_of(game: GameRow, user_id: int) -> int | None:
    """The seat of ``user_id`` at this table, or None."""
    for i, seat in enumerate(game.seats):
        if seat.get("user_id") == user_id:
            return i
    return None


TURN_OPTION = "turn_minutes"  # table options of the platform, not of any game
LEAVE_OPTION = "on_leave"  # "bot": a bot takes a leaver's seat; "end": the game ends
PLATFORM_OPTIONS = (TURN_OPTION, LEAVE_OPTION)


def engine_options(game: GameRow) -> dict[str, Any]:
    """The game's own options (the platform keeps its own under a leading ``_``)."""
    return {k: v for k, v in game.options.items() if not k.startswith("_")}


REVISION = "_revision"  # the platform option that keeps the rules revision a game was opened under


def game_revision(game: GameRow) -> int:
    """The rules revision (``GameMeta.revision``) the game was opened under; 1 for a game stored before they
    were kept."""
    return int(game.options.get(REVISION, 1))


def replays_here(game: GameRow) -> bool:
    """Whether this code can rebuild the game from its seed and log: it was opened under the engine's revision."""
    return game.game_key in registry() and game_revision(game) == get_engine(game.game_key).meta.revision


def require_replayable(game: GameRow) -> None:
    """TableError, in a sentence, for a game this code can't rebuild move by move (an earlier revision)."""
    if not replays_here(game):
        raise TableError(f"Game #{game.id} was played under an earlier version of the game's rules (the bot was"
                         " updated since), so I can't rebuild it move by move. Its results are kept.")


def parse_on_leave(value: Any) -> str:
    """The table's choice when a player leaves: ``bot`` (a bot takes the seat) or ``end``."""
    text = str(value).strip().lower()
    if text not in ("bot", "end"):
        raise TableError("When a player leaves, either a bot takes the seat (`bot`) or the game ends (`end`).")
    return text


def parse_platform_option(key: str, value: Any) -> Any:
    """A platform option's value (turn timer or leaving rule), checked."""
    return parse_turn_minutes(value) if key == TURN_OPTION else parse_on_leave(value)


def parse_turn_minutes(value: Any) -> int:
    """A turn timer in minutes, 0 (none) to a week."""
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        raise TableError("The turn timer is a number of minutes (0 for none).") from None
    if not 0 <= minutes <= 10080:
        raise TableError("The turn timer must be between 0 and 10080 minutes (a week).")
    return minutes


def bot_controlled(seat: dict[str, Any]) -> bool:
    """Whether a bot plays this seat (a bot seat, or a player benched as away)."""
    return bool(seat.get("bot") or seat.get("away"))


def _copy(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def bot_rng(game: GameRow, version: int) -> random.Random:
    """The RNG a bot uses for its move at ``version`` (the same on a replay)."""
    return random.Random(game.seed * 1_000_003 + version)


class TableService:
    """Lobbies, seats, moves, turns and deadlines of every table, over the storage (knows nothing of Discord)."""
    def __init__(self, storage: Storage, *, seed_source: Callable[[], int] | None = None,
                 clock: Callable[[], float] = time.time, default_turn_minutes: int = 0,
                 cache_size: int = 2048) -> None:
        self.storage = storage
        self.seed_source = seed_source or (lambda: secrets.randbits(62))
        self.clock = clock
        self.default_turn_minutes = default_turn_minutes
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[int, GameRow] = OrderedDict()
        self._cache_size = cache_size
        # (game, version) -> state, the most recent HISTORY_SIZE; older ones are replayed from the log.
        self._history: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        # game id -> (its cached state object, the views computed of it: seat -> view, None -> the public one):
        # the views "before" a move are the previous move's "after", and its DMs and board use them.
        self._views: dict[int, tuple[dict[str, Any], dict[int | None, Any]]] = {}
        self._channels: dict[int, int] = {}  # channel id -> the game last found playing there (see in_channel)
        self.retention_days = RETENTION_DAYS
        self._next_compaction = float("-inf")
        # Called with a game whose change was found stored after its save's outcome was in doubt, and its version
        # before that change (the bot posts its board then: the player was told it could not tell yet).
        self.on_late_save: Callable[[GameRow, int], Awaitable[None]] | None = None
        self._settling: set[asyncio.Task] = set()

    # --- loading ----------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that lets one change at a time touch the game ``game_id``."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _remember(self, game: GameRow) -> GameRow:
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            old_id, _ = self._cache.popitem(last=False)
            self._views.pop(old_id, None)
            lock = self._locks.get(old_id)
            if lock is not None and not lock.locked():
                del self._locks[old_id]
        return game

    async def get(self, game_id: int) -> GameRow:
        """The game ``game_id`` (cached, or loaded from the database); TableError if there is none."""
        game = self._cache.get(game_id)
        if game is not None and self.storage.shared:
            game = await self._check_shared(game)
        if game is None:
            game = await self.storage.get_game(game_id)
            if game is None:
                raise TableError(f"There is no game #{game_id}.")
            self._remember(game)
        return game

    async def in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running, or None."""
        if self.storage.shared:  # another process may have ended the table or opened one here
            fresh = await self.storage.active_game_in(channel_id)
            return self._take_fresh(fresh) if fresh else None
        # Every /game command asks this: the channel's game is looked up by its id, not by walking the cache (up to
        # 2,048 games: 0.2-0.5 ms each time under load). The index is a hint, checked against the game's row.
        known = self._cache.get(self._channels.get(channel_id, 0))
        if known is not None and known.channel_id == channel_id and known.status in ("lobby", "running"):
            return known
        for game in self._cache.values():
            if game.channel_id == channel_id and game.status in ("lobby", "running"):
                return self._index_channel(game)
        stored = await self.storage.active_game_in(channel_id)
        return self._index_channel(self._remember(stored)) if stored else None

    def _index_channel(self, game: GameRow) -> GameRow:
        if len(self._channels) >= 4 * self._cache_size:  # stale hints of games long gone from the cache
            self._channels.clear()
        self._channels[game.channel_id] = game.id
        return game

    # --- several processes on one database (storage.shared: PostgreSQL) -------------
    # Another process may have changed any game since we cached it: the cached copy is
    # checked against the database's revision before it is used (the writes are
    # compare-and-set on that revision anyway, so a change slipping in between makes the
    # write fail with CHANGED_ELSEWHERE, and nothing is applied twice).
    async def _check_shared(self, game: GameRow) -> GameRow | None:
        """The cached ``game`` made current (None when the database no longer has it)."""
        rev = await self.storage.game_rev(game.id)
        if rev is None:
            self._cache.pop(game.id, None)
            return None
        if rev > game.rev:
            fresh = await self.storage.get_game(game.id)
            if fresh is None:
                self._cache.pop(game.id, None)
                return None
            return self._take_fresh(fresh)
        return game

    def _take_fresh(self, fresh: GameRow) -> GameRow:
        """Remember a row just read; a cached copy of it is updated in place (callers hold
        it), unless the copy is newer (our own write landed while the read was on its way)."""
        game = self._cache.get(fresh.id)
        if game is None:
            return self._remember(fresh)
        if fresh.rev > game.rev:
            vars(game).update(vars(fresh))
        self._cache.move_to_end(game.id)
        return game

    async def require_in_channel(self, channel_id: int) -> GameRow:
        """The channel's game in its lobby or running; TableError telling how to open one if there is none."""
        game = await self.in_channel(channel_id)
        if game is None:
            raise TableError("There is no game in this channel. Open one with `/game new`.")
        return game

    @staticmethod
    def engine(game: GameRow) -> Engine:
        """The rules engine of the game's kind."""
        return get_engine(game.game_key)

    # --- writing ------------------------------------------------------------------
    async def _commit(self, game: GameRow, draft: GameRow, *,
                      moves: list[tuple[int, int | None, dict[str, Any]]] | None = None,
                      results: list[dict[str, Any]] | None = None) -> None:
        """Store ``draft`` (a changed copy of the cached ``game``) in one transaction,
        then, and only then, make the cached row say the same. Raises TableError
        (nothing changed) when the write fails or the row changed elsewhere."""
        # A draft shares the cached state object unless it changed the state (see _draft),
        # so the state is compared by identity, never walked.
        fields = {k: getattr(draft, k) for k in ROW_FIELDS
                  if (getattr(draft, k) is not getattr(game, k) if k == "state" else getattr(draft, k) != getattr(game, k))}
        moves = moves or []
        try:
            rev = await self.storage.save_game(
                game.id, game.rev, fields, actions=moves, expected_version=game.version,
                results=self.storage.result_rows(draft, results) if results else None)
        except CommitUnknownError as unknown:  # stored or not: the caller says it can't tell yet; we find out
            log.warning("game %s: the database stopped answering while saving; finding out whether it was stored",
                        game.id)
            self._cache.pop(game.id, None)  # read again from the database next time: the truth, whichever it is
            self._views.pop(game.id, None)
            self._settle_later(game.id, game.version, unknown)
            raise
        except StorageError as exc:
            log.warning("game %s: a write failed and was rolled back: %s", game.id, exc)
            raise TableError(SAVE_FAILED) from None
        except VersionConflictError:
            await self._reload(game)
            if game.status in ("finished", "ended"):
                raise TableError("This game is over.") from None
            raise TableError(CHANGED_ELSEWHERE) from None
        if moves and game.state is not None:
            self._history[(game.id, game.version)] = game.state  # never mutated: a new state replaces it
            while len(self._history) > HISTORY_SIZE:
                self._history.popitem(last=False)
        draft.rev = rev
        draft.version = game.version + len(moves)
        vars(game).update(vars(draft))

    def _settle_later(self, game_id: int, version: int, unknown: CommitUnknownError) -> None:
        """Find out, in the background, whether a write whose COMMIT got no answer was stored (trying again with
        a back-off while the database does not answer); if it was, ``on_late_save`` shows the game as it is (and
        what was played since ``version``)."""
        async def settle() -> None:
            nonlocal unknown
            backoff = Backoff()
            for _ in range(SETTLE_TRIES):
                try:
                    await unknown.settle()
                except CommitUnknownError as again:
                    unknown = again
                    await asyncio.sleep(backoff.failed())
                    continue
                except (StorageError, VersionConflictError) as exc:  # not stored, or stored and changed since
                    log.info("game %s: the write in doubt is settled: %s", game_id, exc or "changed since")
                    return
                log.info("game %s: the write in doubt was stored", game_id)
                if self.on_late_save is not None:
                    await self.on_late_save(await self.get(game_id), version)
                return
            log.warning("game %s: could not find out whether a write was stored; its next use reads it", game_id)

        async def guarded() -> None:
            try:
                await settle()
            except Exception:
                log.exception("game %s: settling a write in doubt failed", game_id)

        # A context of its own: not the interaction's, whose time to answer is long spent.
        task = asyncio.get_running_loop().create_task(guarded(), name=f"heistcord-settle-{game_id}",
                                                      context=contextvars.Context())
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def _reload(self, game: GameRow) -> None:
        """Make the cached row what the database says (after someone else changed it)."""
        try:
            fresh = await self.storage.get_game(game.id)
        except Exception:  # the database can't even be read: forget the row, reload it later
            fresh = None
        if fresh is None:
            self._cache.pop(game.id, None)
            self._views.pop(game.id, None)
        else:
            vars(game).update(vars(fresh))

    @staticmethod
    def _draft(game: GameRow, *, state: bool = True) -> GameRow:
        """A copy of ``game`` to change: seats and options copied; the state copied
        only if it will change (``state=True``), else shared with the cached row."""
        draft = copy.copy(game)
        # Rows are plain JSON data: a pickle round trip copies them 3-5x faster than deepcopy.
        if state and game.state is not None:
            draft.seats, draft.options, draft.state = _copy((game.seats, game.options, game.state))
        else:
            draft.seats, draft.options = _copy((game.seats, game.options))
        return draft

    async def _change(self, game_id: int, change: Callable[[GameRow], None]) -> GameRow:
        """Apply ``change`` to a copy of the game and store it; if another process changed
        the row meanwhile, reload it and apply ``change`` once more on the fresh row."""
        game = await self.get(game_id)
        async with self.lock(game.id):
            for attempt in range(2):
                draft = self._draft(game, state=False)  # lobby and seat changes never touch the state
                change(draft)
                try:
                    await self._commit(game, draft)
                    return game
                except TableError as exc:
                    if str(exc) != CHANGED_ELSEWHERE or attempt:
                        raise
        return game

    # --- lobby -------------------------------------------------------------------
    async def open(self, guild_id: int, channel_id: int, game_key: str, host_id: int, host_name: str,
                   raw_options: dict[str, Any] | None = None, *, is_manager: bool = False) -> GameRow:
        """Open a lobby in a channel with its host seated, if the server's settings allow it here."""
        settings = await self.storage.settings(guild_id)
        if settings.maintenance:
            raise TableError("New games are paused on this server for maintenance. Running games carry on.")
        if settings.allowed_channels and channel_id not in settings.allowed_channels and not is_manager:
            where = ", ".join(f"<#{c}>" for c in settings.allowed_channels)
            raise TableError(f"Games can't be opened in this channel. Try {where}.")
        if game_key not in registry():
            raise TableError(f"There is no game called '{game_key}'. Pick one from the list.")
        engine = get_engine(game_key)
        raw_options = dict(raw_options or {})
        platform = {key: parse_platform_option(key, raw_options.pop(key))
                    for key in PLATFORM_OPTIONS if key in raw_options}
        try:
            options = engine.meta.resolve_options(raw_options)
        except RuleError as exc:
            raise TableError(str(exc)) from None
        options.update({"_" + key: value for key, value in platform.items()})
        options[REVISION] = engine.meta.revision
        try:
            game_id = await self.storage.create_game(
                guild_id, channel_id, game_key, host_id, options, self.seed_source(),
                [{"user_id": host_id, "name": host_name}],
            )
        except ChannelBusyError:
            existing = await self.storage.active_game_in(channel_id)
            name = get_engine(existing.game_key).meta.name if existing else "A game"
            raise TableError(f"{name} is already {'open' if existing and existing.status == 'lobby' else 'running'}"
                             " in this channel. Finish it (or `/game end` it) first.") from None
        game = await self.storage.get_game(game_id)
        assert game is not None  # created just above
        log.info("game %s opened: %s in channel %s by %s", game_id, game_key, channel_id, host_id)
        return self._remember(game)

    async def set_option(self, channel_id: int, user_id: int, key: str, value: Any) -> GameRow:
        """The host changes one of the lobby's options (a game option or a platform one)."""
        game = await self.require_in_channel(channel_id)

        def change(draft: GameRow) -> None:
            self._require_lobby(draft)
            self._require_host(draft, user_id)
            try:
                if key in PLATFORM_OPTIONS:
                    draft.options["_" + key] = parse_platform_option(key, value)
                else:
                    draft.options[key] = self.engine(draft).meta.option(key).parse(value)
            except RuleError as exc:
                raise TableError(str(exc)) from None

        return await self._change(game.id, change)

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        """Seat a player in the lobby, if there is room."""
        def change(draft: GameRow) -> None:
            self._require_lobby(draft)
            if seat_of(draft, user_id) is not None:
                raise TableError("You're already seated at this table.")
            meta = self.engine(draft).meta
            if len(draft.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            draft.seats.append({"user_id": user_id, "name": self._unique_name(draft, name)})

        return await self._change(game_id, change)

    async def add_bot(self, game_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> GameRow:
        """Seat a bot player of ``level`` in the lobby, if there is room."""
        try:
            level = parse_level(level)
        except ValueError as exc:
            raise TableError(str(exc)) from None

        def change(draft: GameRow) -> None:
            self._require_lobby(draft)
            self._require_host(draft, user_id)
            meta = self.engine(draft).meta
            if len(draft.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            number = sum(1 for s in draft.seats if s.get("bot")) + 1
            label = f"Bot {number}" if level == DEFAULT_LEVEL else f"Bot {number} ({level})"
            draft.seats.append({"user_id": None, "name": self._unique_name(draft, label), "bot": True, "level": level})

        return await self._change(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> tuple[GameRow, Outcome | None]:
        """Leave a lobby (the table closes when its last human leaves), or a running
        game (the seat goes to a bot or the game ends, as the server chose)."""
        game = await self.get(game_id)
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not seated at this table.")
        if game.status == "running":
            return game, await self.remove_player(game.id, user_id)

        def change(draft: GameRow) -> None:
            self._require_lobby(draft)
            seat = seat_of(draft, user_id)
            if seat is None:
                raise TableError("You're not seated at this table.")
            draft.seats.pop(seat)
            humans = [s for s in draft.seats if not s.get("bot")]
            if not humans:
                draft.status = "ended"
                draft.ended_reason = "Everyone left the lobby."
            elif draft.host_id == user_id:
                draft.host_id = humans[0]["user_id"]

        return await self._change(game.id, change), None

    async def start(self, game_id: int, user_id: int, *, is_manager: bool = False) -> Outcome:
        """The host (or a manager) starts the game: set up, first turn, timers; retried once on a stale copy."""
        try:
            return await self._start(game_id, user_id, is_manager)
        except TableError as exc:
            if str(exc) != CHANGED_ELSEWHERE:
                raise
            return await self._start(game_id, user_id, is_manager)  # once more, on the reloaded row

    async def _start(self, game_id: int, user_id: int, is_manager: bool) -> Outcome:
        game = await self.get(game_id)
        async with self.lock(game.id):
            self._require_lobby(game)
            if not is_manager:
                self._require_host(game, user_id)
            engine = self.engine(game)
            meta = engine.meta
            if len(game.seats) < meta.min_players:
                need = meta.min_players - len(game.seats)
                raise TableError(f"{meta.name} needs at least {meta.min_players} players: {need} more to go"
                                 " (friends can press Join, or the host can add a bot).")
            draft = self._draft(game, state=False)
            draft.state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
            draft.status = "running"
            outcome = Outcome(game=game, events=[{"type": "start", "text": f"{meta.name} begins!"}])
            outcome.changed_private = {i for i in range(len(game.seats))}
            await self._advance(game, draft, outcome, [])  # the start and the bots' first moves: one write
            log.info("game %s started with %d seats", game.id, len(game.seats))
            return outcome

    # --- play ----------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: dict[str, Any] | None = None, *,
                  version: int | None = None, index: int | None = None) -> Outcome:
        """Apply a player's move: either ``action`` itself, or the ``index``-th legal
        action at ``version`` (what a panel button carries)."""
        game = await self.get(game_id)
        async with self.lock(game.id):
            if game.status != "running":
                await self._reload(game)  # a refusal is rare: make sure it isn't from an old copy
            seat = self.require_seat(game, user_id)
            engine = self.engine(game)
            if action is None:
                action = await self._resolve_click(game, seat, version, index)
            elif version is not None and version != game.version:
                raise TableError(STALE_PANEL)
            draft = self._draft(game)
            assert game.state is not None and draft.state is not None  # only a running game takes moves
            if draft.seats[seat].get("away"):
                draft.seats[seat]["away"] = False  # acting brings a benched player back
            draft.seats[seat]["missed"] = 0
            try:
                events = engine.apply(draft.state, seat, action)
            except RuleError as exc:
                raise TableError(str(exc)) from None
            outcome = Outcome(game=game, label=engine.describe_action(game.state, seat, action))
            await self._advance(game, draft, outcome, [(seat, user_id, action, events)])
            return outcome

    async def _resolve_click(self, game: GameRow, seat: int, version: int | None, index: int | None) -> dict[str, Any]:
        """The action behind a panel click (the ``index``-th legal action of ``seat`` at
        ``version``). In a simultaneous phase other seats may have acted since the panel
        was drawn: the click still counts if its own choice is legal now."""
        engine = self.engine(game)
        assert game.state is not None  # a click on a running game
        if version is None or version == game.version:
            legal = engine.legal_actions(game.state, seat)
            if index is None or not 0 <= index < len(legal):
                raise TableError("That move is no longer available.")
            return legal[index]
        if index is None or not 0 <= version < game.version:
            raise TableError(STALE_PANEL)
        if await self.storage.seat_moved_since(game.id, seat, version):
            raise TableError(STALE_PANEL)  # the panel was for a decision this seat already took
        then = await self._state_at(game, version)
        legal_then = engine.legal_actions(then, seat) if then is not None else []
        if not 0 <= index < len(legal_then) or legal_then[index] not in engine.legal_actions(game.state, seat):
            raise TableError(STALE_PANEL)
        return legal_then[index]

    async def _state_at(self, game: GameRow, version: int) -> dict[str, Any] | None:
        """The game's state at ``version``: from recent history, else replayed from the log."""
        state = self._history.get((game.id, version))
        if state is not None or not replays_here(game):  # (a panel from before an update: stale)
            return state
        engine = self.engine(game)
        entries = await self.storage.actions_until(game.id, version)
        if len(entries) != version:
            return None
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        for entry in entries:
            engine.apply(state, entry["seat"], entry["action"])
        return state

    async def _advance(self, game: GameRow, draft: GameRow, outcome: Outcome,
                       applied: list[tuple[int, int | None, dict[str, Any], list[dict[str, Any]]]],
                       extra_fields: dict[str, Any] | None = None) -> None:
        """Let bot seats play on ``draft``, then store everything in one transaction:
        state, seats, timers, the new log entries and, at the end, the results."""
        engine = self.engine(game)
        before_private = self._private_views(game.id, engine, game.state)
        state = draft.state
        assert state is not None  # the draft of a running game
        acting = engine.turn_seats(game.state) if game.state is not None and applied else []
        passed = not applied or turn_passed(acting, engine.turn_seats(state))
        moves = [(seat, user, action) for seat, user, action, _ in applied]
        told: list[tuple[int, int | None, list[dict[str, Any]]]] = [(s, u, ev) for s, u, _, ev in applied]
        for _, _, _, events in applied:
            outcome.events.extend(events)
        version = game.version + len(moves)
        for _ in range(BOT_STEP_LIMIT):
            if engine.is_terminal(state):
                break
            bots = [s for s in engine.to_act(state) if bot_controlled(draft.seats[s])]
            if not bots:
                break
            seat = bots[0]
            action = await self._bot_move(game, engine, state, draft.seats[seat], seat, version)
            acting = engine.turn_seats(state)
            events = engine.apply(state, seat, action)
            outcome.events.extend(events)
            told.append((seat, None, events))
            passed = passed or turn_passed(acting, engine.turn_seats(state))
            moves.append((seat, None, action))
            version += 1
        else:
            log.error("game %s: bots did not finish within %d moves", game.id, BOT_STEP_LIMIT)
        finished = engine.is_terminal(state)
        if finished:
            draft.status, draft.deadline_at, draft.reminder_at = "finished", None, None
        else:
            for key, value in (await self._deadline_fields(draft, engine, state)).items():
                setattr(draft, key, value)
        results = engine.scores(state) if finished else None
        await self._commit(game, draft, moves=moves, results=results)
        outcome.moves = [(s, a) for s, _, a in moves]
        outcome.turn_passed = outcome.turn_passed or passed
        after_private = self._private_views(game.id, engine, game.state)  # game.state is the new state now
        outcome.changed_private |= {s for s in range(len(game.seats)) if before_private.get(s) != after_private.get(s)}
        if finished:
            outcome.finished = True
            outcome.results = results
            log.info("game %s finished", game.id)
        # Only what the channel may see: a move's raw action can hold its secrets.
        for seat, user, events in told:
            public = " ".join(e["text"] for e in events if "to" not in e and e.get("text"))
            log.info("game %s seat %s (%s) moved: %s", game.id, seat, user or "bot", public or "(a hidden move)")

    # --- bot levels (issue 18) --------------------------------------------------------
    async def _bot_move(self, game: GameRow, engine: Engine, state: dict[str, Any], info: dict[str, Any],
                        seat: int, version: int) -> dict[str, Any]:
        """A bot seat's move at its level: a seat added as a bot keeps the level it was
        added with; a timed-out or departed player's seat plays at the server's level.
        A hard move is searched in a worker process (see :mod:`bot.search.pool`)."""
        if info.get("bot") and not info.get("left_user_id"):
            level = info.get("level", DEFAULT_LEVEL)
        else:
            level = (await self.storage.settings(game.guild_id)).bot_level
        rng = bot_rng(game, version)
        if level == "hard":
            return await search_pool.think(engine, state, seat, rng)
        return level_action(engine, state, seat, rng, level)

    def _private_views(self, game_id: int, engine: Engine, state: dict[str, Any] | None) -> dict[int, Any]:
        """Every seat's private view of ``state`` (a committed state, never mutated), from
        the views kept for it: the views "before" a move are the previous move's "after".
        Compared as Python values (JSON data compare like their encodings), never encoded."""
        if not state:
            return {}
        views = self._state_views(game_id, state)
        for seat in range(len(state.get("names", []))):
            if seat not in views:
                views[seat] = engine.view(state, seat)
        return {seat: view.get("private") for seat, view in views.items() if seat is not None}

    def _state_views(self, game_id: int, state: dict[str, Any]) -> dict[int | None, Any]:
        """The views of ``state`` computed so far (seat -> view, None for the public one), kept
        while it is the cached game's state."""
        known = self._views.get(game_id)
        if known is not None and known[0] is state:
            return known[1]
        views: dict[int | None, Any] = {}
        if game_id in self._cache:
            self._views[game_id] = (state, views)
        return views

    def view(self, game: GameRow, seat: int | None) -> dict[str, Any]:
        """``engine.view(game.state, seat)`` (``None``: the public view), computed once per
        state: a move's DMs and board use the views its change detection computed. Shared:
        callers read it, never change it."""
        assert game.state is not None  # a started game
        views = self._state_views(game.id, game.state)
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.engine(game).view(game.state, seat)
        return view

    # --- deadlines -------------------------------------------------------------------
    async def turn_minutes(self, game: GameRow) -> int:
        """The game's turn timer: the table's choice, else the server's, else the bot's default."""
        if "_" + TURN_OPTION in game.options:
            return int(game.options["_" + TURN_OPTION])
        settings = await self.storage.settings(game.guild_id)
        if settings.turn_minutes is not None:
            return settings.turn_minutes
        return self.default_turn_minutes

    async def _deadline_fields(self, game: GameRow, engine: Engine, state: dict[str, Any]) -> dict[str, Any]:
        waiting_humans = [s for s in engine.to_act(state) if not bot_controlled(game.seats[s])]
        if not waiting_humans:
            return {"deadline_at": None, "reminder_at": None}
        now = self.clock()
        window = engine.window_seconds(state, engine_options(game))
        if window is not None:  # a short real-time window: no reminder, just the deadline
            return {"deadline_at": now + window, "reminder_at": None}
        minutes = await self.turn_minutes(game)
        if minutes <= 0:
            return {"deadline_at": None, "reminder_at": None}
        deadline = now + minutes * 60
        return {"deadline_at": deadline, "reminder_at": now + minutes * 60 * 0.75}

    async def fire_timers(self, now: float | None = None) -> list[tuple[str, Outcome]]:
        """Reminders and deadlines that are due: ``("reminder", outcome)`` pings the
        seats still to act; ``("deadline", outcome)`` played their moves for them."""
        now = self.clock() if now is None else now
        fired: list[tuple[str, Outcome]] = []
        if now >= self._next_compaction:  # one batch per wake-up while there is a backlog, then hourly
            full = await self.compact(now, batches=1) == COMPACT_BATCH
            self._next_compaction = now if full else now + RETENTION_EVERY
        for row in await self.storage.due_deadlines(now):
            try:
                result = await self._fire_timer(row.id, now)
            except TableError as exc:  # this game's write failed: its timer stays due, we try again
                if self.storage.shared and str(exc) in (CHANGED_ELSEWHERE, "This game is over."):
                    log.debug("game %s: its timer was taken by another process", row.id)
                else:
                    log.warning("game %s: timer not fired: %s", row.id, exc)
                continue
            if result is not None:
                fired.append(result)
        return fired

    async def compact(self, now: float | None = None, batches: int | None = None) -> int:
        """The retention policy (docs/benchmarks.md, "The write path"): games over for
        ``retention_days`` keep their row, results and log, and lose their stored
        state (seed + log replay it). ``COMPACT_BATCH`` rows per transaction (all of
        them, or ``batches`` transactions), so the writes of running games never wait
        long. Best effort: a failure waits for the next pass. Returns how many games
        were compacted."""
        now = self.clock() if now is None else now
        before, total = now - self.retention_days * 86400, 0
        try:
            for _ in range(batches or 10**9):
                done = await self.storage.compact_finished(before, COMPACT_BATCH)
                total += done
                if done < COMPACT_BATCH:
                    break
        except StorageError as exc:
            log.warning("compacting finished games failed (tried again later): %s", exc)
        if total:
            log.info("compacted the states of %d finished games", total)
            for game_id, game in list(self._cache.items()):  # a cached copy would still hold the state
                if game.status in ("finished", "ended") and game.updated_at < before:
                    self._cache.pop(game_id, None)
                    self._views.pop(game_id, None)
        return total

    async def _fire_timer(self, game_id: int, now: float) -> tuple[str, Outcome] | None:
        game = await self.get(game_id)
        async with self.lock(game.id):
            if game.status != "running":
                return None
            engine = self.engine(game)
            assert game.state is not None  # a running game has a state
            waiting = [s for s in engine.to_act(game.state) if not bot_controlled(game.seats[s])]
            draft = self._draft(game, state=False)
            if game.deadline_at is not None and game.deadline_at <= now and waiting:
                draft.state = _copy(game.state)  # the timed-out seats' moves are played on it
                # A real-time window (anyone may interrupt) closing is not a missed turn: no
                # "time ran out" for its seats, no step towards being benched.
                window = engine.window_seconds(game.state, engine_options(game)) is not None
                outcome = Outcome(game=game, missed=[] if window else waiting)
                applied: list[tuple[int, int | None, dict[str, Any], list[dict[str, Any]]]] = []
                for seat in waiting:
                    if seat not in engine.to_act(draft.state):
                        continue
                    action = engine.timeout_action(draft.state, seat, bot_rng(game, game.version + len(applied)))
                    applied.append((seat, None, action, engine.apply(draft.state, seat, action)))
                    if window:
                        continue
                    info = draft.seats[seat]
                    info["missed"] = info.get("missed", 0) + 1
                    if info["missed"] >= MISSED_TURNS_LIMIT and not info.get("away"):
                        info["away"] = True
                        outcome.benched.append(seat)
                await self._advance(game, draft, outcome, applied)
                return "deadline", outcome
            if game.reminder_at is not None and game.reminder_at <= now and waiting:
                draft.reminder_at = None
                await self._commit(game, draft)
                return "reminder", Outcome(game=game, missed=waiting)
            if not waiting and (game.deadline_at is not None or game.reminder_at is not None):
                draft.deadline_at = draft.reminder_at = None  # nobody human to remind
                await self._commit(game, draft)
            # Otherwise a move got in first (between the query and the lock): the timers
            # now are the next turn's, not due yet, and must stay.
            return None

    async def recover(self) -> list[tuple[str, Outcome]]:
        """At start-up: move on every running game a crash or an outage left waiting on
        the bot (a bot seat to act, or a deadline that passed while we were down), and
        give a turn timer to a human turn that lost its deadline. Returns what to
        announce: ``("recovered", outcome)`` to publish, and the timers that fired."""
        outcomes: list[tuple[str, Outcome]] = []
        for row in await self.storage.active_games():
            if row.status != "running" or not row.state or not await self._needs_recovery(row):
                continue
            try:
                outcome = await self._recover_game(row.id)
            except TableError as exc:
                log.warning("game %s: could not be recovered now: %s", row.id, exc)
                continue
            if outcome is not None:
                outcomes.append(("recovered", outcome))
        outcomes.extend(await self.fire_timers())
        if outcomes:
            log.info("start-up recovery moved on %d games", len(outcomes))
        return outcomes

    async def _needs_recovery(self, row: GameRow) -> bool:
        """Whether ``_recover_game`` would change a running game, judged on the row just read: the games that
        need nothing (most) are neither loaded again nor cached, where they pushed the games being played out."""
        engine = self.engine(row)
        assert row.state is not None  # a running game has a state
        to_act = engine.to_act(row.state)
        if engine.is_terminal(row.state) or any(bot_controlled(row.seats[s]) for s in to_act):
            return True
        if row.deadline_at is not None or not to_act:
            return False
        return engine.window_seconds(row.state, engine_options(row)) is not None or await self.turn_minutes(row) > 0

    async def _recover_game(self, game_id: int) -> Outcome | None:
        game = await self.get(game_id)
        async with self.lock(game.id):
            if game.status != "running":
                return None
            engine = self.engine(game)
            assert game.state is not None  # a running game has a state
            draft = self._draft(game, state=False)
            if engine.is_terminal(game.state) or any(bot_controlled(game.seats[s]) for s in engine.to_act(game.state)):
                draft.state = _copy(game.state)  # the bots move on it
                outcome = Outcome(game=game)
                await self._advance(game, draft, outcome, [])
                return outcome
            if game.deadline_at is None:
                assert draft.state is not None  # shared with the running game's row
                timers = await self._deadline_fields(draft, engine, draft.state)
                if timers["deadline_at"] is not None:
                    for key, value in timers.items():
                        setattr(draft, key, value)
                    await self._commit(game, draft)
            return None

    async def rejoin(self, channel_id: int, user_id: int) -> GameRow:
        """A player benched as away takes their seat back from the bot."""
        game = await self.require_in_channel(channel_id)

        def change(draft: GameRow) -> None:
            seat = seat_of(draft, user_id)
            if seat is None:
                raise TableError("You're not seated at this table.")
            if not draft.seats[seat].get("away"):
                raise TableError("You're already playing your own seat.")
            draft.seats[seat]["away"] = False
            draft.seats[seat]["missed"] = 0

        return await self._change(game.id, change)

    # --- leaving and ending ---------------------------------------------------------
    async def remove_player(self, game_id: int, user_id: int) -> Outcome:
        """A seated player leaves a running game (by choice, by an admin, or by
        leaving the server): a bot takes the seat, or the game ends."""
        game = await self.get(game_id)
        settings = await self.storage.settings(game.guild_id)
        async with self.lock(game.id):
            seat = seat_of(game, user_id)
            if seat is None:
                raise TableError("That player isn't seated at this table.")
            if game.status != "running":
                raise TableError("That game isn't running.")
            engine = self.engine(game)
            name = game.seats[seat]["name"]
            draft = self._draft(game)
            assert draft.state is not None  # checked running above
            on_leave = game.options.get("_" + LEAVE_OPTION, settings.on_leave)  # the host's choice, else the server's
            events = engine.remove_seat(draft.state, seat) if on_leave == "bot" else None
            if events is None:
                outcome = Outcome(game=game)
                await self._finish_ended(game, f"{name} left, so the game ended.")
                outcome.events.append({"type": "ended", "text": game.ended_reason})
                return outcome
            draft.seats[seat].update(bot=True, user_id=None, left_user_id=user_id)
            outcome = Outcome(game=game, events=[{"type": "left", "text": f"{name} left; a bot plays their seat now."}])
            outcome.events.extend(events)
            await self._advance(game, draft, outcome, [])
            return outcome

    async def end(self, game_id: int, reason: str) -> GameRow:
        """End the game before its finish (``reason`` is shown); TableError if it already ended."""
        game = await self.get(game_id)
        async with self.lock(game.id):
            for attempt in range(2):
                if game.status not in ("lobby", "running"):
                    raise TableError("That game has already ended.")
                try:
                    await self._finish_ended(game, reason)
                    break
                except TableError as exc:
                    if str(exc) != CHANGED_ELSEWHERE or attempt:
                        raise
        return game

    async def _finish_ended(self, game: GameRow, reason: str) -> None:
        draft = self._draft(game, state=False)
        draft.status, draft.ended_reason, draft.deadline_at, draft.reminder_at = "ended", reason, None, None
        await self._commit(game, draft)
        log.info("game %s ended: %s", game.id, reason)

    async def move_to_thread(self, game: GameRow, thread_id: int) -> None:
        """The game now lives in ``thread_id`` (made from its lobby message); its
        channel is free for another table."""
        def change(draft: GameRow) -> None:
            draft.parent_channel_id, draft.channel_id = draft.channel_id, thread_id

        await self._change(game.id, change)

    async def set_message(self, game: GameRow, **ids: int) -> None:
        """Remember the lobby or board message (best effort: a failed write only means
        an older message is refreshed later)."""
        def change(draft: GameRow) -> None:
            for key, value in ids.items():
                setattr(draft, key, value)

        try:
            await self._change(game.id, change)
        except (TableError, StorageError) as exc:  # (a save in doubt, or a read that failed, too)
            log.warning("game %s: message ids not saved: %s", game.id, exc)

    async def set_seat_info(self, game: GameRow, info: dict[int, dict[str, Any]]) -> None:
        """Store per-seat delivery details (``{seat: {"dm": id, "dm_closed": bool}}``), best effort."""
        def change(draft: GameRow) -> None:
            for seat, values in info.items():
                draft.seats[seat].update(values)

        try:
            await self._change(game.id, change)
        except (TableError, StorageError) as exc:
            log.warning("game %s: seat details not saved: %s", game.id, exc)

    # --- replay -------------------------------------------------------------------------
    async def _started_game_log(self, game_id: int) -> tuple[GameRow, Engine, list[dict[str, Any]]]:
        """A game that started, its engine and its whole action log (for replays)."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"There is no game #{game_id}.")
        if not game.started:
            raise TableError(f"Game #{game_id} never started.")
        require_replayable(game)
        return game, self.engine(game), await self.storage.actions(game.id)

    async def replay(self, game_id: int, move: int | None = None) -> tuple[GameRow, dict[str, Any], int]:
        """The state after ``move`` actions (all of them by default), rebuilt from
        the seed and the action log alone (on a worker thread: the event loop stays free)."""
        game, engine, entries = await self._started_game_log(game_id)
        if move is not None and not 0 <= move <= len(entries):
            raise TableError(f"Game #{game_id} has moves 0 to {len(entries)}.")

        def rebuild() -> dict[str, Any]:
            state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
            for entry in entries[: len(entries) if move is None else move]:
                engine.apply(state, entry["seat"], entry["action"])
            return state

        return game, await asyncio.to_thread(rebuild), len(entries)

    async def replay_turns(self, game_id: int) -> tuple[GameRow, list[tuple[int, dict[str, Any]]], int,
                                                      list[dict[str, Any]] | None]:
        """For the animated replay: the public view at the start and after every turn
        (rebuilt from the log on a worker thread, so the event loop stays free), the
        number of moves, and the final scores if the game finished."""
        game, engine, entries = await self._started_game_log(game_id)
        snapshots, state = await asyncio.to_thread(
            replay_turns, engine, [s["name"] for s in game.seats], engine_options(game), game.seed,
            [(entry["seat"], entry["action"]) for entry in entries])
        return game, snapshots, len(entries), engine.scores(state) if engine.is_terminal(state) else None

    async def public_log(self, game_id: int) -> list[tuple[int, str]]:
        """``(move number, sentence)`` for every public event, replayed from the log."""
        game = await self.storage.get_game(game_id)
        if game is None or not game.started:
            return []
        require_replayable(game)
        engine = self.engine(game)
        entries = await self.storage.actions(game.id)

        def replay() -> list[tuple[int, str]]:  # on a worker thread: a long game takes a while
            state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
            lines: list[tuple[int, str]] = []
            for entry in entries:
                for event in engine.apply(state, entry["seat"], entry["action"]):
                    if "to" not in event and event.get("text"):
                        lines.append((entry["seq"], event["text"]))
            return lines

        return await asyncio.to_thread(replay)

    # --- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _unique_name(game: GameRow, name: str) -> str:
        taken = {s["name"] for s in game.seats}
        base, n = name[:32], 2
        while name in taken:
            name = f"{base} ({n})"
            n += 1
        return name

    @staticmethod
    def _require_lobby(game: GameRow) -> None:
        if game.status == "running":
            raise TableError("The game has already started.")
        if game.status != "lobby":
            raise TableError("That table is closed.")

    @staticmethod
    def _require_host(game: GameRow, user_id: int) -> None:
        if user_id != game.host_id:
            raise TableError(f"Only the host (<@{game.host_id}>) can do that.")

    def require_seat(self, game: GameRow, user_id: int) -> int:
        """The seat of ``user_id`` in a running game; TableError saying why they can't act."""
        if game.status == "lobby":
            raise TableError("The game hasn't started yet.")
        if game.status != "running":
            raise TableError("This game is over.")
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not playing in this game: you can watch, but only seated players act.")
        return seat

    def waiting_seats(self, game: GameRow) -> list[int]:
        """The seats whose move the running game waits for."""
        if game.status != "running" or not game.state:
            return []
        return self.engine(game).to_act(game.state)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings."""
        return await self.storage.settings(guild_id)

