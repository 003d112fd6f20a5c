"""Refit the hard bot's judgement of a cut-short Wizard's Rage playout: ``python -m tools.fit_rage``.

Plays seeded normal-bot games (3, 4 and 5 players in turn), notes the sampler's ``features`` every
fourth move of the wizard's and the heroes' turns, and fits a logistic model of "the heroes win" on
them (Newton's method with a light ridge). In every other run of four games the wizard hides the keys
on tiles drawn at random: the normal bot always hides them alike (far from the camps), so without those
games the fit could not learn what a hiding place is worth to the wizard (it prints the wizard's win rate
both ways). Games whose number is 3 mod 4 are held out to report the log-loss; the weights printed at the
end are fit on every game, ready for ``sampler._WEIGHTS``.
"""
from __future__ import annotations

import argparse
import math
import random

from bot.games import get_engine
from bot.games.rage.sampler import _BIAS, _WEIGHTS, FEATURES, features
from bot.search.logistic import Row, bot_game, fit, held_out, log_loss, print_weights


def random_hiding(engine):
    """The normal bots, but the wizard hides each key on a tile drawn at random."""
    def act(state: dict, seat: int, rng: random.Random) -> dict:
        if state["phase"] == "keys":
            return rng.choice(engine.legal_actions(state, seat))
        return engine.bot_action(state, seat, rng)
    return act


def moments(games: int, first_seed: int = 50000, outcomes: dict[str, list[float]] | None = None) -> list[Row]:
    """(game number, 1 if the heroes won else 0, features) for moments of seeded bot games: normal bots, the
    wizard hiding the keys at random in games 4-7, 12-15, ... (so held-out games have both kinds). ``outcomes``
    collects each game's result (1 if the heroes won) under ``"normal"`` or ``"random"``, by how keys were hidden."""
    engine = get_engine("rage")
    rows: list[Row] = []
    for g in range(games):
        act = random_hiding(engine) if (g // 4) % 2 else None
        state, seen = bot_game(engine, g, first_seed, (3, 4, 5), lambda state, step: features(engine, state)
                               if state["phase"] in ("heroes", "wizard") and step % 4 == 0 else None, act)
        won = 1.0 if state["winner"] == "heroes" else 0.0
        rows.extend((g, won, f) for f in seen)
        if outcomes is not None:
            outcomes.setdefault("random" if act else "normal", []).append(won)
    return rows


def main(argv: list[str] | None = None) -> None:
    """Collect moments, report held-out log-loss (new fit, the weights in use, a coin) and print the weights."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="seeded normal-bot games")
    args = parser.parse_args(argv)
    outcomes: dict[str, list[float]] = {}
    rows = moments(args.games, outcomes=outcomes)
    train, test = held_out(rows)
    print(f"{len(rows)} moments of {args.games} games; the heroes won {sum(r[1] for r in rows) / len(rows):.1%} of them")
    for hiding, won in sorted(outcomes.items()):
        how = "at random" if hiding == "random" else "by the normal wizard"
        print(f"keys hidden {how}: the wizard won {1 - sum(won) / len(won):.1%} of {len(won)} games")
    trained = fit(train)
    print(f"held-out log-loss: this fit {log_loss(trained, test):.4f}, the weights in use "
          f"{log_loss([_BIAS, *_WEIGHTS], test):.4f}, a coin {math.log(2):.4f}")
    print_weights(rows, FEATURES)


if __name__ == "__main__":
    main()
