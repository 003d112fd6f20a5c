"""The animated replay: one frame per turn, final scores last, under the upload limit."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import get_engine
from bot.turns import turn_passed, turn_snapshots
from rendering import renderer
from rendering.animate import UPLOAD_BUDGET, animate, render_replay


def test_a_turn_passes_when_a_new_seat_must_act_or_the_game_ends():
    assert not turn_passed([0], [0])  # a follow-up choice, the wizard's next token
    assert not turn_passed([1, 2, 3], [2, 3])  # a simultaneous phase: seats drop out as they commit
    assert turn_passed([0], [1])
    assert turn_passed([2, 3], [0])
    assert turn_passed([1], [1, 2])  # someone else joins in (an interrupt window)
    assert turn_passed([1], [])  # game over


def played(key: str, players: int, seed: int):
    engine = get_engine(key)
    options = engine.meta.resolve_options({})
    names = [f"P{i}" for i in range(players)]
    state = engine.setup(names, options, seed)
    rng, log = random.Random(seed), []
    while not engine.is_terminal(state):
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat, rng)
        engine.apply(state, seat, action)
        log.append((seat, action))
    return engine, names, options, state, log


def test_snapshots_are_public_views_at_each_turn_change():
    engine, names, options, final, log = played("tower", 3, 5)
    snaps = turn_snapshots(engine, names, options, 5, log)
    state = engine.setup(names, options, 5)
    expected = [0]
    for n, (seat, action) in enumerate(log, 1):
        before = engine.turn_seats(state)
        engine.apply(state, seat, action)
        if turn_passed(before, engine.turn_seats(state)):
            expected.append(n)
    assert [m for m, _ in snaps] == expected and expected[-1] == len(log)
    assert all("private" not in view for _, view in snaps)
    assert snaps[-1][1] == engine.view(final, None)


@pytest.mark.parametrize("key,players", [("tower", 3), ("rage", 3)])
def test_a_finished_game_animates_with_the_final_scores_last(key, players):
    engine, names, options, final, log = played(key, players, 2)
    snaps = turn_snapshots(engine, names, options, 2, log)
    data = render_replay(renderer(key), snaps, len(log), engine.scores(final))
    assert data[:6] == b"GIF89a" and len(data) <= UPLOAD_BUDGET
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == len(snaps) + 1
    assert image.info.get("loop") == 0


def test_a_small_budget_keeps_fewer_smaller_frames_first_and_last_included():
    # noise, so that frames don't compress to nothing
    frames = [(Image.merge("RGB", [Image.effect_noise((1000, 600), 40 + i + c) for c in range(3)]), f"frame {i}")
              for i in range(12)]
    big = animate(frames)
    small = animate(frames, budget=len(big) // 4)
    assert len(small) <= len(big) // 4
    shrunk = Image.open(io.BytesIO(small))
    assert shrunk.n_frames < 12 and shrunk.width < 800
