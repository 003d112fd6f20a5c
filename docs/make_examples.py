"""Draw the example images in docs/images/ (the README shows them):
``python docs/make_examples.py``. Each board is from a seeded game played by the
bot players, drawn from the public view (or a seat's own view) as in Discord."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import get_engine  # noqa: E402
from rendering import render  # noqa: E402

OUT = Path(__file__).resolve().parent / "images"
NAMES = ["Alice", "Bruno", "Chiara", "Dev", "Emeka"]
# game, players, seed, moves before the snapshot, which private seat to draw
PLAN = [("tower", 4, 11, 14, 0), ("sleeping", 4, 3, 30, 1), ("masterminds", 3, 5, 40, 0),
        ("rage", 4, 5, 60, 0), ("heist", 3, 5, 12, 0)]


def main() -> None:
    """Play each example game part-way and draw its board and a hand, then to the end for its final picture."""
    OUT.mkdir(exist_ok=True)
    for key, players, seed, moves, seat in PLAN:
        engine = get_engine(key)
        state = engine.setup(NAMES[:players], engine.meta.resolve_options({}), seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if engine.is_terminal(state):
                break
            s = engine.to_act(state)[0]
            engine.apply(state, s, engine.bot_action(state, s, rng))
        (OUT / f"{key}-board.png").write_bytes(render(key, "board", engine.view(state, None)))
        private = render(key, "private", engine.view(state, seat))
        if private:
            (OUT / f"{key}-private.png").write_bytes(private)
        while not engine.is_terminal(state):
            s = engine.to_act(state)[0]
            engine.apply(state, s, engine.bot_action(state, s, rng))
        final = render(key, "final", engine.view(state, None), engine.scores(state))
        if final:
            (OUT / f"{key}-final.png").write_bytes(final)
    print("\n".join(sorted(p.name for p in OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
