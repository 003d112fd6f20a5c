"""Shared drawing helpers: fonts, colours, text fitting, PNG encoding."""
from __future__ import annotations

import io
import struct
import zlib
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from bot.paths import FONT_DIR

# A dark, high-contrast palette that reads well in Discord's dark and light themes.
BG = (30, 32, 40)
PANEL = (48, 51, 64)
INK = (240, 240, 245)
MUTED = (165, 168, 180)
GOLD = (232, 190, 80)
RED = (220, 80, 80)
GREEN = (90, 190, 110)
BLUE = (90, 150, 230)
PURPLE = (170, 110, 220)
SEAT_COLOURS = [
    (231, 76, 60), (52, 152, 219), (46, 204, 113), (241, 196, 15),
    (155, 89, 182), (230, 126, 34), (26, 188, 156), (236, 112, 160),
]


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the text it drew and measured.

    Most words on a board (names, labels, card titles) are the same from one move to
    the next, and rasterising text was a fifth to a third of drawing a board. Pillow's
    ``ImageDraw.text`` asks the font for each line's mask (``getmask2``) and pastes it
    with the ink, so caching the mask changes no pixel: the same arguments give the same
    mask. Masks are only read by the drawing code (never written), except in Pillow's
    colour-emoji mode (``RGBA``), which is left uncached. The caches are bounded (least
    recently used entries go first) and live in the drawing worker with the fonts."""

    MASKS = 4096  # per font; a board's text is a few hundred masks of a few KB
    LENGTHS = 8192

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple, Any] = OrderedDict()
        self._lengths: OrderedDict[tuple, float] = OrderedDict()

    @staticmethod
    def _remember(cache: OrderedDict, key: tuple, value: Any, limit: int) -> Any:
        cache[key] = value
        if len(cache) > limit:
            cache.popitem(last=False)
        return value

    def getmask2(self, text, mode="", direction=None, features=None, language=None, stroke_width=0,
                 anchor=None, ink=0, start=None, *args, **kwargs):
        """The text's mask, drawn once per text and style (Pillow's, kept)."""
        if mode == "RGBA" or args:
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, mode, direction, tuple(features) if features else None, language, stroke_width, anchor,
               tuple(start) if start is not None else None, tuple(sorted(kwargs.items())))
        cached = self._masks.get(key)
        if cached is not None:
            self._masks.move_to_end(key)
            return cached
        return self._remember(self._masks, key, super().getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start, **kwargs), self.MASKS)

    def getlength(self, text, mode="", direction=None, features=None, language=None):
        """The text's width in pixels, measured once per text."""
        key = (text, mode, direction, tuple(features) if features else None, language)
        cached = self._lengths.get(key)
        if cached is not None:
            self._lengths.move_to_end(key)
            return cached
        return self._remember(self._lengths, key, super().getlength(text, mode, direction, features, language),
                              self.LENGTHS)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The DejaVu font of that size and style, shared by every picture."""
    name = "DejaVuSans"
    if condensed:
        name += "Condensed"
    if bold:
        name += "-Bold"
    return CachedFont(str(FONT_DIR / f"{name}.ttf"), size)


def text_width(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """How wide ``text`` is drawn in ``fnt``, in pixels."""
    return draw.textlength(text, font=fnt)


def fit_text(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis so it fits in ``width`` pixels."""
    if draw.textlength(text, font=fnt) <= width:
        return text
    while text and draw.textlength(text + "…", font=fnt) > width:
        text = text[:-1]
    return text + "…"


def wrap_text(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: float, max_lines: int = 3) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines (the last one cut to fit)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=fnt) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1 :])]
    return [fit_text(draw, line, fnt, width) for line in lines]


def seat_colour(seat: int) -> tuple[int, int, int]:
    """The colour that marks a seat on every board."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def new_canvas(width: int, height: int, colour=BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture of that size in ``colour``, and its drawing context."""
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes, fast: boards are flat colours and text, so 256 colours lose nothing
    visible and halve the file. With ``palette`` (the game's fixed palette,
    :mod:`rendering.palette`) the picture is mapped onto it without dithering; without,
    Pillow chooses one for the picture (fast octree), which took longer than drawing it.
    The 256-colour picture is then written by :func:`png_bytes`.

    The mapping costs about 1.3 ns a pixel (3 ms for a 1240x1906 board), all of it Pillow's loop over the
    pixels: a flat picture of the same size costs the same, and its colour cache (set up per call, then
    one nearest-colour search per 4x4x8 cell met) costs 0.007 ms for 1,500 cells. So a lookup kept from
    board to board would save nothing; re-mapping only what changed since the last board would (2-13% of
    a board's 32-pixel blocks change per move), but finding what changed costs 0.8 ms for one box that
    spans nearly the whole board, and more for blocks (measured in issue 16)."""
    if image.mode != "P":
        if palette is not None:
            rgb = image if image.mode == "RGB" else image.convert("RGB")
            image = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        else:
            image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    return png_bytes(image)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 1  # ISA-L's levels are 0-3; 1 and 2 gave the same files on boards, 3 was 5x slower and no smaller


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def png_bytes(image: Image.Image) -> bytes:
    """A 256-colour (``P``) picture as PNG bytes, compressed by ISA-L (``isal``) instead of Pillow's zlib: on
    boards it is 5-8x faster (0.4-0.9 ms against 3.6-6.3 ms for Pillow at level 2, the encoding that was half of
    drawing a board) and the files are no bigger. The pixels are the same as Pillow's PNG of the same picture
    (``tests/test_render_png.py`` decodes both); a picture with transparency, or another mode, is saved by Pillow."""
    palette = image.palette
    if image.mode != "P" or "transparency" in image.info or palette is None or palette.mode != "RGB":
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=2)
        return buffer.getvalue()
    width, height = image.size
    # Each row of a PNG starts with its filter type: 0 ("None", as Pillow writes 256-colour pictures). Pasting the
    # picture one pixel to the right of a column of zeros lays the rows out that way in one copy.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    colours = bytes(image.getpalette("RGB") or [0, 0, 0])
    return b"".join((
        PNG_SIGNATURE,
        _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),  # 8 bits, palette, no interlace
        _png_chunk(b"PLTE", colours),
        _png_chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), PNG_LEVEL)),
        _png_chunk(b"IEND", b""),
    ))


class Tiles:
    """Pictures of elements drawn once and pasted after (card faces, tokens, frames).

    Most of a board's elements look the same from one move to the next (the cards in
    the tower, a hand, a talent), and drawing them again was most of drawing a board.
    An element is drawn by its function on a small canvas of the colour it is drawn
    over, the first time its ``key`` (what is on it) is asked for, and pasted at its
    place after that. Pasting changes no pixel when the element is drawn over that
    flat colour and inside its box, and the box is placed at whole pixels: text and
    shapes are then drawn exactly as they would be on the board (the tests compare
    boards drawn with and without tiles pixel by pixel). Least recently used tiles go
    first past ``limit``; the tiles live in the drawing worker, like the fonts."""

    def __init__(self, limit: int = 512) -> None:
        self.limit = limit
        self.enabled = True  # False draws every element in place (to compare, in tests)
        self._tiles: OrderedDict[tuple, Image.Image] = OrderedDict()

    def paste(self, d: ImageDraw.ImageDraw, x: int, y: int, size: tuple[int, int],
              background: tuple[int, int, int], key: tuple, draw: Any, margin: int = 0) -> None:
        """Put on ``d``'s picture the element ``draw(d, left, top)`` draws in the ``size`` box at
        ``(x, y)``, drawn once per ``key`` over ``background`` (the flat colour under the box and
        ``margin`` pixels around it, for strokes that spill over the box's edge)."""
        if not self.enabled:
            draw(d, x, y)
            return
        full = (size, background, margin, key)
        tile = self._tiles.get(full)
        if tile is None:
            tile = Image.new("RGB", (size[0] + 2 * margin, size[1] + 2 * margin), background)
            draw(ImageDraw.Draw(tile), margin, margin)
            self._tiles[full] = tile
            if len(self._tiles) > self.limit:
                self._tiles.popitem(last=False)
        else:
            self._tiles.move_to_end(full)
        d._image.paste(tile, (x - margin, y - margin))  # the picture this ImageDraw draws on


TILES = Tiles()  # one store for every game's elements (keys start with the game's name)
