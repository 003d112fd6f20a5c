"""The Tower bot's fast path (issue 18): the cached haul figures and the bot's expected prestige
must be exactly what the engine's own scoring figures give, so the bot decides as before."""
from __future__ import annotations

import math
import random

import pytest

from bot.games.tower import ENGINE, bot_player, cards

OPTION_SETS = [{}, {"special_set": "B"}, {"master_thief": True}]


def slow_figures(haul: list[int], sand: int | None) -> tuple[tuple[int, ...], int]:
    """The figures as the engine scores them: ``haul_stats`` read through ``tile_metric``."""
    stats = cards.haul_stats(haul, sand)
    return tuple(cards.tile_metric(t, stats) for t in cards.SCORING_TILES), stats["card_prestige"]


def slow_value(model: bot_player.Model, hauls: list[list[int]], sand: int | None, who: int) -> float:
    """The bot's expected prestige as it was first written, from the engine's scoring figures."""
    stats = [cards.haul_stats(h, sand) for h in hauls]
    total = float(stats[who]["card_prestige"])
    for tile in model.tiles:
        vals = [cards.tile_metric(tile, x) for x in stats]
        mine = vals[who]
        rivals = [v for i, v in enumerate(vals) if i != who]
        margin = mine - max(rivals) if tile["kind"] == "most" else min(rivals) - mine
        if tile["metric"] == "suit" and mine == 0 and margin <= 0:
            continue
        chance = 1.0 / (1.0 + math.exp(-((margin - 0.5) / bot_player.SCALE[tile["metric"]])))
        total += tile["prestige"] * chance
    return total


def test_haul_figures_are_the_engines_figures():
    """Random hauls, with the Sand of Illusion under a card of the haul, under one elsewhere, or none."""
    rng = random.Random(18)
    ids = list(range(cards.N_CARDS))
    checked = 0
    for _ in range(3000):
        haul = rng.sample(ids, rng.randrange(0, 16))
        if rng.random() < 0.4 and cards.SAND not in haul:
            haul.append(cards.SAND)
        for sand in (None, rng.choice(ids), *(c for c in haul[:2] if cards.sand_target_ok(c))):
            assert cards.haul_figures(tuple(haul), sand) == slow_figures(haul, sand)
            checked += 1
    # the cache answers again with the same figures (a hit, not a fresh sum)
    haul = [cards.SAND, 0, 5, 16, 30]
    assert cards.haul_figures(tuple(haul), 0) == slow_figures(haul, 0)
    assert cards.haul_figures(tuple(haul), 0)[0] != cards.haul_figures(tuple(haul), None)[0]
    assert checked > 3000


def models():
    """(model, seat) for every seat at every moment of seeded bot games, 2 to 5 players."""
    for g, options in enumerate(OPTION_SETS):
        for n in range(2, 6):
            state = ENGINE.setup([f"P{i}" for i in range(n)], options, 100 * g + n)
            rng = random.Random(n)
            while not ENGINE.is_terminal(state):
                seat = ENGINE.to_act(state)[0]
                for s in range(n):
                    yield bot_player.Model(ENGINE.view(state, s), s), s
                ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))


@pytest.mark.parametrize("with_sand", [False, True])
def test_the_bots_value_is_exactly_the_first_formula(with_sand):
    """Model.value and Model.value_with give bit for bit the float of the original formula on the
    engine's figures, for every seat, with a card added, swapped, or the Sand moved."""
    rng = random.Random(int(with_sand))
    checked = 0
    for model, seat in models():
        if rng.random() < 0.5:
            continue
        sand = model.sand
        if with_sand:
            options = [c for c in model.hauls[seat] if cards.sand_target_ok(c)]
            sand = rng.choice(options) if options else None
        for who in range(model.n):
            assert model.value(None, sand, who=who) == slow_value(model, model.hauls, sand, who)
        cid = rng.choice([c for c in range(cards.N_CARDS) if all(c not in h for h in model.hauls)])
        other = rng.randrange(model.n)
        remove = rng.choice(model.hauls[other]) if model.hauls[other] else None
        for who in range(model.n):
            hauls = model.with_card(other, cid, remove)
            expected = slow_value(model, hauls, model.sand, who)
            assert model.value(hauls, who=who) == expected
            assert model.value_with(other, cid, remove, who=who) == expected
        checked += 1
    assert checked > 200


def test_with_card_leaves_the_model_as_it_was():
    """The hauls ``with_card`` returns share only unchanged lists: the model's own hauls stay put."""
    for model, seat in models():
        if model.hauls[seat]:
            before = [list(h) for h in model.hauls]
            hauls = model.with_card(seat, 99, remove=model.hauls[seat][0])
            assert hauls[seat] != model.hauls[seat] and model.hauls == before
            return
