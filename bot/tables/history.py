"""History: a game rebuilt from its seed and action log alone (``/game replay``, the animated replay,
``/game log``), for games played under the rules revision this code runs (see ``replays_here``).

It reads the database, not the cache: a replay never touches a game being played. The rebuilding runs on a
worker thread, so the event loop stays free while a long game is replayed.
"""
from __future__ import annotations

import asyncio
from typing import Any

from bot.engine import Engine
from bot.storage import GameRow
from bot.storage_protocol import StorageProtocol
from bot.tables.cache import engine_of
from bot.tables.common import TableError, engine_options, require_replayable
from bot.turns import replay_turns


class History:
    """Replays and the public log of started games."""
    def __init__(self, storage: StorageProtocol) -> None:
        self.storage = storage

    async def _started_game_log(self, game_id: int) -> tuple[GameRow, Engine, list[dict[str, Any]]]:
        """A game that started, its engine and its whole action log (for replays)."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"There is no game #{game_id}.")
        if not game.started:
            raise TableError(f"Game #{game_id} never started.")
        require_replayable(game)
        return game, engine_of(game), await self.storage.actions(game.id)

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
        engine = engine_of(game)
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
