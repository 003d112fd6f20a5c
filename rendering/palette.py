"""One fixed 256-colour palette per game, for encoding its pictures.

A game's pictures are flat colours and anti-aliased text over a few backgrounds, so
their colours are nearly the same from one picture to the next. Choosing a palette
for every picture (Pillow's octree) was a third of drawing a board; mapping the
picture onto the game's palette, chosen once from many of its pictures, costs a tenth
of that and looks the same (``tests/test_render_palette.py`` checks it against a
palette chosen for each picture, on pictures the palette was not made from).

The palettes live in ``data/palettes/<game>.json`` (256 ``"#rrggbb"`` colours). When
a renderer's colours change, make them again::

    python -m rendering.palette            # every game with a renderer
    python -m rendering.palette tower      # one game
"""
from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from typing import Any, Iterator

from PIL import Image

from bot.paths import DATA_DIR

PALETTE_DIR = DATA_DIR / "palettes"
SEEDS = (11, 12)  # the games the palettes are made from (the test draws others)
KIND_ROWS = 3000  # about this many whole rows of each kind of picture (board, hand, final...), evenly spread
# over its pictures, go into the sample of each game played: every kind weighs about the same (the one final
# scoreboard as much as the many boards), and whole rows keep only the colours really drawn
FLAT_COLOURS = 64  # at most this many of the most common colours are kept exactly,
FLAT_SHARE = 0.0005  # those covering at least this share of the sample


@lru_cache(maxsize=None)
def game_palette(key: str) -> Image.Image | None:
    """The game's palette as a ``P`` image for ``Image.quantize(palette=...)``; None
    if the game has none (its pictures then get a palette of their own)."""
    path = PALETTE_DIR / f"{key}.json"
    if not path.is_file():
        return None
    colours = json.loads(path.read_text())["colours"]
    palette = Image.new("P", (1, 1))
    palette.putpalette([int(c[i:i + 2], 16) for c in colours for i in (1, 3, 5)])
    return palette


def sample_pictures(key: str, seed: int, boards: int = 10) -> Iterator[tuple[str, Image.Image]]:
    """``(kind, RGB picture)`` of every kind the game draws, along one game its bots play
    (boards along the way, each seat's own view now and then, round summaries, the final
    scoreboard). Used to make the palettes and to test them."""
    from bot.games import registry
    from rendering import renderer

    engine, module = registry()[key], renderer(key)
    if module is None:
        return
    players = min(max(engine.meta.min_players, 4), engine.meta.max_players)
    state = engine.setup([f"Player {i + 1}" for i in range(players)], engine.meta.resolve_options({}), seed)
    chooser = random.Random(seed)
    states = [json.loads(json.dumps(state))]
    for _ in range(5000):
        if engine.is_terminal(state):
            break
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, chooser))
        states.append(json.loads(json.dumps(state)))
    chosen = [states[round(i * (len(states) - 1) / max(1, boards - 1))] for i in range(boards)]
    draw = {kind: getattr(module, f"render_{kind}", None) for kind in ("board", "private", "round", "final")}

    def pictures() -> Iterator[tuple[str, Any]]:
        for i, st in enumerate(chosen):
            public = engine.view(st, None)
            yield "board", draw["board"] and draw["board"](public)
            if draw["round"]:
                yield "round", draw["round"](public)
            if draw["private"] and i % 3 == 0:
                for seat in range(players):
                    yield "private", draw["private"](engine.view(st, seat))
        if draw["final"]:
            yield "final", draw["final"](engine.view(states[-1], None), engine.scores(states[-1]))

    for kind, image in pictures():
        if image is not None:
            yield kind, image.convert("RGB")


def make_palette(key: str) -> list[str] | None:
    """256 colours chosen (octree, as for a single picture) from the game's sample pictures."""
    images = []
    for seed in SEEDS:
        pictures = list(sample_pictures(key, seed))
        for kind, image in pictures:
            rows = -(-KIND_ROWS // sum(1 for k, _ in pictures if k == kind))
            images.append(image.resize((image.width, min(image.height, rows)), Image.Resampling.NEAREST))
    if not images:
        return None
    montage = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)))
    y = 0
    for image in images:
        montage.paste(image, (0, y))
        y += image.height
    # The flat colours (backgrounds, panels, card faces: most of the pixels) are kept exactly; the octree
    # chooses the rest (mostly the anti-aliased edges between them) with the slots left.
    counts = sorted(montage.getcolors(montage.width * montage.height) or [], reverse=True)
    exact = [colour for count, colour in counts[:FLAT_COLOURS] if count >= montage.width * montage.height * FLAT_SHARE]
    quantized = montage.quantize(colors=256 - len(exact), method=Image.Quantize.FASTOCTREE)
    flat = (quantized.getpalette() or [])[: 3 * (256 - len(exact))]
    chosen: list[tuple[int, ...]] = [tuple(c) for c in exact]  # type: ignore[arg-type]
    chosen += [c for c in (tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)) if c not in exact]
    chosen += [chosen[0]] * (256 - len(chosen))
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in chosen]


def main(keys: list[str]) -> None:
    """Make the palettes of the games named (all of them by default) and write them to data/palettes."""
    from bot.games import registry

    PALETTE_DIR.mkdir(exist_ok=True)
    for key in keys or sorted(registry()):
        colours = make_palette(key)
        if colours is None:
            print(f"{key}: no renderer, no palette")
            continue
        (PALETTE_DIR / f"{key}.json").write_text(json.dumps(
            {"about": f"the fixed palette of {key}'s pictures: python -m rendering.palette {key}",
             "colours": colours}, indent=0) + "\n")
        print(f"{key}: {PALETTE_DIR / f'{key}.json'}")


if __name__ == "__main__":
    main(sys.argv[1:])
