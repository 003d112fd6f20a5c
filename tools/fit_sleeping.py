"""Refit the hard bot's judgement of a cut-short Sleeping Wizard playout: ``python -m tools.fit_sleeping``.

Plays seeded normal-bot games (3 and 4 players in turn), notes every guild's ``features`` at the start of
rounds 2-5 (where the search's playouts stop: each plays out the rest of its round) and fits a logistic model
of "this guild wins" on them (``bot.search.logistic``; a shared win counts as a share). The weights in use
(``sampler._WEIGHTS``) are the fit on the first ``FIT_GAMES`` games, printed at the end: with seven features
more games barely change the held-out log-loss, and few keep the fit quick to reproduce (a test does). The
search takes the guilds' chances shared out to add up to one (``sampler.chances``), so the log-loss is reported
that way too, on games numbered 3 mod 4 and past the first ``FIT_GAMES`` (held out from every fit): a fit on the
other games, the weights in use, the hand-set lead judge (``sampler.lead_judge``, shared out alike), an even
share and a coin.
"""
from __future__ import annotations

import argparse
import math
from typing import Any

from bot.games import get_engine
from bot.games.sleeping import sampler
from bot.games.sleeping.sampler import FEATURES, expected_points, features, lead_judge
from bot.search.logistic import Row, bot_game, fit, mean_log_loss, print_weights, shared_chances

FIT_GAMES = 160  # the weights in use are fit on this many games (80 at 3 players, 80 at 4)
FIRST_SEED = 90000

Moment = tuple[int, list[float], list[tuple[float, ...]], list[float]]  # game, outcomes, features, lead judge


def moments(games: int, first_seed: int = FIRST_SEED) -> list[Moment]:
    """The start of every round after the first in seeded normal-bot games: (game number, each guild's share
    of the win, each guild's features, the lead judge's chance of each)."""
    engine = get_engine("sleeping")
    out: list[Moment] = []
    for g in range(games):
        state, seen = bot_game(engine, g, first_seed, (3, 4), _round_starts(engine))
        winners = [r["seat"] for r in engine.scores(state) if r.get("won")]
        won = [1 / len(winners) if s in winners else 0.0 for s in range(len(state["names"]))]
        out.extend((g, won, f, lead) for f, lead in seen)
    return out


def _round_starts(engine: Any) -> Any:
    """A game's ``note``: every guild's features and lead judge when a round after the first starts."""
    judged = 1

    def note(state: dict[str, Any], step: int) -> Any:
        nonlocal judged
        if state["round"] == judged or state["phase"] != "turns" or any(state["teams"]):
            return None
        judged = state["round"]
        points, wakes, rounds_left = expected_points(engine, state)
        seats = range(len(points))
        return ([features(points, wakes, rounds_left, state, s) for s in seats],
                [lead_judge(engine, state, s) for s in seats])
    return note


def rows(data: list[Moment]) -> list[Row]:
    """One row per guild and moment, for the logistic fit."""
    return [(g, y, f) for g, won, fs, _ in data for y, f in zip(won, fs)]


def shared_out(weights: list[float], fs: list[tuple[float, ...]]) -> list[float]:
    """The guilds' chances under ``weights`` (bias first), shared out to add up to one as the search takes them."""
    return shared_chances(weights[0], weights[1:], fs)


def loss(data: list[Moment], judge: Any) -> float:
    """Mean log-loss per guild of ``judge(moment) -> chances`` over ``data``."""
    return mean_log_loss(pair for moment in data for pair in zip(moment[1], judge(moment)))


def weights(games: int = FIT_GAMES) -> list[float]:
    """The weights (bias first) fit on every moment of ``games`` seeded games, rounded as they are kept."""
    return [round(w, 3) for w in fit(rows(moments(games)))]


def main(argv: list[str] | None = None) -> None:
    """Collect moments, report held-out log-loss (a fit on the rest, the weights in use, the lead judge, an even share,
    a coin) and print the weights fit on the first ``FIT_GAMES`` games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4 * FIT_GAMES, help="seeded normal-bot games")
    args = parser.parse_args(argv)
    data = moments(args.games)
    test = [m for m in data if m[0] % 4 == 3 and m[0] >= FIT_GAMES] or [m for m in data if m[0] % 4 == 3]
    held = {id(m) for m in test}
    train = [m for m in data if id(m) not in held and (m[0] % 4 != 3 or m[0] < FIT_GAMES)]
    guilds = sum(len(m[1]) for m in data)
    print(f"{len(data)} moments ({guilds} guilds) of {args.games} games; {len(test)} moments held out")
    rest = fit(rows(train))
    in_use = [sampler._BIAS, *sampler._WEIGHTS]
    print("held-out log-loss per guild, chances shared out to add up to one: "
          f"a fit on the rest {loss(test, lambda m: shared_out(rest, m[2])):.4f}, "
          f"the weights in use {loss(test, lambda m: shared_out(in_use, m[2])):.4f}, "
          f"the lead judge {loss(test, lambda m: [p / sum(m[3]) for p in m[3]]):.4f}, "
          f"an even share {loss(test, lambda m: [1 / len(m[1])] * len(m[1])):.4f}, a coin {math.log(2):.4f}")
    print(f"fit on the first {min(args.games, FIT_GAMES)} games:")
    print_weights(rows([m for m in data if m[0] < FIT_GAMES]), FEATURES)


if __name__ == "__main__":
    main()
