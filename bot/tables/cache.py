"""The games in memory, shared by every part of the table service: one cache of game rows, one lock per game,
and the one way a row is changed.

Every change to a game is made on a copy of the cached row (:meth:`Tables.draft`) and stored in one transaction
(:meth:`Tables.commit`: a compare-and-set on the row's revision); the cached row takes the change only once it is
committed. A failed write leaves cache and database as they were and tells the player to try again; a row changed
by someone else is reloaded. The views of the cached states are kept here too, so a move's DMs and board reuse
the views its change detection computed.
"""
from __future__ import annotations

import asyncio
import contextvars
import copy
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Engine
from bot.games import get_engine
from bot.loops import Backoff
from bot.storage import CommitUnknownError, GameRow, GuildSettings, StorageError, VersionConflictError
from bot.storage_protocol import StorageProtocol
from bot.tables.common import CHANGED_ELSEWHERE, SAVE_FAILED, TableError, copy_data, log

HISTORY_SIZE = 512  # recent (game, version) states kept in all, to resolve clicks on slightly old panels
SETTLE_TRIES = 60  # a write in doubt is looked up this many times (backing off to 15 s: about 15 minutes)
# The columns of a game row that the table service changes.
ROW_FIELDS = ("status", "host_id", "options", "seats", "state", "lobby_message_id", "board_message_id",
              "deadline_at", "reminder_at", "ended_reason", "channel_id", "parent_channel_id")


def engine_of(game: GameRow) -> Engine:
    """The rules engine of the game's kind."""
    return get_engine(game.game_key)


class Tables:
    """The cache of game rows (most recently used first out), their locks, recent states and views, and the
    write path every change goes through."""
    def __init__(self, storage: StorageProtocol, *, clock: Callable[[], float], cache_size: int = 2048) -> None:
        self.storage = storage
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self.cache: OrderedDict[int, GameRow] = OrderedDict()
        self._cache_size = cache_size
        # (game, version) -> state, the most recent HISTORY_SIZE; older ones are replayed from the log.
        self._history: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        # game id -> (its cached state object, the views computed of it: seat -> view, None -> the public one):
        # the views "before" a move are the previous move's "after", and its DMs and board use them.
        self._views: dict[int, tuple[dict[str, Any], dict[int | None, Any]]] = {}
        self._channels: dict[int, int] = {}  # channel id -> the game last found playing there (see in_channel)
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

    def remember(self, game: GameRow) -> GameRow:
        """Cache ``game`` (a row just read or created), dropping the least recently used beyond the cache's size."""
        self.cache[game.id] = game
        self.cache.move_to_end(game.id)
        while len(self.cache) > self._cache_size:
            old_id, _ = self.cache.popitem(last=False)
            self._views.pop(old_id, None)
            lock = self._locks.get(old_id)
            if lock is not None and not lock.locked():
                del self._locks[old_id]
        return game

    def forget(self, game_id: int) -> None:
        """Drop a game from the cache (read again from the database when next used)."""
        self.cache.pop(game_id, None)
        self._views.pop(game_id, None)

    async def get(self, game_id: int) -> GameRow:
        """The game ``game_id`` (cached, or loaded from the database); TableError if there is none."""
        game = self.cache.get(game_id)
        if game is not None and self.storage.shared:
            game = await self._check_shared(game)
        if game is None:
            game = await self.storage.get_game(game_id)
            if game is None:
                raise TableError(f"There is no game #{game_id}.")
            self.remember(game)
        return game

    async def in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running, or None."""
        if self.storage.shared:  # another process may have ended the table or opened one here
            fresh = await self.storage.active_game_in(channel_id)
            return self._take_fresh(fresh) if fresh else None
        # Every /game command asks this: the channel's game is looked up by its id, not by walking the cache (up to
        # 2,048 games: 0.2-0.5 ms each time under load). The index is a hint, checked against the game's row.
        known = self.cache.get(self._channels.get(channel_id, 0))
        if known is not None and known.channel_id == channel_id and known.status in ("lobby", "running"):
            return known
        for game in self.cache.values():
            if game.channel_id == channel_id and game.status in ("lobby", "running"):
                return self._index_channel(game)
        stored = await self.storage.active_game_in(channel_id)
        return self._index_channel(self.remember(stored)) if stored else None

    def _index_channel(self, game: GameRow) -> GameRow:
        if len(self._channels) >= 4 * self._cache_size:  # stale hints of games long gone from the cache
            self._channels.clear()
        self._channels[game.channel_id] = game.id
        return game

    async def require_in_channel(self, channel_id: int) -> GameRow:
        """The channel's game in its lobby or running; TableError telling how to open one if there is none."""
        game = await self.in_channel(channel_id)
        if game is None:
            raise TableError("There is no game in this channel. Open one with `/game new`.")
        return game

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings."""
        return await self.storage.settings(guild_id)

    # --- several processes on one database (storage.shared: PostgreSQL) -------------
    # Another process may have changed any game since we cached it: the cached copy is
    # checked against the database's revision before it is used (the writes are
    # compare-and-set on that revision anyway, so a change slipping in between makes the
    # write fail with CHANGED_ELSEWHERE, and nothing is applied twice).
    async def _check_shared(self, game: GameRow) -> GameRow | None:
        """The cached ``game`` made current (None when the database no longer has it)."""
        rev = await self.storage.game_rev(game.id)
        if rev is None:
            self.cache.pop(game.id, None)
            return None
        if rev > game.rev:
            fresh = await self.storage.get_game(game.id)
            if fresh is None:
                self.cache.pop(game.id, None)
                return None
            return self._take_fresh(fresh)
        return game

    def _take_fresh(self, fresh: GameRow) -> GameRow:
        """Remember a row just read; a cached copy of it is updated in place (callers hold
        it), unless the copy is newer (our own write landed while the read was on its way)."""
        game = self.cache.get(fresh.id)
        if game is None:
            return self.remember(fresh)
        if fresh.rev > game.rev:
            vars(game).update(vars(fresh))
        self.cache.move_to_end(game.id)
        return game

    # --- writing ------------------------------------------------------------------
    @staticmethod
    def draft(game: GameRow, *, state: bool = True) -> GameRow:
        """A copy of ``game`` to change: seats and options copied; the state copied
        only if it will change (``state=True``), else shared with the cached row."""
        draft = copy.copy(game)
        if state and game.state is not None:
            draft.seats, draft.options, draft.state = copy_data((game.seats, game.options, game.state))
        else:
            draft.seats, draft.options = copy_data((game.seats, game.options))
        return draft

    async def commit(self, game: GameRow, draft: GameRow, *,
                     moves: list[tuple[int, int | None, dict[str, Any]]] | None = None,
                     results: list[dict[str, Any]] | None = None) -> None:
        """Store ``draft`` (a changed copy of the cached ``game``) in one transaction,
        then, and only then, make the cached row say the same. Raises TableError
        (nothing changed) when the write fails or the row changed elsewhere."""
        # A draft shares the cached state object unless it changed the state (see draft),
        # so the state is compared by identity, never walked.
        def changed(k: str) -> bool:
            new, old = getattr(draft, k), getattr(game, k)
            return new is not old if k == "state" else new != old
        fields = {k: getattr(draft, k) for k in ROW_FIELDS if changed(k)}
        moves = moves or []
        try:
            rev = await self.storage.save_game(
                game.id, game.rev, fields, actions=moves, expected_version=game.version,
                results=self.storage.result_rows(draft, results) if results else None)
        except CommitUnknownError as unknown:  # stored or not: the caller says it can't tell yet; we find out
            log.warning("game %s: the database stopped answering while saving; finding out whether it was stored",
                        game.id)
            self.forget(game.id)  # read again from the database next time: the truth, whichever it is
            self._settle_later(game.id, game.version, unknown)
            raise
        except StorageError as exc:
            log.warning("game %s: a write failed and was rolled back: %s", game.id, exc)
            raise TableError(SAVE_FAILED) from None
        except VersionConflictError:
            await self.reload(game)
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

    def recent_state(self, game_id: int, version: int) -> dict[str, Any] | None:
        """The game's state at ``version`` if it is among the recent ones kept (see ``HISTORY_SIZE``)."""
        return self._history.get((game_id, version))

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

    async def reload(self, game: GameRow) -> None:
        """Make the cached row what the database says (after someone else changed it)."""
        try:
            fresh = await self.storage.get_game(game.id)
        except Exception:  # the database can't even be read: forget the row, reload it later
            fresh = None
        if fresh is None:
            self.forget(game.id)
        else:
            vars(game).update(vars(fresh))

    async def change(self, game_id: int, change: Callable[[GameRow], None]) -> GameRow:
        """Apply ``change`` to a copy of the game and store it; if another process changed
        the row meanwhile, reload it and apply ``change`` once more on the fresh row."""
        game = await self.get(game_id)
        async with self.lock(game.id):
            for attempt in range(2):
                draft = self.draft(game, state=False)  # lobby and seat changes never touch the state
                change(draft)
                try:
                    await self.commit(game, draft)
                    return game
                except TableError as exc:
                    if str(exc) != CHANGED_ELSEWHERE or attempt:
                        raise
        return game

    async def finish_ended(self, game: GameRow, reason: str) -> None:
        """Store the game as ended before its finish (``reason`` is shown); the caller holds its lock."""
        draft = self.draft(game, state=False)
        draft.status, draft.ended_reason, draft.deadline_at, draft.reminder_at = "ended", reason, None, None
        await self.commit(game, draft)
        log.info("game %s ended: %s", game.id, reason)

    # --- views of the cached states -------------------------------------------------
    def private_views(self, game_id: int, engine: Engine, state: dict[str, Any] | None) -> dict[int, Any]:
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
        if game_id in self.cache:
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
            view = views[seat] = engine_of(game).view(game.state, seat)
        return view
