"""What the drawing worker keeps between pictures to draw faster (issue 16) must not
change a pixel."""
from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from bot.paths import FONT_DIR
from rendering.common import CachedFont, font


def _draw(fnt: ImageFont.FreeTypeFont) -> bytes:
    image = Image.new("RGB", (420, 160), (30, 32, 40))
    draw = ImageDraw.Draw(image)
    for i, (text, anchor) in enumerate([("Vault 3 · 12 gold", None), ("Ready", "mm"), ("Ready", "mm"),
                                        ("Ünïcode … ♦", "ra"), ("two\nlines", None)]):
        draw.text((10.5 + 60 * i, 20 + 25 * i), text, fill=(232, 190, 80), font=fnt, anchor=anchor)
        draw.text((12 + 60 * i, 40 + 25 * i), text, fill=(90, 150, 230), font=fnt, anchor=anchor)
    draw.text((200, 10), "stroke", fill=(240, 240, 245), font=fnt, stroke_width=2, stroke_fill=(0, 0, 0))
    return image.tobytes()


def test_cached_text_draws_the_same_pixels_as_pillow():
    plain = ImageFont.truetype(str(FONT_DIR / "DejaVuSans-Bold.ttf"), 22)
    cached = CachedFont(str(FONT_DIR / "DejaVuSans-Bold.ttf"), 22)
    first = _draw(cached)
    assert cached._masks, "the text masks are kept"
    assert first == _draw(plain)
    assert _draw(cached) == first  # drawn again from the cache
    assert cached.getlength("Vault 3") == plain.getlength("Vault 3")


def test_the_shared_fonts_keep_their_text():
    fnt = font(17, bold=True)
    assert isinstance(fnt, CachedFont)
    ImageDraw.Draw(Image.new("RGB", (100, 30))).text((0, 0), "cached once", font=fnt)
    assert any(key[0] == "cached once" for key in fnt._masks)


def test_the_text_cache_is_bounded(monkeypatch):
    fnt = CachedFont(str(FONT_DIR / "DejaVuSans.ttf"), 12)
    monkeypatch.setattr(CachedFont, "MASKS", 5)
    draw = ImageDraw.Draw(Image.new("RGB", (100, 30)))
    for i in range(20):
        draw.text((0, 0), f"word {i}", font=fnt)
    assert len(fnt._masks) == 5
    assert ("word 19",) == next(reversed(fnt._masks))[:1]
