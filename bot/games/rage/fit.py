"""Refit the hard bot's judgement of a cut-short Wizard's Rage playout: ``python -m bot.games.rage.fit``.

Plays seeded normal-bot games (3, 4 and 5 players in turn), notes the sampler's ``features`` every
fourth move of the wizard's and the heroes' turns, and fits a logistic model of "the heroes win" on
them (Newton's method with a light ridge). Games whose seed is 3 mod 4 are held out to report the
log-loss; the weights printed at the end are fit on every game, ready for ``sampler._WEIGHTS``.
"""
from __future__ import annotations

import argparse
import math
import random

from bot.games import get_engine

from .sampler import _BIAS, _WEIGHTS, FEATURES, features

Row = tuple[int, float, tuple[float, ...]]


def moments(games: int, first_seed: int = 50000) -> list[Row]:
    """(game number, 1 if the heroes won else 0, features) for moments of seeded normal-bot games."""
    engine = get_engine("rage")
    rows: list[Row] = []
    for g in range(games):
        n = 3 + g % 3
        state = engine.setup([f"P{i}" for i in range(n)], {}, first_seed + g)
        rng = random.Random(g)
        seen: list[tuple[float, ...]] = []
        step = 0
        while not engine.is_terminal(state):
            seat = engine.to_act(state)[0]
            if state["phase"] in ("heroes", "wizard") and step % 4 == 0:
                seen.append(features(engine, state))
            step += 1
            engine.apply(state, seat, engine.bot_action(state, seat, rng))
        won = 1.0 if state["winner"] == "heroes" else 0.0
        rows.extend((g, won, f) for f in seen)
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; ``a`` is small and well posed)."""
    m = [row[:] + [v] for row, v in zip(a, b)]
    size = len(m)
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, size):
            f = m[r][col] / m[col][col]
            for c in range(col, size + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (m[r][size] - sum(m[r][c] * x[c] for c in range(r + 1, size))) / m[r][r]
    return x


def fit(rows: list[Row], ridge: float = 1e-3, steps: int = 12) -> list[float]:
    """Logistic weights (bias first) of the heroes winning over the rows' features."""
    xs = [(1.0, *f) for _, _, f in rows]
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [ridge * w[j] if j else 0.0 for j in range(k)]
        hess = [[ridge if i == j and i else 0.0 for j in range(k)] for i in range(k)]
        for x, (_, y, _) in zip(xs, rows):
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x))))
            q = p * (1 - p)
            for i in range(k):
                grad[i] += (p - y) * x[i]
                qi = q * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += qi * x[j]
        for i in range(k):
            for j in range(i):
                hess[j][i] = hess[i][j]
        w = [a - b for a, b in zip(w, _solve(hess, grad))]
    return w


def log_loss(w: list[float], rows: list[Row]) -> float:
    """The mean log-loss of the weights ``w`` (bias first) on ``rows``."""
    total = 0.0
    for _, y, f in rows:
        p = 1 / (1 + math.exp(-(w[0] + sum(a * b for a, b in zip(w[1:], f)))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main(argv: list[str] | None = None) -> None:
    """Collect moments, report held-out log-loss (new fit, the weights in use, a coin) and print the weights."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="seeded normal-bot games")
    args = parser.parse_args(argv)
    rows = moments(args.games)
    train = [r for r in rows if r[0] % 4 != 3]
    test = [r for r in rows if r[0] % 4 == 3]
    print(f"{len(rows)} moments of {args.games} games; the heroes won {sum(r[1] for r in rows) / len(rows):.1%} of them")
    held_out = fit(train)
    print(f"held-out log-loss: this fit {log_loss(held_out, test):.4f}, the weights in use "
          f"{log_loss([_BIAS, *_WEIGHTS], test):.4f}, a coin {math.log(2):.4f}")
    w = fit(rows)
    for name, weight in zip(("bias", *FEATURES), w):
        print(f"{name:32s} {weight:8.3f}")
    print(f"_WEIGHTS = {tuple(round(v, 3) for v in w[1:])}\n_BIAS = {round(w[0], 3)}")


if __name__ == "__main__":
    main()
