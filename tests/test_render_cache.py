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


# --- pre-drawn elements (rendering.common.TILES) ---------------------------------------------------------

import json  # noqa: E402
import random  # noqa: E402

import pytest  # noqa: E402
from PIL import ImageChops  # noqa: E402

from bot.games import registry  # noqa: E402
from rendering import renderer  # noqa: E402
from rendering.common import TILES, Tiles, drawing_in  # noqa: E402
from rendering.palette import game_palette  # noqa: E402

GAMES = sorted(key for key in registry() if renderer(key) is not None)


def _views(key: str, seed: int, players: int, count: int) -> list[tuple[dict, list[dict], list | None]]:
    """(public view, each seat's view, the scores at the end) at ``count`` moments of a seeded bot game."""
    engine = registry()[key]
    players = min(max(engine.meta.min_players, players), engine.meta.max_players)
    state = engine.setup([f"Player {i + 1}" for i in range(players)], engine.meta.resolve_options({}), seed)
    chooser = random.Random(seed)
    states = [json.loads(json.dumps(state))]
    while not engine.is_terminal(state) and len(states) < 3000:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, chooser))
        states.append(json.loads(json.dumps(state)))
    chosen = [states[round(i * (len(states) - 1) / (count - 1))] for i in range(count)]
    return [(engine.view(s, None), [engine.view(s, seat) for seat in range(players)],
             engine.scores(s) if engine.is_terminal(s) else None) for s in chosen]


def _pictures(key: str, moments: list[tuple[dict, list[dict], list | None]]) -> list[Image.Image]:
    module = renderer(key)
    out = []
    for public, seats, scores in moments:
        out.append(module.render_board(public))
        for kind in ("round", "private"):
            draw = getattr(module, f"render_{kind}", None)
            for view in ([public] if kind == "round" else seats[:2]) if draw else []:
                picture = draw(view)
                if picture is not None:
                    out.append(picture)
        if scores is not None and getattr(module, "render_final", None):
            out.append(module.render_final(public, scores))
    return out


@pytest.mark.parametrize("in_palette", [False, True], ids=["true colour", "in the game's palette"])
@pytest.mark.parametrize("key", GAMES)
def test_pre_drawn_elements_change_no_pixel(key, in_palette, monkeypatch):
    """Every picture of a game drawn with its elements pasted from tiles (some drawn for other moments first)
    is the same, pixel for pixel, as drawn in place: in true colour, and in the game's palette (as sent)."""
    monkeypatch.setattr(TILES, "_tiles", type(TILES._tiles)())
    with drawing_in(game_palette(key) if in_palette else None):
        _compare_tiled_and_in_place(key, in_palette, monkeypatch)


def _compare_tiled_and_in_place(key, in_palette, monkeypatch):
    _pictures(key, _views(key, seed=8, players=4, count=4))  # other moments leave tiles behind
    moments = _views(key, seed=3, players=5, count=6) + _views(key, seed=4, players=2, count=3)
    monkeypatch.setattr(TILES, "enabled", False)
    in_place = _pictures(key, moments)
    monkeypatch.setattr(TILES, "enabled", True)
    _pictures(key, moments)  # drawn once, so the second drawing below pastes every element from its tile
    tiled = _pictures(key, moments)
    assert len(TILES._tiles) > 0, f"{key}'s pictures use no tile"
    assert len(tiled) == len(in_place)
    for i, (a, b) in enumerate(zip(in_place, tiled)):
        assert a.size == b.size and a.mode == b.mode == ("P" if in_palette else "RGB"), f"picture {i}"
        assert ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None, \
            f"{key}: picture {i} differs at {ImageChops.difference(a.convert('RGB'), b.convert('RGB')).getbbox()}"


def test_tiles_are_drawn_once_per_key_and_bounded():
    tiles = Tiles(limit=3)
    calls = []

    def dot(d, x, y):
        calls.append((x, y))
        d.rectangle((x + 1, y + 1, x + 3, y + 3), fill=(255, 0, 0))

    image = Image.new("RGB", (40, 10), (0, 0, 0))
    draw = ImageDraw.Draw(image)
    for i in range(4):
        tiles.paste(draw, 10 * i, 2, (5, 5), (0, 0, 0), ("dot",), dot)
    assert calls == [(0, 0)]  # drawn once, on its own tile
    assert image.getpixel((32, 4)) == (255, 0, 0) and image.getpixel((30, 2)) == (0, 0, 0)
    for n in range(5):
        tiles.paste(draw, 0, 0, (5, 5), (0, 0, 0), ("dot", n), dot)
    assert len(tiles._tiles) == 3
