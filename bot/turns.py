"""When a turn passes: one rule shared by the living board and the animated replay.

A turn is the stretch of decisions during which the same seats keep acting: the
wizard placing tokens one by one, a card power's follow-up choice, a bot's
consecutive moves, or a simultaneous phase whose seats drop out as they commit.
The turn passes when a seat that was not acting before must now act (or the game
ends), e.g. the wizard hands over to the heroes, or the next player's turn begins.
Whose turn it is comes from the engine's ``turn_seats`` (by default: who may act).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine import Engine


def turn_passed(before: Iterable[int], after: Iterable[int]) -> bool:
    """True when the seats to act ``after`` a move are not among those ``before`` it
    (a new player is up, or nobody is: the game ended)."""
    after_set = set(after)
    return not after_set or not after_set <= set(before)


def turn_snapshots(engine: Engine, names: list[str], options: dict[str, Any], seed: int,
                   log: Iterable[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Replay ``log`` ((seat, action) pairs) from the seed and return the public view
    at the start of the game and at every turn change, as ``(moves made, view)``."""
    return replay_turns(engine, names, options, seed, log)[0]


def replay_turns(engine: Engine, names: list[str], options: dict[str, Any], seed: int,
                 log: Iterable[tuple[int, dict[str, Any]]]) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any]]:
    """``turn_snapshots`` and the final state."""
    state = engine.setup(names, options, seed)
    snapshots = [(0, engine.view(state, None))]
    moves = 0
    for seat, action in log:
        before = engine.turn_seats(state)
        engine.apply(state, seat, action)
        moves += 1
        if turn_passed(before, engine.turn_seats(state)):
            snapshots.append((moves, engine.view(state, None)))
    if snapshots[-1][0] != moves:
        snapshots.append((moves, engine.view(state, None)))
    return snapshots, state
