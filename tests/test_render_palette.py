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


# --- drawing in the palette (rendering.common.PaletteDraw) ------------------------------------------------

from PIL import ImageDraw  # noqa: E402

from rendering.common import PaletteDraw, drawing_in, font, palette_canvas  # noqa: E402
from tools.bench import sample_states  # noqa: E402


def _moments(key: str) -> list[tuple[str, dict]]:
    """(kind, view) of boards early, midway and late in a seeded bot game, a seat's own view and the end."""
    engine = registry()[key]
    states = sample_states(engine, SEED, 4)
    chosen = [states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1]]
    moments = [("board", engine.view(state, None)) for state in chosen]
    moments += [("private", engine.view(chosen[1], seat)) for seat in range(2)]
    return moments


@pytest.mark.parametrize("key", GAMES)
def test_pictures_drawn_in_the_palette_look_as_drawn_in_true_colour_and_mapped(key):
    """What the bot sends (drawn in the game's palette) against the same picture drawn in true colour: the same
    size and layout, the same error against true colour as mapping after, and nearly every pixel the same (text
    edges over a colour the palette only nears may blend a shade apart)."""
    palette = game_palette(key)
    module = renderer(key)
    compared = 0
    for kind, view in _moments(key):
        draw = getattr(module, f"render_{kind}", None)
        if draw is None:
            continue
        drawn = draw(view)
        if drawn is None:
            continue
        with drawing_in(palette):
            in_palette = draw(view)
        assert in_palette.mode == "P" and in_palette.size == drawn.size, (key, kind)
        mapped = to_png(drawn, palette)
        sent = to_png(in_palette, palette)
        assert Image.open(io.BytesIO(sent)).getpalette()[:768] == palette.getpalette()[:768]
        differing = ImageChops.difference(Image.open(io.BytesIO(mapped)).convert("RGB"),
                                          in_palette.convert("RGB")).convert("L").point([0] + [255] * 255)
        share = differing.histogram()[255] / (drawn.width * drawn.height)
        assert share < 0.0025, f"{key} {kind}: {share:.3%} of the pixels differ"
        (mapped_mean, mapped_p999), (sent_mean, sent_p999) = error(drawn, mapped), error(drawn, sent)
        assert sent_mean <= mapped_mean + 0.02 and sent_p999 <= mapped_p999 + 2, (key, kind)
        compared += 1
    assert compared >= 4


def _fixed_points(palette: Image.Image) -> list[tuple[int, int, int]]:
    """The palette's colours that Pillow's mapping sends to themselves."""
    colours = palette.getpalette("RGB")
    entries = [tuple(colours[i:i + 3]) for i in range(0, 768, 3)]
    strip = Image.new("RGB", (256, 1))
    strip.putdata(entries)
    mapped = strip.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    return [entries[i] for i in range(256) if entries[mapped[i]] == entries[i]]


def _scene(d: ImageDraw.ImageDraw, under: list[tuple[int, int, int]]) -> None:
    """Text of every kind the boards use, over flat and mixed colours and across the picture's edges."""
    d.rectangle((0, 0, 159, 59), fill=under[1])
    d.rectangle((80, 20, 119, 99), fill=under[2])  # text across it blends over two colours
    big, small = font(22, bold=True), font(13)
    d.text((4.5, 4), "Vault 3 · 12", fill=(232, 190, 80), font=big)
    d.text((60, 30), "across", fill=(90, 150, 230), font=big)
    d.text((200, 80), "Ready", fill="#e05050", font=big, anchor="mm")
    d.text((-8, 100), "clipped left", fill=(240, 240, 245), font=small)
    d.text((230, 140), "and right", fill=(240, 240, 245), font=big)
    d.text((10, 120), "two\nlines", fill=(165, 168, 180), font=small, spacing=2)
    d.text((120, 110), "stroke", fill=(240, 240, 245), font=big, stroke_width=2, stroke_fill=(0, 0, 0))
    d.text((10, 150), "", fill=(240, 240, 245), font=big)
    d.text((150, 4), "Ünïcode … ♦", fill=under[2], font=small)


def test_text_in_the_palette_is_the_true_colour_text_mapped():
    """Over colours the palette holds exactly, text drawn in the palette is pixel for pixel the true-colour text
    mapped onto it: flat and mixed backgrounds, anchors, several lines, strokes, named colours, the edges."""
    palette = game_palette(GAMES[0])
    under = _fixed_points(palette)[:3]
    assert len(under) == 3
    true_colour = Image.new("RGB", (300, 170), under[0])
    _scene(ImageDraw.Draw(true_colour), under)
    in_palette, d = palette_canvas((300, 170), under[0], palette)
    assert isinstance(d, PaletteDraw)
    _scene(d, under)
    expected = true_colour.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert ImageChops.difference(expected, in_palette.convert("RGB")).getbbox() is None
    assert d.textlength("Vault 3", font=font(22)) == ImageDraw.Draw(true_colour).textlength("Vault 3", font=font(22))
