"""Timers and recovery: reminders and deadlines coming due (a timed-out seat's move is played for it, and a
player who misses turns is benched to a bot), the retention pass that compacts long-finished games, and the
start-up pass that moves on every game a crash or an outage left waiting.

A turn's timers are set as its move is stored (:meth:`bot.tables.play.Play.deadline_fields`); this module fires
them. The bot's timer loop calls :meth:`Timers.fire_timers`; start-up calls :meth:`Timers.recover`.
"""
from __future__ import annotations

from typing import Any

from bot.storage import GameRow, StorageError
from bot.tables.cache import Tables, engine_of
from bot.tables.common import (
    CHANGED_ELSEWHERE,
    Applied,
    Outcome,
    TableError,
    bot_controlled,
    bot_rng,
    copy_data,
    engine_options,
    log,
)
from bot.tables.play import MISSED_TURNS_LIMIT, Play

RETENTION_DAYS = 30  # a finished game's state is compacted away after this (its log replays it)
RETENTION_EVERY = 3600.0  # seconds between two compaction passes of the timer loop
COMPACT_BATCH = 500  # games compacted per transaction


class Timers:
    """Due reminders and deadlines, compaction of finished games, and recovery at start-up."""
    def __init__(self, tables: Tables, play: Play) -> None:
        self.tables = tables
        self.play = play
        self.storage = tables.storage
        self.retention_days = RETENTION_DAYS
        self._next_compaction = float("-inf")

    async def fire_timers(self, now: float | None = None) -> list[tuple[str, Outcome]]:
        """Reminders and deadlines that are due: ``("reminder", outcome)`` pings the
        seats still to act; ``("deadline", outcome)`` played their moves for them."""
        now = self.tables.clock() if now is None else now
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

    async def _fire_timer(self, game_id: int, now: float) -> tuple[str, Outcome] | None:
        tables = self.tables
        game = await tables.get(game_id)
        async with tables.lock(game.id):
            if game.status != "running":
                return None
            engine = engine_of(game)
            assert game.state is not None  # a running game has a state
            waiting = [s for s in engine.to_act(game.state) if not bot_controlled(game.seats[s])]
            draft = tables.draft(game, state=False)
            if game.deadline_at is not None and game.deadline_at <= now and waiting:
                draft.state = copy_data(game.state)  # the timed-out seats' moves are played on it
                # A real-time window (anyone may interrupt) closing is not a missed turn: no
                # "time ran out" for its seats, no step towards being benched.
                window = engine.window_seconds(game.state, engine_options(game)) is not None
                outcome = Outcome(game=game, missed=[] if window else waiting)
                applied: list[Applied] = []
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
                await self.play.advance(game, draft, outcome, applied)
                return "deadline", outcome
            if game.reminder_at is not None and game.reminder_at <= now and waiting:
                draft.reminder_at = None
                await tables.commit(game, draft)
                return "reminder", Outcome(game=game, missed=waiting)
            if not waiting and (game.deadline_at is not None or game.reminder_at is not None):
                draft.deadline_at = draft.reminder_at = None  # nobody human to remind
                await tables.commit(game, draft)
            # Otherwise a move got in first (between the query and the lock): the timers
            # now are the next turn's, not due yet, and must stay.
            return None

    async def compact(self, now: float | None = None, batches: int | None = None) -> int:
        """The retention policy (docs/benchmarks.md, "The write path"): games over for
        ``retention_days`` keep their row, results and log, and lose their stored
        state (seed + log replay it). ``COMPACT_BATCH`` rows per transaction (all of
        them, or ``batches`` transactions), so the writes of running games never wait
        long. Best effort: a failure waits for the next pass. Returns how many games
        were compacted."""
        now = self.tables.clock() if now is None else now
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
            for game_id, game in list(self.tables.cache.items()):  # a cached copy would still hold the state
                if game.status in ("finished", "ended") and game.updated_at < before:
                    self.tables.forget(game_id)
        return total

    # --- start-up recovery ------------------------------------------------------------------
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
        engine = engine_of(row)
        assert row.state is not None  # a running game has a state
        to_act = engine.to_act(row.state)
        if engine.is_terminal(row.state) or any(bot_controlled(row.seats[s]) for s in to_act):
            return True
        if row.deadline_at is not None or not to_act:
            return False
        return (engine.window_seconds(row.state, engine_options(row)) is not None
                or await self.play.turn_minutes(row) > 0)

    async def _recover_game(self, game_id: int) -> Outcome | None:
        tables = self.tables
        game = await tables.get(game_id)
        async with tables.lock(game.id):
            if game.status != "running":
                return None
            engine = engine_of(game)
            assert game.state is not None  # a running game has a state
            draft = tables.draft(game, state=False)
            if engine.is_terminal(game.state) or any(bot_controlled(game.seats[s]) for s in engine.to_act(game.state)):
                draft.state = copy_data(game.state)  # the bots move on it
                outcome = Outcome(game=game)
                await self.play.advance(game, draft, outcome, [])
                return outcome
            if game.deadline_at is None:
                assert draft.state is not None  # shared with the running game's row
                timers: dict[str, Any] = await self.play.deadline_fields(draft, engine, draft.state)
                if timers["deadline_at"] is not None:
                    for key, value in timers.items():
                        setattr(draft, key, value)
                    await tables.commit(game, draft)
            return None
