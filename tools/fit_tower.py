"""Refit the hard bot's judgement of a cut-short Wizard's Tower playout: ``python -m tools.fit_tower``.

Plays seeded normal-bot games (3 and 4 players in turn; heads-up the search plays whole games), notes every
seat's ``features`` every third move, and fits a logistic model of "this seat wins" on them (a shared win counts
as a win). Games whose seed is 3 mod 4 are held out to report the log-loss against the judgement before the
fit (the hauls scored as they stand, ``hauls_evaluate``), the weights in use and a coin; the weights printed at
the end are fit on every game, ready for ``sampler._WEIGHTS``.
"""
from __future__ import annotations

import argparse
import math

from bot.games import get_engine
from bot.games.tower.sampler import _BIAS, _WEIGHTS, FEATURES, hauls_evaluate, table_features
from bot.search.logistic import Row, bot_game, fit, held_out, log_loss, mean_log_loss, print_weights

FIRST_SEED = 60000
EVERY = 3


def moments(games: int, first_seed: int = FIRST_SEED) -> list[tuple[Row, float]]:
    """((game number, 1 if the seat won else 0, its features), the old judgement's chance) for every seat at
    moments of seeded normal-bot games."""
    engine = get_engine("tower")
    out: list[tuple[Row, float]] = []
    for g in range(games):
        state, seen = bot_game(engine, g, first_seed, (3, 4), lambda state, step: (
            table_features(engine, state), [hauls_evaluate(engine, state, s) for s in range(state["n"])])
            if step % EVERY == 0 else None)
        won = {r["seat"] for r in engine.scores(state) if r.get("won")}
        for rows, old in seen:
            out.extend(((g, 1.0 if s in won else 0.0, rows[s]), old[s]) for s in range(state["n"]))
    return out


def main(argv: list[str] | None = None) -> None:
    """Collect moments, report held-out log-loss (new fit, the weights in use, the hauls as they stand, a
    coin, the base rate) and print the weights."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="seeded normal-bot games")
    args = parser.parse_args(argv)
    data = moments(args.games)
    rows = [r for r, _ in data]
    train, test = held_out(rows)
    old = [(r[1], p) for r, p in data if r[0] % 4 == 3]
    rate = sum(r[1] for r in train) / len(train)
    print(f"{len(rows)} seat-moments of {args.games} games; a seat won {sum(r[1] for r in rows) / len(rows):.1%}")
    trained = fit(train)
    in_use = log_loss([_BIAS, *_WEIGHTS], test) if len(_WEIGHTS) == len(FEATURES) else float("nan")
    print(f"held-out log-loss: this fit {log_loss(trained, test):.4f}, the weights in use {in_use:.4f}, "
          f"the hauls as they stand {mean_log_loss(old):.4f}, a coin {math.log(2):.4f}, "
          f"the base rate {mean_log_loss((r[1], rate) for r in test):.4f}")
    lead_only = fit([(g, y, f[:1]) for g, y, f in train])
    print(f"(a fit on the score lead alone: {log_loss(lead_only, [(g, y, f[:1]) for g, y, f in test]):.4f})")
    print_weights(rows, FEATURES)


if __name__ == "__main__":
    main()
