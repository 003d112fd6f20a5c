"""Behaviour fingerprint of the games: proof that a refactor changed nothing a player can see.

    python -m tests.fingerprint                    # every game, 12 seeded games per player count
    python -m tests.fingerprint masterminds --games 30 --pictures

Plays seeded games to the end for every player count of each game, with the default options and then with
each option set to each other value it can take (booleans flipped, every other choice, an int's minimum and
maximum; fewer seeds for the variants), half the moves chosen by the game's own bot and half at random among the legal actions, and hashes after every move: the state,
the events, each acting seat's legal actions, the public and every private view, the status line,
each seat's private text, the move's description and, at the end, the scores. With ``--pictures``
the PNG of the public board (every 10th move), of each private view (every 25th) and of the final
board are hashed too, and so is the board's alt text. One line per game: run it before and after a
change and compare (``diff``). It is a tool, not a test: a change of behaviour is sometimes the point.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import sys
from typing import Any

from bot.games import registry


def _blob(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=repr).encode()


def variants(key: str) -> list[dict[str, Any]]:
    """The option sets played: the defaults, then one option at a time at each of its other values."""
    out: list[dict[str, Any]] = [{}]
    for option in registry()[key].meta.options:
        if isinstance(option.default, bool):
            values: list[Any] = [not option.default]
        elif option.choices:
            values = [choice for choice in option.choices if choice != option.default]
        else:
            values = [bound for bound in (option.minimum, option.maximum)
                      if bound is not None and bound != option.default]
        out.extend({option.key: value} for value in values)
    return out


def play(key: str, players: int, seed: int, pictures: bool, options: dict[str, Any] | None = None) -> str:
    """The hash of one seeded game of ``key`` for ``players`` with these table options."""
    engine = registry()[key]
    digest = hashlib.sha256()
    names = [f"P{i + 1}" for i in range(players)]
    state = engine.setup(names, engine.meta.resolve_options(options or {}), seed)
    chooser = random.Random(seed * 7919 + players)
    bot_rng = random.Random(seed)
    if pictures:
        from rendering import render, renderer
        module = renderer(key)

    def see(step: int) -> None:
        digest.update(_blob(state))
        digest.update(_blob(engine.status_line(state)))
        public = engine.view(state, None)
        digest.update(_blob(public))
        for seat in range(players):
            private = engine.view(state, seat)
            digest.update(_blob(private))
            digest.update(_blob(engine.private_text(private)))
            if pictures and step % 25 == 0:
                digest.update(render(key, "private", private) or b"")
        if pictures and step % 10 == 0:
            digest.update(render(key, "board", public) or b"")
            describe = getattr(module, "describe", None)
            if describe:
                digest.update(_blob(describe(public)))

    see(0)
    for step in range(1, 20001):
        if engine.is_terminal(state):
            break
        acting = engine.to_act(state)
        digest.update(_blob(acting))
        seat = chooser.choice(acting)
        legal = engine.legal_actions(state, seat)
        digest.update(_blob(legal))
        if step % 2:
            action = engine.bot_action(copy.deepcopy(state), seat, bot_rng)
        else:
            action = chooser.choice(legal)
        digest.update(_blob(engine.describe_action(state, seat, action)))
        digest.update(_blob(engine.apply(state, seat, copy.deepcopy(action))))
        see(step)
    scores = engine.scores(state)
    digest.update(_blob(scores))
    if pictures:
        digest.update(render(key, "final", engine.view(state, None), scores) or b"")
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    """Print one hash line per seeded game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game keys (default: all)")
    parser.add_argument("--games", dest="count", type=int, default=12, help="seeded games per player count")
    parser.add_argument("--pictures", action="store_true", help="hash the rendered PNGs too")
    args = parser.parse_args(argv)
    for key in args.games or sorted(registry()):
        meta = registry()[key].meta
        for options in variants(key):
            seeds = args.count if not options else max(1, args.count // 4)
            label = json.dumps(options, sort_keys=True) if options else "defaults"
            for players in range(meta.min_players, meta.max_players + 1):
                for seed in range(1, seeds + 1):
                    print(key, label, players, seed, play(key, players, seed, args.pictures, options), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
