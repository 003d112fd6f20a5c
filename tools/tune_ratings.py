"""``python -m tools.tune_ratings [game ...] [--servers N] [--jobs J]``: choose the model's parameters.

openskill's beta (how much a result varies between players of equal skill) and tau (how far a rating may drift
between two games) are chosen by the rating's log-loss on the **tuning servers** (``tools.server_ladder``'s servers
1..N, half mixed, half selective): never the reported servers, nor the seeding games (for each candidate, the bots
are seeded again from those under it, as ``tools.seed_bot_ratings`` would). The win rate's prior
(``server_ladder.PRIOR_SEATS``) is chosen on the same servers, so the baseline gets the same chance.

Printed: per game, the rating's log-loss on the tuning servers for every candidate (beta across, tau down), the
best candidate of each game, the best one for all the games together (their log-losses summed over their games),
and how much each game's own best gains on the common one (paired over its games, with its standard error): a game
keeps its own parameters only where that gain is more than twice its standard error. Then the win rate's
log-loss by prior. The chosen parameters go in ``bot.ratings.PARAMETERS`` by hand, and ``server_ladder.PRIOR_SEATS``.
"""
from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any

from bot import ratings
from bot.games import registry
from tools import bot_games
from tools.seed_bot_ratings import ANCHORS
from tools.server_ladder import Outcome, evaluate, paired, server_games

BETAS = (2.0, 25 / 8, 25 / 6, 25 / 5, 25 / 4, 25 / 3, 25 / 2)
TAUS = (0.0, 25 / 600, 25 / 300, 25 / 150, 25 / 75)
PRIORS = (0.5, 1.0, 2.0, 4.0, 8.0)
PLAYERS = 30  # a tuning server's players (the reported servers have 40)


def mean_loss(outcomes: list[Outcome]) -> float:
    """The mean log-loss of ``outcomes``."""
    return sum(loss for _, loss in outcomes) / len(outcomes)


Candidate = tuple[str, float, float]  # (anchor, beta, tau)
DEFAULTS: Candidate = ("normal", 25 / 6, 25 / 300)  # the ladders' model before tuning: the library's defaults


def main(argv: list[str] | None = None) -> int:
    """Print every candidate's log-loss on the tuning servers, per game, and the choices."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--servers", type=int, default=2, help="tuning servers a game (half mixed, half selective)")
    parser.add_argument("--players", type=int, default=PLAYERS, help="players a server")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    args = parser.parse_args(argv)
    keys = args.keys or sorted(registry())
    found: dict[str, dict[Candidate, list[Outcome]]] = {}
    baseline: dict[str, dict[float, float]] = {}
    games: dict[str, int] = {}
    for key in keys:
        served = server_games(key, range(1, args.servers + 1), args.players, args.jobs)
        pool = bot_games.games(key, range(1, bot_games.GAMES[key] + 1), args.jobs)
        found[key] = {}
        for anchor, beta, tau in itertools.product(ANCHORS, BETAS, TAUS):
            got = evaluate(key, served, pool, ratings.model_for(key, beta=beta, tau=tau), anchor=anchor)["all"]
            found[key][anchor, beta, tau] = got["rating"]
        model = ratings.model_for(key)
        baseline[key] = {k: mean_loss(evaluate(key, served, pool, model, k)["all"]["win rate"]) for k in PRIORS}
        games[key] = len(found[key][DEFAULTS])
        for anchor in ANCHORS:
            print(f"\n{key}: {games[key]} games on tuning servers 1-{args.servers}; the rating's log-loss, a new player"
                  f" level with {'the normal bot' if anchor == 'normal' else 'the levels mean'} (beta across, tau down)")
            print("| tau \\ beta | " + " | ".join(f"{beta:.2f}" for beta in BETAS) + " |")
            print("|---" * (len(BETAS) + 1) + "|")
            for tau in TAUS:
                print(f"| {tau:.4f} | " + " | ".join(f"{mean_loss(found[key][anchor, beta, tau]):.4f}"
                                                    for beta in BETAS) + " |")
        best = min(found[key], key=lambda p: mean_loss(found[key][p]))
        print(f"best: {describe(best)}: {mean_loss(found[key][best]):.4f} (the defaults:"
              f" {mean_loss(found[key][DEFAULTS]):.4f})", flush=True)
        print("win rate by prior seats: " + ", ".join(f"{k:g}: {loss:.4f}" for k, loss in baseline[key].items()))

    def total(p: Candidate) -> float:
        return sum(sum(loss for _, loss in found[key][p]) for key in keys)

    common = min(found[keys[0]], key=total)
    print(f"\ncommon best: {describe(common)}; each candidate's gain is paired over the games (± standard error);"
          " a gain counts when it is more than twice its standard error")
    rows = ["| game | games | defaults | common | its gain | own best | own log-loss | gain on the common |",
            "|---|---|---|---|---|---|---|---|"]
    for key in keys:
        own = min(found[key], key=lambda p: mean_loss(found[key][p]))
        gain, se = paired(found[key][DEFAULTS], found[key][common], 1)
        own_gain, own_se = paired(found[key][common], found[key][own], 1)
        rows.append(f"| {key} | {games[key]} | {mean_loss(found[key][DEFAULTS]):.4f} |"
                    f" {mean_loss(found[key][common]):.4f} | {gain:.4f} ± {se:.4f} | {describe(own)} |"
                    f" {mean_loss(found[key][own]):.4f} | {own_gain:.4f} ± {own_se:.4f} |")
    pooled: dict[float, Any] = {k: sum(baseline[key][k] * games[key] for key in keys) for k in PRIORS}
    print("\n".join(rows))
    print("win rate's prior, all games: " + ", ".join(f"{k:g}: {v / sum(games.values()):.4f}" for k, v in
                                                      pooled.items()))
    return 0


def describe(candidate: Candidate) -> str:
    """A candidate as printed."""
    anchor, beta, tau = candidate
    return f"new player at the {'normal bot' if anchor == 'normal' else 'levels mean'}, beta {beta:.3f}, tau {tau:.4f}"


if __name__ == "__main__":
    sys.exit(main())
