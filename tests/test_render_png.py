"""The PNG writer (``rendering.common.png_bytes``, ISA-L's deflate): the same pixels as Pillow's PNG of the
same picture, on real pictures of every game, and files no bigger to speak of."""
from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from bot.games import registry
from rendering import render, renderer
from rendering.common import drawing_in, png_bytes, to_png
from rendering.palette import game_palette
from tools.bench import sample_states

GAMES = sorted(key for key in registry() if renderer(key) is not None)


def pillow_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=2)
    return buffer.getvalue()


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.size, image.convert("RGB").tobytes()


def pictures(key: str) -> list[Image.Image]:
    """A board early, in the middle and late in a bot game of ``key``, and a seat's own view."""
    engine, module = registry()[key], renderer(key)
    states = sample_states(engine, 3, 5)
    drawn = [module.render_board(engine.view(states[i], None)) for i in (0, len(states) // 2, -1)]
    if hasattr(module, "render_private"):
        drawn.append(module.render_private(engine.view(states[len(states) // 2], 0)))
    return [image for image in drawn if image is not None]


@pytest.mark.parametrize("key", GAMES)
def test_a_games_pictures_decode_to_the_same_pixels_as_pillows_png(key):
    palette = game_palette(key)
    for image in pictures(key):
        for own_palette in (palette, None):
            mapped = image.quantize(palette=own_palette, dither=Image.Dither.NONE) if own_palette is not None \
                else image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
            ours, pillows = to_png(image, own_palette), pillow_png(mapped)
            assert ours.startswith(b"\x89PNG\r\n\x1a\n")
            assert Image.open(io.BytesIO(ours)).mode == "P"
            assert pixels(ours) == pixels(pillows)
            assert len(ours) <= 1.1 * len(pillows), (key, len(ours), len(pillows))


def test_the_drawing_entry_point_writes_the_games_pictures_with_it():
    key = GAMES[0]
    engine = registry()[key]
    view = engine.view(sample_states(engine, 3, 5)[-1], None)
    with drawing_in(game_palette(key)):  # as the entry point draws (tests/test_render_palette.py compares it)
        image = renderer(key).render_board(view)
    assert image.mode == "P"
    assert render(key, "board", view) == png_bytes(image)


def test_every_chunk_has_the_right_length_and_crc():
    png = to_png(Image.new("RGB", (7, 3), (10, 200, 30)))
    at, kinds = 8, []
    while at < len(png):
        (length,), kind = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        data, (crc,) = png[at + 8:at + 8 + length], struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + data)
        kinds.append(kind)
        at += 12 + length
    assert at == len(png) and kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert zlib.decompress(png[png.index(b"IDAT") + 4:png.index(b"IEND") - 8]) == (b"\0" + bytes(7)) * 3


def test_a_picture_with_transparency_is_left_to_pillow():
    image = Image.new("RGBA", (20, 10), (255, 0, 0, 0))
    image.paste((0, 0, 255, 255), (5, 2, 15, 8))
    mapped = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    assert png_bytes(mapped) == pillow_png(mapped)


def test_a_one_colour_picture_and_a_one_pixel_one():
    for size in ((1, 1), (300, 1), (1, 300)):
        image = Image.new("RGB", size, (30, 32, 40))
        assert pixels(to_png(image, game_palette(GAMES[0]))) == pixels(pillow_png(
            image.quantize(palette=game_palette(GAMES[0]), dither=Image.Dither.NONE)))
