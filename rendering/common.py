"""Shared drawing helpers: fonts, colours, text fitting, PNG encoding."""
from __future__ import annotations

import io
import struct
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageColor, ImageDraw, ImageFont

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


_PALETTE: ContextVar[Image.Image | None] = ContextVar("palette", default=None)


@contextmanager
def drawing_in(palette: Image.Image | None) -> Iterator[None]:
    """Pictures made by :func:`new_canvas` inside are drawn in ``palette`` (a game's fixed palette, a ``P``
    image), not in true colour; None draws in true colour (as for making the palettes)."""
    token = _PALETTE.set(palette)
    try:
        yield
    finally:
        _PALETTE.reset(token)


class PaletteDraw(ImageDraw.ImageDraw):
    """Draws on a 256-colour picture in a game's fixed palette what ImageDraw draws on a true-colour one.

    A board used to be drawn in true colour and mapped onto the game's palette for its PNG, pixel by pixel
    (a third of a board's time). Pillow draws shapes without anti-aliasing, so a shape drawn with the palette
    entry its colour maps to is the same pixels as the shape drawn in true colour and mapped after: colours
    are mapped once each (by Pillow's own mapping, remembered per palette) instead of once per pixel. Text is
    anti-aliased: each glyph pixel blends the ink into what is under it by the glyph's coverage, which a palette
    picture cannot do in place. Pillow's text drawing is kept (layout, anchors, lines, strokes, measuring as on
    a true-colour picture); only its last step, putting a line's mask on the picture, is done here: over one
    flat colour (most text) each coverage level's blend is worked out once (by Pillow, in true colour, then
    mapped) and the mask is looked up through that table; over mixed colours the box is blended in true colour
    and mapped, and only the pixels the text covers are put back."""

    def __init__(self, image: Image.Image, palette: Image.Image) -> None:
        super().__init__(image)
        self.fontmode = "L"  # anti-aliased masks and metrics, as on a true-colour picture
        self._palette = palette
        self._indices = _palette_indices(palette)
        self._colours = palette.getpalette("RGB") or []
        self._inks: dict[int, tuple[int, ...]] = {}  # palette entry -> the true colour of the text being drawn
        self.draw = _MaskedDraw(self.draw, self)

    def index(self, colour: Any) -> Any:
        """The palette entry a true-colour picture's ``colour`` maps to (other values as they are)."""
        if isinstance(colour, str):
            colour = ImageColor.getrgb(colour)
        if not isinstance(colour, tuple):
            return colour
        rgb = colour[:3]
        found = self._indices.get(rgb)
        if found is None:
            found = self._indices[rgb] = _map(Image.new("RGB", (1, 1), rgb), self._palette).getpixel((0, 0))  # type: ignore[assignment]
        return found

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        return super()._getink(self.index(ink), self.index(fill))

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, spacing: float = 4, align: str = "left", direction: str | None = None,
             features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
             stroke_fill: Any = None, embedded_color: bool = False, *args: Any, **kwargs: Any) -> None:
        """Draw text as ImageDraw does on a true-colour picture, in the palette (see the class)."""
        if fill is None:
            fill = (255, 255, 255)  # ImageDraw's ink on a true-colour picture
        for colour in (fill, stroke_fill):
            if colour is not None:
                rgb = ImageColor.getrgb(colour) if isinstance(colour, str) else colour
                self._inks[self.index(rgb)] = tuple(rgb[:3])
        try:
            if stroke_width:  # the text is blended over its own stroke: both in true colour, then mapped
                self._text_in_true_colour(xy, text, fill, font, anchor, spacing, align, direction, features,
                                          language, stroke_width, stroke_fill, *args, **kwargs)
            else:
                super().text(xy, text, fill, font, anchor, spacing, align, direction, features, language,
                             stroke_width, stroke_fill, embedded_color, *args, **kwargs)
        finally:
            self._inks.clear()

    def _text_in_true_colour(self, xy: tuple[float, float], text: Any, fill: Any, font: Any, *args: Any,
                             **kwargs: Any) -> None:
        """Text drawn by Pillow on its box taken out in true colour, the pixels it covers mapped and put back."""
        left, top, right, bottom = self.textbbox(xy, text, font, *args[:7])
        box = (max(0, int(left) - 1), max(0, int(top) - 1),
               min(self._image.width, int(right) + 2), min(self._image.height, int(bottom) + 2))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        at = (xy[0] - box[0], xy[1] - box[1])
        region = self._image.crop(box).convert("RGB")
        ImageDraw.Draw(region).text(at, text, fill, font, *args, **kwargs)
        covered = Image.new("L", region.size)
        ImageDraw.Draw(covered).text(at, text, 255, font, *args[:7], 255, **kwargs)
        self._image.paste(_map(region, self._palette), box, covered.point(_ANY, "1"))

    def put_mask(self, at: tuple[int, int], mask: Any, ink: int) -> None:
        """Blend ``ink`` (a palette entry, or the text's true colour) into the picture through a glyph mask."""
        width, height = mask.size
        if not width or not height:
            return
        box = (at[0], at[1], at[0] + width, at[1] + height)
        rgb = self._inks.get(ink) or tuple(self._colours[3 * ink:3 * ink + 3])
        region = self._image.im.crop(box)
        low, high = region.getextrema()
        inside = box[0] >= 0 and box[1] >= 0 and box[2] <= self._image.width and box[3] <= self._image.height
        if low == high and inside:  # one flat colour under the text: look each coverage level up
            self._image.im.paste(mask.point(self._blends(low, rgb), "L"), box)
            return
        rgb_region = Image.new("RGB", (width, height))
        rgb_region.im.paste(region.convert("RGB"), (0, 0, width, height))
        rgb_draw = ImageDraw.Draw(rgb_region)
        rgb_draw.draw.draw_bitmap((0, 0), mask, rgb_draw._getink(rgb)[0])
        self._image.im.paste(_map(rgb_region, self._palette).im, box, mask.point(_ANY, "1"))

    def _blends(self, under: int, rgb: tuple[int, ...]) -> list[int]:
        """For each coverage level 0-255, the palette entry of ``rgb`` blended over entry ``under``."""
        key = (id(self._palette), under, rgb)
        table = _BLENDS.get(key)
        if table is None:
            levels = Image.new("RGB", (256, 1), tuple(self._colours[3 * under:3 * under + 3]))
            levels_draw = ImageDraw.Draw(levels)
            levels_draw.draw.draw_bitmap((0, 0), _LEVELS.im, levels_draw._getink(rgb)[0])
            table = list(_map(levels, self._palette).tobytes())
            table[0] = under  # uncovered pixels stay exactly as they were
            if len(_BLENDS) >= 4096:
                _BLENDS.clear()
            _BLENDS[key] = table
        return table


class _MaskedDraw:
    """Pillow's drawing core for a :class:`PaletteDraw`: every shape as Pillow draws it, text masks through the
    palette."""

    def __init__(self, core: Any, owner: PaletteDraw) -> None:
        self._core = core
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._core, name)
        setattr(self, name, found)  # looked up once
        return found

    def draw_bitmap(self, at: tuple[int, int], mask: Any, ink: int) -> None:
        """Put a text mask on the picture (see :meth:`PaletteDraw.put_mask`)."""
        self._owner.put_mask(at, mask, ink)


def _map(image: Image.Image, palette: Image.Image) -> Image.Image:
    """A true-colour picture mapped onto ``palette`` (nearest colours, no dithering), as for a PNG."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


_ANY = [0] + [255] * 255  # an anti-aliased mask's pixels that are covered at all
_LEVELS = Image.frombytes("L", (256, 1), bytes(range(256)))  # every coverage level once
_BLENDS: dict[tuple, list[int]] = {}
_INDICES: dict[int, tuple[Image.Image, dict[tuple[int, ...], int]]] = {}


def _palette_indices(palette: Image.Image) -> dict[tuple[int, ...], int]:
    """The palette entries colours map to, remembered per palette (filled as colours are met)."""
    kept = _INDICES.get(id(palette))
    if kept is None or kept[0] is not palette:
        kept = _INDICES[id(palette)] = (palette, {})  # the palette is kept with its entries: its id stays its own
    return kept[1]


def drawing(image: Image.Image) -> ImageDraw.ImageDraw:
    """The drawing context for a picture: in its game's palette for a picture :func:`new_canvas` made in one."""
    palette = image.info.get("game_palette") if image.mode == "P" else None
    return PaletteDraw(image, palette) if palette is not None else ImageDraw.Draw(image)


def new_canvas(width: int, height: int, colour=BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture of that size in ``colour``, and its drawing context: in the game's palette inside
    :func:`drawing_in` (what :func:`rendering.render` does), else in true colour."""
    palette = _PALETTE.get()
    if palette is None:
        image = Image.new("RGB", (width, height), colour)
        return image, ImageDraw.Draw(image)
    return palette_canvas((width, height), colour, palette)


def palette_canvas(size: tuple[int, int], colour: tuple[int, int, int],
                   palette: Image.Image) -> tuple[Image.Image, PaletteDraw]:
    """A blank picture in ``palette`` filled with the entry ``colour`` maps to, and its drawing context."""
    image = Image.new("P", size)
    image.putpalette(palette.getpalette() or [])
    image.info["game_palette"] = palette
    d = PaletteDraw(image, palette)
    image.paste(d.index(colour), (0, 0, *size))
    return image, d


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
    spans nearly the whole board, and more for blocks (measured in issue 16). So the bot's pictures are
    drawn in the palette in the first place (:class:`PaletteDraw`, inside :func:`drawing_in`): a ``P``
    picture is written as it is."""
    if image.mode != "P":
        if palette is not None:
            image = _map(image if image.mode == "RGB" else image.convert("RGB"), palette)
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
        palette = d._image.info.get("game_palette") if d._image.mode == "P" else None
        full = (size, background, margin, key, id(palette))  # a palette's tiles are its own (kept: see _INDICES)
        tile = self._tiles.get(full)
        if tile is None:
            box = (size[0] + 2 * margin, size[1] + 2 * margin)
            if palette is None:
                tile = Image.new("RGB", box, background)
                draw(ImageDraw.Draw(tile), margin, margin)
            else:
                tile, tile_draw = palette_canvas(box, background, palette)
                draw(tile_draw, margin, margin)
            self._tiles[full] = tile
            if len(self._tiles) > self.limit:
                self._tiles.popitem(last=False)
        else:
            self._tiles.move_to_end(full)
        d._image.paste(tile, (x - margin, y - margin))  # the picture this ImageDraw draws on


TILES = Tiles()  # one store for every game's elements (keys start with the game's name)
