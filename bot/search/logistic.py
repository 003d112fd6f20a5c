"""Logistic regression for the search's judgements of cut-short playouts (``evaluate`` fitted on bot games).

Small and dependency-free: Newton's method with a light ridge on rows of ``(group, outcome, features)`` (the
group, e.g. the game a moment comes from, lets a caller hold whole games out), and the fitted chances the
samplers' ``evaluate`` give. Used by ``python -m bot.games.<game>.fit`` (Rage, Tower, Sleeping Wizard).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.engine import Engine, State

Row = tuple[int, float, tuple[float, ...]]


def chance(bias: float, weights: Sequence[float], features: Sequence[float]) -> float:
    """The fitted chance of the outcome for these features."""
    return 1 / (1 + math.exp(-(bias + sum(w * x for w, x in zip(weights, features, strict=True)))))


def shared_chances(bias: float, weights: Sequence[float], table: Sequence[Sequence[float]]) -> list[float]:
    """Each seat's fitted chance of winning (``table``: every seat's features), shared out to add up to one."""
    raw = [chance(bias, weights, features) for features in table]
    total = sum(raw)
    return [r / total for r in raw]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; ``a`` is small and well posed)."""
    m = [[*row, v] for row, v in zip(a, b, strict=True)]
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
        for x, (_, y, _) in zip(xs, rows, strict=True):
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
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
        w = [a - b for a, b in zip(w, solve(hess, grad), strict=True)]
    return w


def mean_log_loss(pairs: Iterable[tuple[float, float]]) -> float:
    """The mean log-loss of ``(outcome, chance)`` pairs (chances kept a hair inside 0 and 1)."""
    total = 0.0
    count = 0
    for y, p in pairs:
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        count += 1
    return total / count


def log_loss(w: list[float], rows: list[Row]) -> float:
    """The mean log-loss of the weights ``w`` (bias first) on ``rows``."""
    return mean_log_loss((y, chance(w[0], w[1:], f)) for _, y, f in rows)


def held_out(rows: list[Row]) -> tuple[list[Row], list[Row]]:
    """The rows to fit on and the rows held out to judge the fit: whole groups (games) whose number is 3 mod 4."""
    return [r for r in rows if r[0] % 4 != 3], [r for r in rows if r[0] % 4 == 3]


def print_weights(rows: list[Row], names: tuple[str, ...]) -> list[float]:
    """Fit on every row and print the weights by name, then as the constants a sampler keeps; returns them."""
    w = fit(rows)
    width = max(len(name) for name in ("bias", *names)) + 2
    for name, weight in zip(("bias", *names), w, strict=True):
        print(f"{name:{width}s} {weight:8.3f}")
    print(f"_WEIGHTS = {tuple(round(v, 3) for v in w[1:])}\n_BIAS = {round(w[0], 3)}")
    return w


def bot_game(engine: Engine, number: int, first_seed: int, sizes: Sequence[int],
             note: Callable[[State, int], Any],
             act: Callable[[State, int, random.Random], Any] | None = None) -> tuple[State, list[Any]]:
    """Seeded game ``number`` of normal bots, for a fit: ``sizes[number % len(sizes)]`` players, seed
    ``first_seed + number``; ``note(state, moves made)`` is asked before every move and what it returns (None:
    nothing) is kept. ``act(state, seat, rng)``, where given, plays instead of the normal bot (a fit that must
    see moves the normal bot never makes). Returns the final state and what was noted."""
    players = sizes[number % len(sizes)]
    state = engine.setup([f"P{i}" for i in range(players)], {}, first_seed + number)
    rng = random.Random(number)
    noted = []
    step = 0
    while not engine.is_terminal(state):
        seen = note(state, step)
        if seen is not None:
            noted.append(seen)
        step += 1
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, (act or engine.bot_action)(state, seat, rng))
    return state, noted
