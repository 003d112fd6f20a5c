"""Look-alike values never pass the engine's legality check.

``2.0``, ``True``, ``"2"``, ``[2]`` compare or print like ``2``; an action that carries
one, or has a key too many or too few, is not a legal action. For random reachable
states of every game (seeded random playouts, every player count), each legal action
of each seat that may act is mutated into look-alikes; applying one must raise
RuleError with a sentence a player can read and leave the state byte-identical (as
JSON). So must an acting seat given as ``True`` or ``1.0``, and an action that is not
a dict at all; and so must a number no move has (infinite, NaN, astronomically large)."""
from __future__ import annotations

import copy
import json
import random
from typing import Any, Iterator

import pytest

from bot.engine import Engine, RuleError
from bot.games import registry

GAMES = sorted(registry())
SEEDS = (1, 2)
STATES_PER_GAME = 10  # sampled along each playout
ACTIONS_PER_STATE = 6


def lookalikes(value: Any) -> Iterator[Any]:
    """Values that a loose comparison or a str() would confuse with ``value``."""
    if type(value) is bool:
        yield int(value)
        yield str(value).lower()
    elif type(value) is int:
        yield float(value)
        yield str(value)
        if value in (0, 1):
            yield bool(value)
    elif type(value) is str:
        if value.lstrip("-").isdigit():
            yield int(value)
        yield value.upper() if value != value.upper() else value.lower()
        yield value + " "
    elif value is None:
        yield 0
        yield "None"
        yield False
    elif type(value) is list:
        yield tuple(value)
        if value:
            yield value[:-1]
            yield value + value[-1:]
            yield value[0]
    yield [value]  # nested one level deeper


# Numbers no move has (issue 27, item 13): not finite, or too large for any game's count, index or id (Tower's
# ``{"type": "claim", "floor": inf}`` raised OverflowError in its explanation).
EXTREMES = (float("inf"), float("-inf"), float("nan"), 1e308, 10**30, -(10**30))


def mutations(action: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(what changed, the mutated action) for one legal action."""
    for key, value in action.items():
        for other in lookalikes(value):
            yield f"{key}={other!r}", {**action, key: other}
        if type(value) in (int, float):
            for other in EXTREMES:
                yield f"{key}={other!r}", {**action, key: other}
        if type(value) is list:
            for i, item in enumerate(value):
                for other in lookalikes(item):
                    yield f"{key}[{i}]={other!r}", {**action, key: value[:i] + [other] + value[i + 1:]}
        if key != "type":
            rest = dict(action)
            del rest[key]
            yield f"without {key}", rest
    yield "extra key", {**action, "extra": 1}
    yield "a list", list(action.items())
    yield "a string", json.dumps(action)


def exact(value: Any) -> str:
    """The same text only for identical values (True is not 1, 2.0 is not 2, a tuple
    is not a list): this test's own yardstick, independent of the engine's."""
    def typed(v: Any) -> Any:
        if type(v) is dict:
            return {"dict": {repr(k): typed(item) for k, item in v.items()}}
        if type(v) in (list, tuple):
            return {type(v).__name__: [typed(item) for item in v]}
        return [type(v).__name__, v]
    return json.dumps(typed(value), sort_keys=True)


def reachable(engine: Engine, players: int, seed: int) -> Iterator[dict[str, Any]]:
    """States along one random game: a uniform sample of them, plus the first state
    where each kind of action was offered (so every card power's decision is met)."""
    state = engine.setup([f"P{i + 1}" for i in range(players)], engine.meta.resolve_options({}), seed)
    chooser = random.Random(seed * 31 + players)
    sample: list[tuple[int, dict[str, Any]]] = []
    first_of_kind: dict[str, tuple[int, dict[str, Any]]] = {}
    for step in range(5000):
        if engine.is_terminal(state):
            break
        seat = chooser.choice(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        slot = step if step < STATES_PER_GAME else chooser.randrange(step + 1)
        new_kinds = {action["type"] for action in legal} - set(first_of_kind)
        if slot < STATES_PER_GAME or new_kinds:
            snapshot = (step, copy.deepcopy(state))
            if slot == len(sample):
                sample.append(snapshot)
            elif slot < STATES_PER_GAME:
                sample[slot] = snapshot
            first_of_kind.update(dict.fromkeys(new_kinds, snapshot))
        engine.apply(state, seat, chooser.choice(legal))
    chosen = dict(sample) | dict(first_of_kind.values())
    for step in sorted(chosen):
        yield chosen[step]


def assert_refused(engine: Engine, state: dict[str, Any], seat: Any, action: Any, what: str) -> None:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError) as caught:
        engine.apply(state, seat, action)
    message = str(caught.value)
    assert message and message[0].isupper() and message.rstrip()[-1] in ".!?)'\"", f"{what}: unreadable {message!r}"
    assert "Traceback" not in message and "object at 0x" not in message, f"{what}: {message!r}"
    assert json.dumps(state, sort_keys=True) == before, f"{what} changed the state before it was refused"


@pytest.mark.parametrize("key", GAMES)
def test_lookalike_actions_are_refused_and_change_nothing(key):
    engine = registry()[key]
    tried = 0
    for players in range(engine.meta.min_players, engine.meta.max_players + 1):
        for seed in SEEDS:
            for state in reachable(engine, players, seed):
                chooser = random.Random(f"{key}-{players}-{seed}-{tried}")
                for seat in engine.to_act(state):
                    legal = engine.legal_actions(state, seat)
                    legal_forms = {exact(a) for a in legal}
                    for action in chooser.sample(legal, min(ACTIONS_PER_STATE, len(legal))):
                        for what, mutated in mutations(action):
                            if exact(mutated) in legal_forms:
                                continue  # e.g. dropping an optional key gave another legal move
                            where = f"{key} ({players} players, seed {seed}) seat {seat} {action} -> {what}"
                            assert_refused(engine, state, seat, mutated, where)
                            tried += 1
                    seat_lookalikes = [float(seat), str(seat)] + ([bool(seat)] if seat in (0, 1) else [])
                    for other in seat_lookalikes:
                        assert_refused(engine, state, other, legal[0], f"{key} seat {other!r}")
    print(f"{key}: {tried} look-alike moves refused")
    assert tried > 200, f"only {tried} look-alikes tried for {key}"
