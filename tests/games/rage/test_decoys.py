"""Wizard's Rage, issue 29 item 4: no simple guess finds a card's real token among its decoys better than chance.

Before, the decoys copied only the real token's distance from the heroes: the tile nearest the tower held the
real token 51.8% of the time against 40.8% by chance, the one the bot liked best 68.6% (3,000 placements). The
tuned rules now draw the decoys from the wizard bot's own placing weights (bot/games/rage/placement.py)."""
from __future__ import annotations

import pytest

from tests.games.rage.decoys import placements, report

PLACEMENTS = 3000
MARGIN = 0.03  # at most chance + 3 points


@pytest.mark.parametrize("rules", ["tuned", "rulebook"])
def test_no_simple_guess_finds_the_real_token(rules):
    """3,000 placements of seeded 3-5 player bot games (8 per moment the wizard places a card, as in play: tuned,
    the bot's real tile and the engine's decoy; by the rulebook, the bot's real tile and then the bot's own pick for
    the decoy, by the same policy): every simple guess at most 3 points above chance. (With one placement per
    moment, 3,000 moments: ``python -m tests.games.rage.decoys 3000 tuned 1``, about 10 s.)"""
    tally = placements(PLACEMENTS, draws=8, options={"rules": rules})
    assert tally.placements >= PLACEMENTS
    for name in ("nearest the tower", "nearest the keys", "nearest the heroes", "nearest the camps",
                 "first in the list", "last in the list", "the wizard bot's favourite"):  # the list
        assert name in tally.hits
    chance = tally.chance_rate()
    assert 0.3 < chance < 0.55
    worst = max(tally.rates().values())
    assert worst <= chance + MARGIN, report(tally)


def test_decoys_point_at_the_vaults_only_for_a_wizard_who_guards_them(monkeypatch):
    """A vault's weight follows the wizard's own habit: a wizard who puts real tokens on the vaults gets decoys on
    the other vaults (else the tile nearest a key would be the real one); one who keeps them off gets decoys that
    go to the vaults barely more than if they weren't vaults (the engine must not give a human wizard's keys
    away)."""
    import copy

    from bot.games.rage import ENGINE, placement
    from tests.games.rage.scenario import RageTable, tile_index

    table = RageTable.ready(keys=[4, 14, 22]).wizard(empty_hand=True, mana=3)  # E1, E3, C5
    st = table.state
    ENGINE.apply(st, 0, {"type": "play", "card": table.wizard_holds("skeletons")})  # 1 decoy

    def share_on_vaults(habit: list[int]) -> float:
        hits = 0
        for seed in range(200):
            trial = copy.deepcopy(st)
            trial["wizard"]["habit"] = list(habit)
            trial["rng"] = seed
            hits += sum(i in (4, 14, 22) for i in ENGINE.decoy_tiles(trial, tile_index(st, "B2"), 1, False))
        return hits / 200
    guards, keeps_off = share_on_vaults([12, 12]), share_on_vaults([0, 12])
    monkeypatch.setattr(placement, "KEY", 1.0)
    plain = share_on_vaults([0, 12])  # as if the vaults were rooms like any other
    assert guards > 0.45 and keeps_off < 1.5 * plain, (guards, keeps_off, plain)
