"""The lobby and the table's life: opening a table, its options, seating players and bots, leaving, starting,
ending, and where the table is shown (its channel or thread, its messages, each seat's DM).

Lobby changes never touch a game's state: each is a function applied to a copy of the row by
:meth:`bot.tables.cache.Tables.change`. Starting hands the new game to :meth:`bot.tables.play.Play.advance`
(the bots' first moves and the first turn's timers, in the same write); a player leaving a running game is
:meth:`bot.tables.play.Play.remove_player`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import RuleError
from bot.games import get_engine, registry
from bot.search import DEFAULT_LEVEL, parse_level
from bot.storage import ChannelBusyError, GameRow, StorageError
from bot.tables.cache import Tables, engine_of
from bot.tables.common import (
    CHANGED_ELSEWHERE,
    PLATFORM_OPTIONS,
    REVISION,
    Outcome,
    TableError,
    engine_options,
    log,
    parse_platform_option,
    seat_of,
)
from bot.tables.play import Play


class Lobby:
    """Opening, seating, options, start and end of tables."""
    def __init__(self, tables: Tables, play: Play, *, seed_source: Callable[[], int]) -> None:
        self.tables = tables
        self.play = play
        self.storage = tables.storage
        self.seed_source = seed_source

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
        return self.tables.remember(game)

    async def set_option(self, channel_id: int, user_id: int, key: str, value: Any) -> GameRow:
        """The host changes one of the lobby's options (a game option or a platform one)."""
        game = await self.tables.require_in_channel(channel_id)

        def change(draft: GameRow) -> None:
            _require_lobby(draft)
            _require_host(draft, user_id)
            try:
                if key in PLATFORM_OPTIONS:
                    draft.options["_" + key] = parse_platform_option(key, value)
                else:
                    draft.options[key] = engine_of(draft).meta.option(key).parse(value)
            except RuleError as exc:
                raise TableError(str(exc)) from None

        return await self.tables.change(game.id, change)

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        """Seat a player in the lobby, if there is room."""
        def change(draft: GameRow) -> None:
            _require_lobby(draft)
            if seat_of(draft, user_id) is not None:
                raise TableError("You're already seated at this table.")
            meta = engine_of(draft).meta
            if len(draft.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            draft.seats.append({"user_id": user_id, "name": _unique_name(draft, name)})

        return await self.tables.change(game_id, change)

    async def add_bot(self, game_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> GameRow:
        """Seat a bot player of ``level`` in the lobby, if there is room."""
        try:
            level = parse_level(level)
        except ValueError as exc:
            raise TableError(str(exc)) from None

        def change(draft: GameRow) -> None:
            _require_lobby(draft)
            _require_host(draft, user_id)
            meta = engine_of(draft).meta
            if len(draft.seats) >= meta.max_players:
                raise TableError(f"This table is full: {meta.name} seats at most {meta.max_players}.")
            number = sum(1 for s in draft.seats if s.get("bot")) + 1
            label = f"Bot {number}" if level == DEFAULT_LEVEL else f"Bot {number} ({level})"
            draft.seats.append({"user_id": None, "name": _unique_name(draft, label), "bot": True, "level": level})

        return await self.tables.change(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> tuple[GameRow, Outcome | None]:
        """Leave a lobby (the table closes when its last human leaves), or a running
        game (the seat goes to a bot or the game ends, as the server chose)."""
        game = await self.tables.get(game_id)
        seat = seat_of(game, user_id)
        if seat is None:
            raise TableError("You're not seated at this table.")
        if game.status == "running":
            return game, await self.play.remove_player(game.id, user_id)

        def change(draft: GameRow) -> None:
            _require_lobby(draft)
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

        return await self.tables.change(game.id, change), None

    async def start(self, game_id: int, user_id: int, *, is_manager: bool = False) -> Outcome:
        """The host (or a manager) starts the game: set up, first turn, timers; retried once on a stale copy."""
        try:
            return await self._start(game_id, user_id, is_manager)
        except TableError as exc:
            if str(exc) != CHANGED_ELSEWHERE:
                raise
            return await self._start(game_id, user_id, is_manager)  # once more, on the reloaded row

    async def _start(self, game_id: int, user_id: int, is_manager: bool) -> Outcome:
        game = await self.tables.get(game_id)
        async with self.tables.lock(game.id):
            _require_lobby(game)
            if not is_manager:
                _require_host(game, user_id)
            engine = engine_of(game)
            meta = engine.meta
            if len(game.seats) < meta.min_players:
                need = meta.min_players - len(game.seats)
                raise TableError(f"{meta.name} needs at least {meta.min_players} players: {need} more to go"
                                 " (friends can press Join, or the host can add a bot).")
            draft = self.tables.draft(game, state=False)
            draft.state = engine.setup([s["name"] for s in game.seats], engine_options(game), game.seed)
            draft.status = "running"
            outcome = Outcome(game=game, events=[{"type": "start", "text": f"{meta.name} begins!"}])
            outcome.changed_private = {i for i in range(len(game.seats))}
            await self.play.advance(game, draft, outcome, [])  # the start and the bots' first moves: one write
            log.info("game %s started with %d seats", game.id, len(game.seats))
            return outcome

    async def end(self, game_id: int, reason: str) -> GameRow:
        """End the game before its finish (``reason`` is shown); TableError if it already ended."""
        game = await self.tables.get(game_id)
        async with self.tables.lock(game.id):
            for attempt in range(2):
                if game.status not in ("lobby", "running"):
                    raise TableError("That game has already ended.")
                try:
                    await self.tables.finish_ended(game, reason)
                    break
                except TableError as exc:
                    if str(exc) != CHANGED_ELSEWHERE or attempt:
                        raise
        return game

    # --- where the table is shown ------------------------------------------------------
    async def move_to_thread(self, game: GameRow, thread_id: int) -> None:
        """The game now lives in ``thread_id`` (made from its lobby message); its
        channel is free for another table."""
        def change(draft: GameRow) -> None:
            draft.parent_channel_id, draft.channel_id = draft.channel_id, thread_id

        await self.tables.change(game.id, change)

    async def set_message(self, game: GameRow, **ids: int) -> None:
        """Remember the lobby or board message (best effort: a failed write only means
        an older message is refreshed later)."""
        def change(draft: GameRow) -> None:
            for key, value in ids.items():
                setattr(draft, key, value)

        try:
            await self.tables.change(game.id, change)
        except (TableError, StorageError) as exc:  # (a save in doubt, or a read that failed, too)
            log.warning("game %s: message ids not saved: %s", game.id, exc)

    async def set_seat_info(self, game: GameRow, info: dict[int, dict[str, Any]]) -> None:
        """Store per-seat delivery details (``{seat: {"dm": id, "dm_closed": bool}}``), best effort."""
        def change(draft: GameRow) -> None:
            for seat, values in info.items():
                draft.seats[seat].update(values)

        try:
            await self.tables.change(game.id, change)
        except (TableError, StorageError) as exc:
            log.warning("game %s: seat details not saved: %s", game.id, exc)


def _unique_name(game: GameRow, name: str) -> str:
    taken = {s["name"] for s in game.seats}
    base, n = name[:32], 2
    while name in taken:
        name = f"{base} ({n})"
        n += 1
    return name


def _require_lobby(game: GameRow) -> None:
    if game.status == "running":
        raise TableError("The game has already started.")
    if game.status != "lobby":
        raise TableError("That table is closed.")


def _require_host(game: GameRow, user_id: int) -> None:
    if user_id != game.host_id:
        raise TableError(f"Only the host (<@{game.host_id}>) can do that.")
