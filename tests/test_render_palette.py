"""Each game's pictures are encoded with the game's fixed palette (issue 16: choosing a
palette for every picture was a third of drawing a board). No visible loss: on pictures
the palettes were not made from, the error against the drawn RGB picture is no worse
than a palette chosen for that very picture (what was shipped before)."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.games import registry
from rendering import render, renderer
from rendering.common import to_png
from rendering.palette import SEEDS, game_palette, sample_pictures

GAMES = sorted(key for key in registry() if renderer(key) is not None)
SEED = 5
assert SEED not in SEEDS


def error(drawn: Image.Image, png: bytes) -> tuple[float, int]:
    """Mean and 99.9th percentile, over pixels, of the largest channel difference."""
    diff = ImageChops.difference(drawn, Image.open(io.BytesIO(png)).convert("RGB"))
    r, g, b = diff.split()
    histogram = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    pixels = sum(histogram)
    mean = sum(value * count for value, count in enumerate(histogram)) / pixels
    seen = 0
    for value, count in enumerate(histogram):
        seen += count
        if seen >= pixels * 0.999:
            return mean, value
    return mean, 255


@pytest.mark.parametrize("key", GAMES)
def test_the_fixed_palette_loses_nothing_a_picture_own_palette_keeps(key):
    palette = game_palette(key)
    assert palette is not None, f"no palette for {key}: python -m rendering.palette {key}"
    pictures = list(sample_pictures(key, SEED, boards=4))
    assert {"board", "final"} <= {kind for kind, _ in pictures}
    for kind, drawn in pictures:
        fixed_mean, fixed_p999 = error(drawn, to_png(drawn, palette))
        own_mean, own_p999 = error(drawn, to_png(drawn))
        hint = f"{key} {kind}: the palette misses colours; make it again: python -m rendering.palette {key}"
        assert fixed_mean <= own_mean + 0.15 and fixed_mean < 1.0, hint
        assert fixed_p999 <= own_p999 + 4 and fixed_p999 <= 16, hint


@pytest.mark.parametrize("key", GAMES)
def test_pictures_are_sent_with_the_game_palette_and_the_same_view_gives_the_same_bytes(key):
    engine = registry()[key]
    state = engine.setup(["A", "B", "C", "D"][: max(engine.meta.min_players, 3)], engine.meta.resolve_options({}), 3)
    view = engine.view(state, None)
    png = render(key, "board", view)
    assert png == render(key, "board", view)
    sent = Image.open(io.BytesIO(png))
    assert sent.mode == "P" and sent.getpalette()[:768] == game_palette(key).getpalette()[:768]
