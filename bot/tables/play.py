"""Play: a player's move (typed, or a panel's click), the bot seats that move after it, the next turn's timers,
and the seats that change hands during a game (a player leaving, a benched player coming back).

:meth:`Play.advance` is the one step that moves a running game on: the bots play, then state, seats, timers, log
entries and results are stored in one write. Starting a game, a deadline passing and start-up recovery use it too.
"""
from __future__ import annotations

from typing import Any

from bot.engine import Engine, RuleError
from bot.search import DEFAULT_LEVEL, level_action
from bot.search import pool as search_pool
from bot.storage import GameRow
from bot.tables.cache import Tables, engine_of
from bot.tables.common import (
    LEAVE_OPTION,
    STALE_PANEL,
    TURN_OPTION,
    Applied,
    Outcome,
    TableError,
    bot_controlled,
    bot_rng,
    engine_options,
    log,
    replays_here,
    seat_of,
)
from bot.turns import turn_passed

MISSED_TURNS_LIMIT = 3  # missed deadlines in a row before a bot takes the seat
BOT_STEP_LIMIT = 5000  # bot moves in one go: a guard against an engine bug looping forever


class Play:
    """Moves, bot seats and turn timers of running games."""
    def __init__(self, tables: Tables, *, default_turn_minutes: int = 0) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.default_turn_minutes = default_turn_minutes

    # --- a player's move ---------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: dict[str, Any] | None = None, *,
                  version: int | None = None, index: int | None = None) -> Outcome:
        """Apply a player's move: either ``action`` itself, or the ``index``-th legal
        action at ``version`` (what a panel button carries)."""
        game = await self.tables.get(game_id)
        async with self.tables.lock(game.id):
            if game.status != "running":
                await self.tables.reload(game)  # a refusal is rare: make sure it isn't from an old copy
            seat = self.require_seat(game, user_id)
            engine = engine_of(game)
            if action is None:
                action = await self._resolve_click(game, seat, version, index)
            elif version is not None and version != game.version:
                raise TableError(STALE_PANEL)
            draft = self.tables.draft(game)
            assert game.state is not None and draft.state is not None  # only a running game takes moves
            if draft.seats[seat].get("away"):
                draft.seats[seat]["away"] = False  # acting brings a benched player back
            draft.seats[seat]["missed"] = 0
            try:
                events = engine.apply(draft.state, seat, action)
            except RuleError as exc:
                raise TableError(str(exc)) from None
            outcome = Outcome(game=game, label=engine.describe_action(game.state, seat, action))
            await self.advance(game, draft, outcome, [(seat, user_id, action, events)])
            return outcome

    @staticmethod
    def require_seat(game: GameRow, user_id: int) -> int:
        """The seat of ``user_id`` in a running game; TableError saying why they can't act."""
        if game.status == "lobby":
            raise TableError("The game hasn't started yet.")
        if game.status != "running":
            raise TableError("This game is over.")
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not playing in this game: you can watch, but only seated players act.")
        return seat

    @staticmethod
    def waiting_seats(game: GameRow) -> list[int]:
        """The seats whose move the running game waits for."""
        if game.status != "running" or not game.state:
            return []
        return engine_of(game).to_act(game.state)

    async def _resolve_click(self, game: GameRow, seat: int, version: int | None, index: int | None) -> dict[str, Any]:
        """The action behind a panel click (the ``index``-th legal action of ``seat`` at
        ``version``). In a simultaneous phase other seats may have acted since the panel
        was drawn: the click still counts if its own choice is legal now."""
        engine = engine_of(game)
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
        state = self.tables.recent_state(game.id, version)
        if state is not None or not replays_here(game):  # (a panel from before an update: stale)
            return state
        engine = engine_of(game)
        entries = await self.storage.actions_until(game.id, version)
        if len(entries) != version:
            return None
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        for entry in entries:
            engine.apply(state, entry["seat"], entry["action"])
        return state

    # --- moving the game on --------------------------------------------------------------
    async def advance(self, game: GameRow, draft: GameRow, outcome: Outcome, applied: list[Applied]) -> None:
        """Let bot seats play on ``draft``, then store everything in one transaction:
        state, seats, timers, the new log entries and, at the end, the results."""
        engine = engine_of(game)
        before_private = self.tables.private_views(game.id, engine, game.state)
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
            for key, value in (await self.deadline_fields(draft, engine, state)).items():
                setattr(draft, key, value)
        results = engine.scores(state) if finished else None
        await self.tables.commit(game, draft, moves=moves, results=results)
        outcome.moves = [(s, a) for s, _, a in moves]
        outcome.turn_passed = outcome.turn_passed or passed
        after_private = self.tables.private_views(game.id, engine, game.state)  # game.state is the new state now
        outcome.changed_private |= {s for s in range(len(game.seats)) if before_private.get(s) != after_private.get(s)}
        if finished:
            outcome.finished = True
            outcome.results = results
            log.info("game %s finished", game.id)
        # Only what the channel may see: a move's raw action can hold its secrets.
        for seat, user, events in told:
            public = " ".join(e["text"] for e in events if "to" not in e and e.get("text"))
            log.info("game %s seat %s (%s) moved: %s", game.id, seat, user or "bot", public or "(a hidden move)")

    async def _bot_move(self, game: GameRow, engine: Engine, state: dict[str, Any], info: dict[str, Any],
                        seat: int, version: int) -> dict[str, Any]:
        """A bot seat's move at its level (issue 18): a seat added as a bot keeps the level it was
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

    # --- the next turn's timers (fired by bot.tables.timers) --------------------------------
    async def turn_minutes(self, game: GameRow) -> int:
        """The game's turn timer: the table's choice, else the server's, else the bot's default."""
        if "_" + TURN_OPTION in game.options:
            return int(game.options["_" + TURN_OPTION])
        settings = await self.storage.settings(game.guild_id)
        if settings.turn_minutes is not None:
            return settings.turn_minutes
        return self.default_turn_minutes

    async def deadline_fields(self, game: GameRow, engine: Engine, state: dict[str, Any]) -> dict[str, Any]:
        """The ``deadline_at`` and ``reminder_at`` of the turn ``state`` waits on (None: no timer)."""
        waiting_humans = [s for s in engine.to_act(state) if not bot_controlled(game.seats[s])]
        if not waiting_humans:
            return {"deadline_at": None, "reminder_at": None}
        now = self.tables.clock()
        window = engine.window_seconds(state, engine_options(game))
        if window is not None:  # a short real-time window: no reminder, just the deadline
            return {"deadline_at": now + window, "reminder_at": None}
        minutes = await self.turn_minutes(game)
        if minutes <= 0:
            return {"deadline_at": None, "reminder_at": None}
        deadline = now + minutes * 60
        return {"deadline_at": deadline, "reminder_at": now + minutes * 60 * 0.75}

    # --- seats changing hands during a game -------------------------------------------------
    async def rejoin(self, channel_id: int, user_id: int) -> GameRow:
        """A player benched as away takes their seat back from the bot."""
        game = await self.tables.require_in_channel(channel_id)

        def change(draft: GameRow) -> None:
            seat = seat_of(draft, user_id)
            if seat is None:
                raise TableError("You're not seated at this table.")
            if not draft.seats[seat].get("away"):
                raise TableError("You're already playing your own seat.")
            draft.seats[seat]["away"] = False
            draft.seats[seat]["missed"] = 0

        return await self.tables.change(game.id, change)

    async def remove_player(self, game_id: int, user_id: int) -> Outcome:
        """A seated player leaves a running game (by choice, by an admin, or by
        leaving the server): a bot takes the seat, or the game ends."""
        game = await self.tables.get(game_id)
        settings = await self.storage.settings(game.guild_id)
        async with self.tables.lock(game.id):
            seat = seat_of(game, user_id)
            if seat is None:
                raise TableError("That player isn't seated at this table.")
            if game.status != "running":
                raise TableError("That game isn't running.")
            engine = engine_of(game)
            name = game.seats[seat]["name"]
            draft = self.tables.draft(game)
            assert draft.state is not None  # checked running above
            on_leave = game.options.get("_" + LEAVE_OPTION, settings.on_leave)  # the host's choice, else the server's
            events = engine.remove_seat(draft.state, seat) if on_leave == "bot" else None
            if events is None:
                outcome = Outcome(game=game)
                await self.tables.finish_ended(game, f"{name} left, so the game ended.")
                outcome.events.append({"type": "ended", "text": game.ended_reason})
                return outcome
            draft.seats[seat].update(bot=True, user_id=None, left_user_id=user_id)
            outcome = Outcome(game=game, events=[{"type": "left", "text": f"{name} left; a bot plays their seat now."}])
            outcome.events.extend(events)
            await self.advance(game, draft, outcome, [])
            return outcome
