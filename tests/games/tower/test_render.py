"""The Wizard's Tower's pictures and alt text (issue 30): words readable on a phone, the scoring tiles shown with
their leaders during play, the how-to-play picture, and alt text without spacing slips (issue 27)."""
from __future__ import annotations

import random
import re

import pytest

from bot.games.tower import ENGINE
from rendering import tower as renderer
from rendering import tower_cards, tower_scores
from tests.games.tower.scenario import TowerTable

PHONE = 400  # how wide a phone shows a picture
SMALLEST = 21  # px on the 1240 px picture: about 7 px at phone width


def _mid_game(players=4, seed=11, moves=14):
    state = ENGINE.setup(["Alice", "Bruno", "Chiara", "Dev", "Emeka"][:players], ENGINE.meta.resolve_options({}),
                         seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return state


def test_alt_text_cards_read_without_spacing_slips():
    # issue 27: the alt text read "Thief's Portal Cloak (0 , 1 curse)" for a card with no suit
    st = (TowerTable(3).tower({(6, 0): "Thief's Portal Cloak", (6, 1): "Amulet of Nae", (6, 2): "Forged Certificate",
                               (6, 3): "Serpent's Hourglass", (6, 4): "Tales of Myth & Magic"}).state)
    text = renderer.describe(ENGINE.view(st, None))
    assert "Thief's Portal Cloak (value 0, 1 curse)" in text
    assert "Amulet of Nae (value 0, 2 curses)" in text
    assert "Forged Certificate (value 0, 1 curse, +2 prestige)" in text
    assert "Serpent's Hourglass (any suit 1, 1 curse)" in text
    assert "Tales of Myth & Magic (Jewel+Tome 6, 1 curse)" in text
    assert not re.search(r" [,.;)]|\( ", text), re.findall(r".{12} [,.;)].{3}|.{12}\( .{3}", text)


def test_alt_text_leads_with_the_turn_and_the_running_score():
    view = ENGINE.view(_mid_game(), None)
    text = renderer.describe(view)
    assert text.startswith(view["status"] + " If the game ended now (face-up cards): Alice ")
    assert text.index("prestige") < text.index("Tower:")  # the running score before the long list of cards


def _fonts_used(monkeypatch):
    sizes = []
    real = renderer.font

    def spy(size, *args, **kwargs):
        sizes.append(size)
        return real(size, *args, **kwargs)
    for module in (renderer, tower_cards, tower_scores):  # the renderer and the modules it draws with
        monkeypatch.setattr(module, "font", spy)
    return sizes


@pytest.mark.parametrize("players", [2, 5])
def test_every_word_is_drawn_big_enough_for_a_phone(monkeypatch, players):
    """issue 30: at 400 px the tags, curse counts and player rows could not be read (17-19 px on 1240)."""
    renderer.TILES.enabled = False  # draw every element now, not from the cache
    try:
        sizes = _fonts_used(monkeypatch)
        state = _mid_game(players, seed=3, moves=9)
        board = renderer.render_board(ENGINE.view(state, None))
        renderer.render_private(ENGINE.view(state, 0))
        renderer.render_howto(ENGINE.view(state, 0))
        while not ENGINE.is_terminal(state):
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, random.Random(1)))
        final = renderer.render_final(ENGINE.view(state, None), ENGINE.scores(state))
    finally:
        renderer.TILES.enabled = True
    assert min(sizes) >= SMALLEST, sorted(set(sizes))
    assert board.width == final.width == renderer.W
    assert min(sizes) * PHONE / renderer.W >= 6.7


def test_the_how_to_play_picture_labels_every_part_of_the_board():
    state = _mid_game(3, seed=5, moves=7)
    anchors: dict = {}
    board = renderer._draw_board(ENGINE.view(state, 0), anchors)
    assert set(anchors) == {key for key, _ in renderer.HOWTO_PARTS}
    assert all(0 < x < board.width and 0 < y < board.height for x, y in anchors.values())
    howto = renderer.render_howto(ENGINE.view(state, 0))
    assert howto.width == board.width and howto.height > board.height + 400  # the key under the board
