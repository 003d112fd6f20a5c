"""Bot difficulty levels and the search bot ("hard") shared by every game.

- ``easy``: the game's heuristic bot, but a share of its decisions is a random legal move.
- ``normal``: the game's heuristic bot (``Engine.bot_action``).
- ``hard``: determinized Monte Carlo search over the heuristic bot (:func:`search`).

The search sees only its own seat: it gets ``engine.view(state, seat)`` and the seat's
legal actions, asks the game's sampler (``Engine.sample_state``) for full states that are
consistent with that view (unknown cards dealt from what the seat cannot see, the game's
RNG reseeded), tries each candidate action in every sampled state and plays the game out
with the heuristic bots. The same sampled state and the same rollout seed serve every
candidate of one iteration (common random numbers), so the comparison is fair with few
playouts. It is budgeted by playout count, not wall clock: for one seed and one view the
answer is always the same, and replays never re-run it (bot moves are in the action log).
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from bot.engine import Action, Engine, State

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
EASY_MISTAKES = 0.35  # share of an easy bot's real decisions played at random


def parse_level(raw: Any) -> str:
    """A level name, case-insensitive; ValueError with a readable sentence otherwise."""
    text = str(raw or DEFAULT_LEVEL).strip().lower()
    if text not in LEVELS:
        raise ValueError(f"A bot's level is one of: {', '.join(LEVELS)}.")
    return text


@dataclass(frozen=True)
class Budget:
    """How much a hard decision may think, counted (never timed, so it is deterministic):
    up to ``determinizations`` sampled states, each tried with up to ``candidates`` actions
    and played out to the end (or for ``horizon`` moves, then judged by the game's
    evaluation), while the playouts stay within ``moves`` simulated moves in all. A decision with room for fewer
    than ``min_determinizations`` samples (long early game) keeps the heuristic's move: one or two playouts would
    be noise, not insight."""

    determinizations: int = 12
    candidates: int = 4
    moves: int = 2000
    min_determinizations: int = 3
    horizon: int = 400
    prior: float = 0.04  # the heuristic's own choice wins ties and near-ties
    # Another move overrules the heuristic's only when its mean gain over it, sample by sample,
    # exceeds ``prior`` by ``confidence`` standard errors: with few samples, noise alone would
    # otherwise pick whichever candidate happened to be lucky (0 = the best mean wins).
    confidence: float = 0.0
    # Opt-in (off by default, so a game without them decides as before): ask the heuristic again
    # with this many other seeds, and try the other moves it picks before random ones (a heuristic
    # with a random tie-break knows the near-best alternatives better than a draw from all moves) ...
    heuristic_tries: int = 0
    # ... and think with ``others`` for every seat but seat 0 (a game whose seat 0 plays another
    # role than the rest, as Wizard's Rage's wizard against its heroes).
    others: Budget | None = None
    # A state key: a playout also stops (and is judged) once that value changes, e.g. ``"round"``
    # plays out the rest of the round whatever its length ("" = only ``horizon`` cuts it).
    until: str = ""
    # Opt-in: try only one of each set of moves the game's sampler module calls alike (its ``alike(view, seat,
    # action)`` gives a key; e.g. hiring either of two hand cards the seat has not seen), so no candidate is
    # spent on a move that can only differ from another by luck.
    distinct: bool = False
    # Opt-in: judge every other legal move one move ahead in the first sample (``outcome_value``: the game's
    # ``evaluate``) and try first those it rates above the heuristic's, best first, then random ones: where the
    # moves are many (a key's hiding place among 31 tiles) two drawn at random rarely hold the one worth trying.
    ranked: bool = False

DEFAULT_BUDGET = Budget()


def easy_action(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """The heuristic's move, or at random at a share of real decisions (the easy level)."""
    legal = engine.legal_actions(state, seat)
    if len(legal) > 1 and rng.random() < EASY_MISTAKES:
        return rng.choice(legal)
    return engine.bot_action(state, seat, rng)


def outcome_value(engine: Engine, state: State, seat: int) -> float:
    """1 for a win, otherwise a little for a good rank: what a playout is worth to ``seat``.
    A playout cut short is judged by the game's sampler module's ``evaluate(engine, state,
    seat)`` (a chance of winning, 0 to 1) where it has one, else as neither won nor lost."""
    if not engine.is_terminal(state):
        evaluate = _hook(engine, "evaluate")
        return evaluate(engine, state, seat) if evaluate else 0.25
    result = {r["seat"]: r for r in engine.scores(state)}[seat]
    n = max(2, len(state.get("names", [])))
    if result.get("won"):
        return 1.0
    return 0.5 * (n - result.get("rank", n)) / (n - 1)


def lead_value(points: list[float], seat: int, scale: float) -> float:
    """A chance of winning for ``seat`` from points expected at the end: 1/2 when level with the
    best of the others, nearer 1 (or 0) the further ahead (behind) by about ``scale`` points."""
    import math
    best_other = max((p for s, p in enumerate(points) if s != seat), default=0.0)
    return 1 / (1 + math.exp(-(points[seat] - best_other) / scale))


_HOOKS: dict[tuple[str, str], Any] = {}  # (game, name) -> its sampler module's function of that name, or None


def _hook(engine: Engine, name: str) -> Any:
    """``engine.sampler_function(name)`` (``evaluate``, ``alike``), looked up once per game: it is asked at every
    playout's end."""
    found = (engine.meta.key, name)
    if found not in _HOOKS:
        _HOOKS[found] = engine.sampler_function(name)
    return _HOOKS[found]


def _unlike(engine: Engine, view: dict[str, Any], seat: int, favourite: Action, others: list[Action]) -> list[Action]:
    """``others`` less any move the game calls alike to the favourite or to an earlier one."""
    alike = _hook(engine, "alike")
    if alike is None:
        return others
    seen = {alike(view, seat, favourite)}
    kept = []
    for action in others:
        kind = alike(view, seat, action)
        if kind not in seen:
            seen.add(kind)
            kept.append(action)
    return kept


def playout(engine: Engine, state: State, seat: int, rng: random.Random, horizon: int,
            until: str = "", mark: Any = None) -> tuple[float, int]:
    """Heuristic bots play ``state`` on: (its worth to ``seat``, how many moves it took). They stop
    after ``horizon`` moves, or where ``until`` is given once ``state[until]`` is no longer ``mark``."""
    moves = 0
    while moves < horizon and not engine.is_terminal(state):
        if until and state.get(until) != mark:
            break
        acting = engine.to_act(state)
        if not acting:
            break
        who = acting[0]
        engine.apply(state, who, engine.bot_action(state, who, rng))
        moves += 1
    return outcome_value(engine, state, seat), moves


def _key(action: Action) -> str:
    import json
    return json.dumps(action, sort_keys=True)


def search(engine: Engine, view: dict[str, Any], legal: list[Action], seat: int, seed: int,
           budget: Budget | None = None, stats: dict[str, Any] | None = None) -> Action | None:
    """The best of ``legal`` for ``seat`` as seen from ``view``, or None when the game
    cannot be searched here (no sampler, or the sampler cannot rebuild this moment)."""
    budget = budget or engine_budget(engine, len(view.get("names", [])))
    if seat != 0 and budget.others is not None:
        budget = budget.others
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    first = engine.sample_state(view, seat, random.Random(rng.getrandbits(64)))
    if first is None:
        return None
    # The heuristic's choice in the first sample is the prior: always a candidate, and it
    # keeps the move unless another does clearly better.
    favourite = engine.bot_action(copy.deepcopy(first), seat, random.Random(seed))
    if favourite not in legal:  # a sample that lets the seat do more than it may (a fact no view shows)
        favourite = legal[0]
    others = [a for a in legal if a != favourite]
    if budget.distinct:
        others = _unlike(engine, view, seat, favourite, others)
        if not others:
            return favourite
    if budget.heuristic_tries:
        others = _heuristic_first(engine, first, seat, rng, budget, others)
    elif budget.ranked:
        others = _judged_first(engine, first, seat, rng, budget, favourite, others)
    elif len(others) > budget.candidates - 1:
        others = rng.sample(others, budget.candidates - 1)
        others.sort(key=legal.index)
    candidates = [favourite, *others]
    values: list[list[float]] = [[] for _ in candidates]
    sample = first
    used = done = 0
    for i in range(budget.determinizations):
        if i:
            if done and used + used / done > budget.moves:  # another sample would overrun the budget
                break
            resampled = engine.sample_state(view, seat, random.Random(rng.getrandbits(64)))
            if resampled is None:
                break
            sample = resampled
        if not all(a in engine.legal_actions(sample, seat) for a in candidates):
            continue  # the sample guessed a fact no view shows and forbids a candidate here: skip it
        rollout_seed = rng.getrandbits(64)
        mark = sample.get(budget.until) if budget.until else None  # before the move: it may end a round
        for c, action in enumerate(candidates):
            trial = copy.deepcopy(sample)
            engine.apply(trial, seat, action)
            value, moves = playout(engine, trial, seat, random.Random(rollout_seed), budget.horizon,
                                   budget.until, mark)
            values[c].append(value)
            used += moves + 1
            if done == 0 and c == 0 and used * len(candidates) * budget.min_determinizations > budget.moves:
                return favourite  # too long a game ahead to learn anything within the budget
        done += 1
    if stats is not None:
        stats.update(candidates=len(candidates), determinizations=done, moves=used)
    if done < budget.min_determinizations:
        return favourite
    gains = [_gain(values[c], values[0], budget.confidence) - budget.prior for c in range(1, len(candidates))]
    best = max(range(len(gains)), key=lambda c: (gains[c], -c), default=None)
    if stats is not None:
        stats.update(means=[sum(v) / len(v) for v in values], gains=gains)
    return candidates[best + 1] if best is not None and gains[best] > 0 else favourite


def _heuristic_first(engine: Engine, sample: State, seat: int, rng: random.Random, budget: Budget,
                     others: list[Action]) -> list[Action]:
    """Up to ``candidates - 1`` of ``others``: first the distinct moves the heuristic picks with other
    seeds (in the order found), then random ones, listed in their legal order."""
    probe = copy.deepcopy(sample)
    preferred: list[Action] = []
    for _ in range(budget.heuristic_tries):
        action = engine.bot_action(probe, seat, random.Random(rng.getrandbits(64)))
        if action in others and action not in preferred:
            preferred.append(action)
    return _then_random(preferred[:budget.candidates - 1], others, budget, rng)


def _judged_first(engine: Engine, sample: State, seat: int, rng: random.Random, budget: Budget, favourite: Action,
                  others: list[Action]) -> list[Action]:
    """Up to ``candidates - 1`` of ``others``: first those worth more to ``seat`` than the favourite one move
    ahead in ``sample`` (best first; ties drawn with ``rng``, so a symmetric board does not always offer the same
    tile, a habit a player would learn), then random ones, listed in their legal order."""
    allowed = engine.legal_actions(sample, seat)

    def judged(action: Action) -> float:
        if action not in allowed:
            return -1.0
        trial = copy.deepcopy(sample)
        engine.apply(trial, seat, action)
        return outcome_value(engine, trial, seat)
    base = judged(favourite)
    scored = sorted(((judged(a), rng.random(), i) for i, a in enumerate(others)), key=lambda vri: (-vri[0], vri[1]))
    return _then_random([others[i] for value, _, i in scored if value > base][:budget.candidates - 1], others,
                        budget, rng)


def _then_random(preferred: list[Action], others: list[Action], budget: Budget, rng: random.Random) -> list[Action]:
    """``preferred``, then random ones of the rest of ``others`` up to ``candidates - 1`` in all, in legal order."""
    rest = [a for a in others if a not in preferred]
    room = budget.candidates - 1 - len(preferred)
    if len(rest) > room:
        rest = rng.sample(rest, room)
    return sorted(preferred + rest, key=others.index)


def _gain(mine: list[float], base: list[float], confidence: float) -> float:
    """How much better ``mine`` did than ``base`` over the same samples (paired: the same sampled
    state and rollout seed), less ``confidence`` standard errors of that mean difference."""
    diffs = [a - b for a, b in zip(mine, base, strict=True)]
    mean = sum(diffs) / len(diffs)
    if not confidence:
        return mean
    if len(diffs) < 2:
        return -1.0
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean - confidence * (var / len(diffs)) ** 0.5


# Sized so a decision keeps within 300 ms at p95 on a 2-core machine (see docs/bots.md).
BUDGETS: dict[str, Budget] = {
    # Tower: ~40 moves a 4-player game. Whole playouts fitted 2-3 samples early on (1.45x): playouts are cut
    # after 10 moves and judged by the sampler's ``evaluate``, a logistic fit on normal-bot games (the lead as
    # it stands and as the heuristic reckons it, weighed by how few cards are left, the cards still within
    # reach, who is still inside; ``python -m tools.fit_tower``). The hauls as they stand gave 37.0% over
    # 400 games (1.48x), and a larger budget or whole playouts no more. With the fit (200 games each, seeds
    # 7000+): 41.0% overruling the heuristic one standard error above noise, 48.0% at a quarter, 48.5% at half
    # a standard error, 43.0% at none; 16 samples 42.5%, 20-move playouts 41.5%, 4 candidates 38.3%; the hauls
    # as they stand at half a standard error 31.8%. Kept: half a standard error, 45.5% over 400 games (1.82x),
    # a decision p50/p95/max 43/84/184 ms.
    "tower": Budget(determinizations=8, candidates=3, moves=150, min_determinizations=2, horizon=10,
                    confidence=0.5),
    # ... but heads-up the hauls as they stand misjudge a 2-player game (44% over 100 games against
    # 68.6% over 400 with whole playouts): heads-up it plays whole games, which fit (~33 moves).
    "tower/2": Budget(determinizations=12, candidates=3, moves=200, min_determinizations=2),
    # Masterminds: a 4-player game is ~230 moves; whole playouts left room for 2-6 samples, and
    # with wins as the only signal the search overruled the heuristic on noise (hard was weaker
    # than normal). Playouts are cut after 60 moves and judged by the gems' expected worth, and
    # a move overrules the heuristic's only when its gain stands a standard error above noise.
    "masterminds": Budget(determinizations=10, candidates=3, moves=1200, min_determinizations=3, horizon=60,
                          confidence=1.0),
    # HEIST: ~0.16 ms a move, ~110 moves a 4-player game. Whole playouts overruled the heuristic
    # on noise (1.15x): playouts are cut after 30 moves and judged by the cheese as it stands (its
    # ``evaluate``), and a move overrules the heuristic's only a standard error above noise.
    "heist": Budget(determinizations=16, candidates=3, moves=1200, min_determinizations=3, horizon=30,
                    confidence=1.0),
    # Sleeping Wizard: the heuristic costs ~1.4 ms a move at 4 players (3.7 before issue 18's speed-up).
    # Playouts cut after 10 moves left one guild a hire short of another when a candidate took a push
    # (1.30x with 3 or 6 samples): they play the rest of the round (<= 32 moves at 4 players) and are
    # judged at the next round's start by the treasure and the tracker bonus expected at the end (its
    # ``evaluate``), 3 samples of 2 candidates: 34.5% over 400 games (1.38x; the first 100 gave 1.58x),
    # p95 152 ms; 5 samples (260 moves) measured no stronger: 34.9% over 400, p95 212 ms. At 3+ players the
    # round's end is judged by a fit of each guild's chance of winning (``sampler.chances``: one rival level
    # is not three, a quieter tracker counts early), and 3 candidates that differ to the seat (``distinct``:
    # never two of its own unseen cards) are tried in 3 samples: 39.2% over 400 games (1.57x; the same seeds
    # gave 34.5% before, about 1.4 standard errors less), p50/p95/max 27/197/388 ms.
    "sleeping": Budget(determinizations=3, candidates=3, moves=270, min_determinizations=3, horizon=40,
                       confidence=1.0, until="round", distinct=True),
    # Heads-up (1.8 ms a move, a round <= 16 moves): 6 samples of 3 candidates, 69.0% over 400 games
    # (cut after 10 moves: 50%; the rest of the round with 3 samples of 2: 58%), p95 225 ms.
    "sleeping/2": Budget(determinizations=6, candidates=3, moves=300, min_determinizations=3, horizon=40,
                         confidence=1.0, until="round"),
    # Wizard's Rage: ~0.4 ms a move at 4 players, ~90 moves a game. Whole playouts fitted only the
    # last rounds and overruled on noise (hard as strong as normal, 0.97x over 40 games): playouts
    # are cut after 24 moves and judged by the sampler's ``evaluate`` (a fit on normal-bot games,
    # which sees the heroes' way to the keys and the door). The heroes (every seat but the wizard's)
    # take more samples of shorter playouts (the hidden vaults are their doubt; a step tells within
    # a round), with the heuristic's own near-ties as candidates first. The wizard tries first the moves the
    # judge rates above the heuristic's one move ahead (``ranked``): with the judge refit to see how far the
    # keys lie from the door and from each other, it hides them where the normal heroes carry them longest:
    # 67.2% over 400 games as the wizard where a normal one wins 50.0% on the same seeds (1.34x; p95 156 ms).
    # Tried on 100 paired seeds, not kept: overruling at half a standard error (70.0% against 74.0%); ranked
    # candidates for the heroes (their side 48.7% against 58.0% over 150 games).
    "rage": Budget(determinizations=10, candidates=3, moves=480, min_determinizations=3, horizon=24,
                   confidence=1.0, ranked=True,
                   others=Budget(determinizations=12, candidates=3, moves=480, min_determinizations=3, horizon=16,
                                 confidence=1.0, heuristic_tries=6)),
}


def engine_budget(engine: Engine, players: int = 0) -> Budget:
    """How much a hard decision of this game may think at a table of ``players`` (a budget keyed
    ``"<game>/<players>"`` where one is set, else the game's)."""
    key = engine.meta.key
    return BUDGETS.get(f"{key}/{players}") or BUDGETS.get(key, DEFAULT_BUDGET)


def search_job(game_key: str, view: dict[str, Any], legal: list[Action], seat: int, seed: int) -> Action | None:
    """What the worker process runs: only the seat's view goes in, never the state."""
    from bot.games import get_engine
    return search(get_engine(game_key), view, legal, seat, seed)


def hard_action(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """The search's move in this process (benchmarks, the strength report)."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    seed = rng.getrandbits(64)
    action = search(engine, engine.view(state, seat), legal, seat, seed)
    return action if action is not None else engine.bot_action(state, seat, rng)


def level_action(engine: Engine, state: State, seat: int, rng: random.Random, level: str) -> Action:
    """A bot's move at its level, in this process."""
    if level == "easy":
        return easy_action(engine, state, seat, rng)
    if level == "hard":
        return hard_action(engine, state, seat, rng)
    return engine.bot_action(state, seat, rng)
