"""Shared checks for a game's search sampler (issue 18): along seeded normal-bot games,
every seat that must decide gets, from ``engine.sample_state``, a state with its exact view
and legal actions, while the hidden information really is dealt anew."""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Callable

from bot.games import get_engine


def check_sampler(key: str, games: list[tuple[int, dict[str, Any], int]],
                  moment: Callable[[dict[str, Any]], str] = lambda s: s.get("phase", ""),
                  samples: int = 1) -> Counter:
    """Play each (players, options, seed) game with normal bots; at every decision check
    ``samples`` sampled states for every seat to act. Returns how many checks each ``moment`` got."""
    engine = get_engine(key)
    moments: Counter = Counter()
    differs = checked = 0
    for n, options, seed in games:
        state = engine.setup([f"P{i}" for i in range(n)], options, seed)
        rng = random.Random(seed)
        while not engine.is_terminal(state):
            for seat, _ in [(s, i) for s in engine.to_act(state) for i in range(samples)]:
                view = engine.view(state, seat)
                sample = engine.sample_state(json.loads(json.dumps(view)), seat, random.Random(checked))
                assert sample is not None, (seed, moment(state))
                assert engine.view(sample, seat) == view, (seed, moment(state))
                assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
                assert json.loads(json.dumps(sample)) == sample  # plain JSON like any state
                # the sample plays on to the end like a true state
                if checked % 25 == 0:
                    trial = json.loads(json.dumps(sample))
                    bots = random.Random(checked)
                    while not engine.is_terminal(trial):
                        who = engine.to_act(trial)[0]
                        engine.apply(trial, who, engine.bot_action(trial, who, bots))
                differs += sample != state
                checked += 1
                moments[moment(state)] += 1
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.bot_action(state, seat, rng))
    assert checked > 100 and differs > checked * 0.9, (checked, differs)
    return moments
