"""The table service: lobbies, seats, turns, bot seats and deadlines.

It knows the engines and the storage, never Discord: the cogs turn Discord
interactions into calls here and turn the returned :class:`Outcome` into
messages. Every rule a player meets here raises :class:`TableError` with a
sentence the player can read.
"""
from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.engine import Engine, RuleError
from bot.games import get_engine, registry
from bot.storage import ChannelBusy, GameRow, GuildSettings, Storage, VersionConflict
from bot.turns import replay_turns, turn_passed

log = logging.getLogger("heistcord.tables")

MISSED_TURNS_LIMIT = 3  # missed deadlines in a row before a bot takes the seat
BOT_STEP_LIMIT = 5000  # bot moves in one go: a guard against an engine bug looping forever


class TableError(Exception):
    """A wrong move at the table (not a game rule): the text is shown to the user."""


@dataclass
class Outcome:
    game: GameRow
    events: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    changed_private: set[int] = field(default_factory=set)
    finished: bool = False
    results: list[dict[str, Any]] | None = None
    missed: list[int] = field(default_factory=list)  # seats whose deadline passed
    benched: list[int] = field(default_factory=list)  # seats just handed to a bot for missing turns
    turn_passed: bool = False  # another player is up (see bot.turns): the board is posted anew, not edited

    @property
    def public_events(self) -> list[dict[str, Any]]:
        return [e for e in self.events if "to" not in e]


def seat_of(game: GameRow, user_id: int) -> int | None:
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


def parse_on_leave(value: Any) -> str:
    text = str(value).strip().lower()
    if text not in ("bot", "end"):
        raise TableError("When a player leaves, either a bot takes the seat (`bot`) or the game ends (`end`).")
    return text


def parse_platform_option(key: str, value: Any) -> Any:
    return parse_turn_minutes(value) if key == TURN_OPTION else parse_on_leave(value)


def parse_turn_minutes(value: Any) -> int:
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        raise TableError("The turn timer is a number of minutes (0 for none).") from None
    if not 0 <= minutes <= 10080:
        raise TableError("The turn timer must be between 0 and 10080 minutes (a week).")
    return minutes


def bot_controlled(seat: dict[str, Any]) -> bool:
    return bool(seat.get("bot") or seat.get("away"))


def bot_rng(game: GameRow, version: int) -> random.Random:
    return random.Random(game.seed * 1_000_003 + version)


class TableService:
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

    # --- loading ----------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _remember(self, game: GameRow) -> GameRow:
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            old_id, _ = self._cache.popitem(last=False)
            lock = self._locks.get(old_id)
            if lock is not None and not lock.locked():
                del self._locks[old_id]
        return game

    async def get(self, game_id: int) -> GameRow:
        game = self._cache.get(game_id)
        if game is None:
            game = await self.storage.get_game(game_id)
            if game is None:
                raise TableError(f"There is no game #{game_id}.")
            self._remember(game)
        return game

    async def in_channel(self, channel_id: int) -> GameRow | None:
        for game in self._cache.values():
            if game.channel_id == channel_id and game.status in ("lobby", "running"):
                return game
        game = await self.storage.active_game_in(channel_id)
        return self._remember(game) if game else None

    async def require_in_channel(self, channel_id: int) -> GameRow:
        game = await self.in_channel(channel_id)
        if game is None:
            raise TableError("There is no game in this channel. Open one with `/game new`.")
        return game

    @staticmethod
    def engine(game: GameRow) -> Engine:
        return get_engine(game.game_key)

    # --- lobby -------------------------------------------------------------------
    async def open(self, guild_id: int, channel_id: int, game_key: str, host_id: int, host_name: str,
                   raw_options: dict[str, Any] | None = None, *, is_manager: bool = False) -> GameRow:
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
        try:
            game_id = await self.storage.create_game(
                guild_id, channel_id, game_key, host_id, options, self.seed_source(),
                [{"user_id": host_id, "name": host_name}],
            )
        except ChannelBusy:
            existing = await self.storage.active_game_in(channel_id)
            name = get_engine(existing.game_key).meta.name if existing else "A game"
            raise TableError(f"{name} is already {'open' if existing and existing.status == 'lobby' else 'running'}"
                             " in this channel. Finish it (or `/game end` it) first.") from None
        game = await self.storage.get_game(game_id)
        log.info("game %s opened: %s in channel %s by %s", game_id, game_key, channel_id, host_id)
        return self._remember(game)

    async def set_option(self, channel_id: int, user_id: int, key: str, value: Any) -> GameRow:
        game = await self.require_in_channel(channel_id)
        async with self.lock(game.id):
            self._require_lobby(game)
            self._require_host(game, user_id)
            try:
                if key in PLATFORM_OPTIONS:
                    game.options["_" + key] = parse_platform_option(key, value)
                else:
                    game.options[key] = self.engine(game).meta.option(key).parse(value)
            except RuleError as exc:
                raise TableError(str(exc)) from None
            await self.storage.update_game(game.id, options=game.options)
        return game

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        game = await self.get(game_id)
        async with self.lock(game.id):
            self._require_lobby(game)
            if seat_of(game, user_id) is not None:
                raise TableError("You're already seated at this table.")
            meta = self.engine(game).meta
            if len(game.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            game.seats.append({"user_id": user_id, "name": self._unique_name(game, name)})
            await self.storage.update_game(game.id, seats=game.seats)
        return game

    async def add_bot(self, game_id: int, user_id: int) -> GameRow:
        game = await self.get(game_id)
        async with self.lock(game.id):
            self._require_lobby(game)
            self._require_host(game, user_id)
            meta = self.engine(game).meta
            if len(game.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            number = sum(1 for s in game.seats if s.get("bot")) + 1
            game.seats.append({"user_id": None, "name": self._unique_name(game, f"Bot {number}"), "bot": True})
            await self.storage.update_game(game.id, seats=game.seats)
        return game

    async def leave(self, game_id: int, user_id: int) -> tuple[GameRow, Outcome | None]:
        """Leave a lobby (the table closes when its last human leaves), or a running
        game (the seat goes to a bot or the game ends, as the server chose)."""
        game = await self.get(game_id)
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not seated at this table.")
        if game.status == "running":
            return game, await self.remove_player(game.id, user_id)
        async with self.lock(game.id):
            self._require_lobby(game)
            game.seats.pop(seat)
            humans = [s for s in game.seats if not s.get("bot")]
            if not humans:
                game.status = "ended"
                game.ended_reason = "Everyone left the lobby."
                await self.storage.update_game(game.id, seats=game.seats, status="ended", ended_reason=game.ended_reason)
            else:
                if game.host_id == user_id:
                    game.host_id = humans[0]["user_id"]
                await self.storage.update_game(game.id, seats=game.seats, host_id=game.host_id)
        return game, None

    async def start(self, game_id: int, user_id: int, *, is_manager: bool = False) -> Outcome:
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
            state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
            game.state = state
            game.status = "running"
            await self.storage.update_game(game.id, expected_version=None, state=state, status="running")
            outcome = Outcome(game=game, events=[{"type": "start", "text": f"{meta.name} begins!"}])
            outcome.changed_private = {i for i in range(len(game.seats))}
            await self._advance(game, outcome, [])
            log.info("game %s started with %d seats", game.id, len(game.seats))
            return outcome

    # --- play ----------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: dict[str, Any] | None = None, *,
                  version: int | None = None, index: int | None = None) -> Outcome:
        """Apply a player's move: either ``action`` itself, or the ``index``-th legal
        action at ``version`` (what a panel button carries)."""
        game = await self.get(game_id)
        async with self.lock(game.id):
            seat = self.require_seat(game, user_id)
            engine = self.engine(game)
            if version is not None and version != game.version:
                raise TableError("That panel is out of date: the game has moved on. Here is a fresh one.")
            if action is None:
                legal = engine.legal_actions(game.state, seat)
                if index is None or not 0 <= index < len(legal):
                    raise TableError("That move is no longer available.")
                action = legal[index]
            if game.seats[seat].get("away"):
                game.seats[seat]["away"] = False  # acting brings a benched player back
            game.seats[seat]["missed"] = 0
            state = copy.deepcopy(game.state)
            try:
                events = engine.apply(state, seat, action)
            except RuleError as exc:
                raise TableError(str(exc)) from None
            outcome = Outcome(game=game)
            await self._advance(game, outcome, [(seat, user_id, action, events)], new_state=state)
            return outcome

    async def _advance(self, game: GameRow, outcome: Outcome,
                       applied: list[tuple[int, int | None, dict[str, Any], list[dict[str, Any]]]],
                       new_state: dict[str, Any] | None = None) -> None:
        """Let bot seats play, then store the state and the new log entries at once."""
        engine = self.engine(game)
        before_private = self._private_parts(engine, game.state)
        state = new_state if new_state is not None else game.state
        acting = engine.turn_seats(game.state) if game.state is not None and applied else []
        passed = not applied or turn_passed(acting, engine.turn_seats(state))
        moves = [(seat, user, action) for seat, user, action, _ in applied]
        for _, _, _, events in applied:
            outcome.events.extend(events)
        version = game.version + len(moves)
        for _ in range(BOT_STEP_LIMIT):
            if engine.is_terminal(state):
                break
            bots = [s for s in engine.to_act(state) if bot_controlled(game.seats[s])]
            if not bots:
                break
            seat = bots[0]
            action = engine.bot_action(state, seat, bot_rng(game, version))
            acting = engine.turn_seats(state)
            outcome.events.extend(engine.apply(state, seat, action))
            passed = passed or turn_passed(acting, engine.turn_seats(state))
            moves.append((seat, None, action))
            version += 1
        else:
            log.error("game %s: bots did not finish within %d moves", game.id, BOT_STEP_LIMIT)
        fields: dict[str, Any] = {"seats": game.seats}
        finished = engine.is_terminal(state)
        if finished:
            fields.update(status="finished", deadline_at=None, reminder_at=None)
        else:
            fields.update(await self._deadline_fields(game, engine, state))
        try:
            if moves:
                new_version = await self.storage.commit_actions(game.id, game.version, state,
                                                                ((s, u, a) for s, u, a in moves), **fields)
            else:
                await self.storage.update_game(game.id, **fields)
                new_version = game.version
        except VersionConflict:
            self._cache.pop(game.id, None)
            raise TableError("Someone else moved at the same moment; that move was not applied.") from None
        game.state = state
        game.version = new_version
        for key, value in fields.items():
            setattr(game, key, value)
        outcome.moves = [(s, a) for s, _, a in moves]
        outcome.turn_passed = outcome.turn_passed or passed
        after_private = self._private_parts(engine, state)
        outcome.changed_private |= {s for s in range(len(game.seats)) if before_private.get(s) != after_private.get(s)}
        if finished:
            outcome.finished = True
            outcome.results = engine.scores(state)
            await self.storage.record_results(game, outcome.results)
            log.info("game %s finished", game.id)
        for seat, user, action in moves:
            log.info("game %s seat %s (%s) played %s", game.id, seat, user or "bot", json.dumps(action))

    @staticmethod
    def _private_parts(engine: Engine, state: dict[str, Any] | None) -> dict[int, str]:
        if not state:
            return {}
        return {s: json.dumps(engine.view(state, s).get("private"), sort_keys=True)
                for s in range(len(state.get("names", [])))}

    # --- deadlines -------------------------------------------------------------------
    async def turn_minutes(self, game: GameRow) -> int:
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
        for row in await self.storage.due_deadlines(now):
            game = await self.get(row.id)
            async with self.lock(game.id):
                if game.status != "running":
                    continue
                engine = self.engine(game)
                waiting = [s for s in engine.to_act(game.state) if not bot_controlled(game.seats[s])]
                if game.deadline_at is not None and game.deadline_at <= now and waiting:
                    outcome = Outcome(game=game, missed=waiting)
                    state = copy.deepcopy(game.state)
                    applied = []
                    for seat in waiting:
                        if seat not in engine.to_act(state):
                            continue
                        action = engine.timeout_action(state, seat, bot_rng(game, game.version + len(applied)))
                        applied.append((seat, None, action, engine.apply(state, seat, action)))
                        game.seats[seat]["missed"] = game.seats[seat].get("missed", 0) + 1
                        if game.seats[seat]["missed"] >= MISSED_TURNS_LIMIT and not game.seats[seat].get("away"):
                            game.seats[seat]["away"] = True
                            outcome.benched.append(seat)
                    await self._advance(game, outcome, applied, new_state=state)
                    fired.append(("deadline", outcome))
                elif game.reminder_at is not None and game.reminder_at <= now and waiting:
                    await self.storage.update_game(game.id, reminder_at=None)
                    game.reminder_at = None
                    fired.append(("reminder", Outcome(game=game, missed=waiting)))
                else:
                    await self.storage.update_game(game.id, reminder_at=None,
                                                   deadline_at=game.deadline_at if waiting else None)
                    game.reminder_at = None
        return fired

    async def rejoin(self, channel_id: int, user_id: int) -> GameRow:
        game = await self.require_in_channel(channel_id)
        async with self.lock(game.id):
            seat = seat_of(game, user_id)
            if seat is None:
                raise TableError("You're not seated at this table.")
            if not game.seats[seat].get("away"):
                raise TableError("You're already playing your own seat.")
            game.seats[seat]["away"] = False
            game.seats[seat]["missed"] = 0
            await self.storage.update_game(game.id, seats=game.seats)
        return game

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
            state = copy.deepcopy(game.state)
            on_leave = game.options.get("_" + LEAVE_OPTION, settings.on_leave)  # the host's choice, else the server's
            events = engine.remove_seat(state, seat) if on_leave == "bot" else None
            if events is None:
                outcome = Outcome(game=game)
                await self._finish_ended(game, f"{name} left, so the game ended.")
                outcome.events.append({"type": "ended", "text": game.ended_reason})
                return outcome
            game.seats[seat].update(bot=True, user_id=None, left_user_id=user_id)
            outcome = Outcome(game=game, events=[{"type": "left", "text": f"{name} left; a bot plays their seat now."}])
            outcome.events.extend(events)
            await self._advance(game, outcome, [], new_state=state)
            return outcome

    async def end(self, game_id: int, reason: str) -> GameRow:
        game = await self.get(game_id)
        async with self.lock(game.id):
            if game.status not in ("lobby", "running"):
                raise TableError("That game has already ended.")
            await self._finish_ended(game, reason)
        return game

    async def _finish_ended(self, game: GameRow, reason: str) -> None:
        game.status = "ended"
        game.ended_reason = reason
        await self.storage.update_game(game.id, status="ended", ended_reason=reason, deadline_at=None, reminder_at=None)
        log.info("game %s ended: %s", game.id, reason)

    async def move_to_thread(self, game: GameRow, thread_id: int) -> None:
        """The game now lives in ``thread_id`` (made from its lobby message); its
        channel is free for another table."""
        async with self.lock(game.id):
            await self.storage.update_game(game.id, channel_id=thread_id, parent_channel_id=game.channel_id)
            game.parent_channel_id, game.channel_id = game.channel_id, thread_id

    async def set_message(self, game: GameRow, **ids: int) -> None:
        for key, value in ids.items():
            setattr(game, key, value)
        await self.storage.update_game(game.id, **ids)

    # --- replay -------------------------------------------------------------------------
    async def replay(self, game_id: int, move: int | None = None) -> tuple[GameRow, dict[str, Any], int]:
        """The state after ``move`` actions (all of them by default), rebuilt from
        the seed and the action log alone."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"There is no game #{game_id}.")
        if game.state is None:
            raise TableError(f"Game #{game_id} never started.")
        engine = self.engine(game)
        entries = await self.storage.actions(game.id)
        if move is not None and not 0 <= move <= len(entries):
            raise TableError(f"Game #{game_id} has moves 0 to {len(entries)}.")
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        for entry in entries[: len(entries) if move is None else move]:
            engine.apply(state, entry["seat"], entry["action"])
        return game, state, len(entries)

    async def replay_turns(self, game_id: int) -> tuple[GameRow, list[tuple[int, dict[str, Any]]], int,
                                                      list[dict[str, Any]] | None]:
        """For the animated replay: the public view at the start and after every turn
        (rebuilt from the log on a worker thread, so the event loop stays free), the
        number of moves, and the final scores if the game finished."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"There is no game #{game_id}.")
        if game.state is None:
            raise TableError(f"Game #{game_id} never started.")
        engine = self.engine(game)
        entries = await self.storage.actions(game.id)
        snapshots, state = await asyncio.to_thread(
            replay_turns, engine, [s["name"] for s in game.seats], engine_options(game), game.seed,
            [(entry["seat"], entry["action"]) for entry in entries])
        return game, snapshots, len(entries), engine.scores(state) if engine.is_terminal(state) else None

    async def public_log(self, game_id: int) -> list[tuple[int, str]]:
        """``(move number, sentence)`` for every public event, replayed from the log."""
        game = await self.storage.get_game(game_id)
        if game is None or game.state is None:
            return []
        engine = self.engine(game)
        state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
        lines: list[tuple[int, str]] = []
        for entry in await self.storage.actions(game.id):
            for event in engine.apply(state, entry["seat"], entry["action"]):
                if "to" not in event and event.get("text"):
                    lines.append((entry["seq"], event["text"]))
        return lines

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
        if game.status == "lobby":
            raise TableError("The game hasn't started yet.")
        if game.status != "running":
            raise TableError("This game is over.")
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not playing in this game: you can watch, but only seated players act.")
        return seat

    def waiting_seats(self, game: GameRow) -> list[int]:
        if game.status != "running" or not game.state:
            return []
        return self.engine(game).to_act(game.state)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.storage.settings(guild_id)

