"""Wizard's Rage rendering: the hero status is never cut off, the board reads on a phone, and
describe() gives a screen-reader text from the public view only."""
from __future__ import annotations

import random

from PIL import ImageDraw

from bot.games.rage import ENGINE
from rendering import rage as rage_renderer
from tests.games.rage.test_playout import scramble
from tests.games.rage.test_rules import give_card, ready


def drawn_texts(monkeypatch, render, view) -> list[tuple[str, int]]:
    """Every string the renderer draws, with its font size."""
    seen: list[tuple[str, int]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        fnt = kwargs.get("font")
        seen.append((str(text), getattr(fnt, "size", 0)))
        return real(self, xy, text, *args, **kwargs)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    render(view)
    return seen


def test_hero_status_is_not_cut_off_by_four_items(monkeypatch):
    st = ready(n=4, keys=[3, 29, 33])
    h = st["heroes"][1]
    for key in ("rune_blade", "flame_brand", "leather_boots", "tower_shield"):
        give_card(st, 1, key)
    assert len(h["equip"]) == 4
    h["keys"] = 2
    h["frozen"] = True
    st["commits"]["1"] = {"type": "stay"}
    texts = " ".join(t for t, _ in drawn_texts(monkeypatch, rage_renderer.render_board, ENGINE.view(st, None)))
    assert "2 keys" in texts and "frozen" in texts.lower() and "ready" in texts.lower()


def test_phone_readable_facts_use_big_type(monkeypatch):
    """At 400 px wide a phone shows the board at 400/width: whose turn, the last event and every
    hero's HP must be drawn at 11 px or more there."""
    st = ready(n=5, keys=[3, 29, 33])
    for _ in range(20):
        seat = ENGINE.to_act(st)[0]
        ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, random.Random(1)))
    view = ENGINE.view(st, None)
    img = rage_renderer.render_board(view)
    scale = 400 / img.width
    texts = drawn_texts(monkeypatch, rage_renderer.render_board, view)

    def size_of(fragment):
        sizes = [s for t, s in texts if fragment in t]
        assert sizes, fragment
        return max(sizes) * scale
    assert size_of(view["names"][ENGINE.to_act(st)[0]]) >= 11
    for h in view["heroes"]:
        assert size_of(f"{h['hp']} HP") >= 11
    assert view["recent"] and size_of(view["recent"][-1][:20]) >= 11


def test_describe_names_who_acts_and_keeps_secrets():
    st = ready(n=4, keys=[3, 29, 33])
    for step in range(60):
        if ENGINE.is_terminal(st):
            break
        seat = ENGINE.to_act(st)[0]
        ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, random.Random(step)))
        view = ENGINE.view(st, None)
        text = rage_renderer.describe(view)
        assert 0 < len(text) <= 1000
        if not ENGINE.is_terminal(st):
            assert any(view["names"][s] in text for s in ENGINE.to_act(st))
        for i, t in enumerate(st["tiles"]):
            for tid in t["tokens"]:
                token = st["tokens"][str(tid)]
                if not token["up"] and token["kind"] == "monster":
                    assert not (ENGINE.label(st, i) + ": " in text and token["card"] in text.lower())
        assert "Keys hidden" not in text and "decoy on" not in text
        if step % 10 == 0:  # the same text whatever the hidden information
            assert rage_renderer.describe(ENGINE.view(scramble(st, step), None)) == text
        hidden_keys = [ENGINE.label(st, i) for i, t in enumerate(st["tiles"]) if t["key"] and not t["up"]]
        for lab in hidden_keys:
            assert f"key vault on {lab}" not in text.lower()


def test_the_wizards_board_names_every_token_of_a_stack(monkeypatch):
    """The wizard's own board: a stack of 7 tokens showed "- 4 - - ..." running into the next room; each monster's
    level and the decoys are now counted ("6D")."""
    from tests.games.rage.scenario import RageTable

    table = RageTable.ready(players=4)
    table.token("B5", "monster", level=4)
    table.token("B5", "monster", level=2)
    for _ in range(5):
        table.token("B5", "blank")
    table.token("D5", "trap")
    texts = [t for t, _ in drawn_texts(monkeypatch, rage_renderer.render_private, ENGINE.view(table.state, 0))]
    assert "5D" in texts and "T" in texts
    assert any(t.startswith("4 2") for t in texts)
    assert not any(t.endswith("…") for t in texts if t[:1] in "0123456789DT")


def test_a_gang_badge_is_explained_in_the_legend():
    """"5xL24" on a room of several monsters: the legend says what the "x" counts."""
    from tests.games.rage.scenario import RageTable

    table = RageTable.ready()
    table.token("B2", "monster", level=2, up=True)
    view = ENGINE.view(table.state, None)
    assert [w for _, w in rage_renderer.legend_entries(view) if "level" in w] == ["monsters, total level 6"]
    table.token("B2", "monster", level=3, up=True)
    view = ENGINE.view(table.state, None)
    assert [w for _, w in rage_renderer.legend_entries(view) if "level" in w] == ["2 monsters, total level 6"]


def test_the_board_ends_where_its_last_line_does():
    """The picture's height was reserved for two detail lines per hero, fallen ones too: a phone showed a band of
    empty board under the heroes."""
    from rendering.common import new_canvas
    from tests.games.rage.scenario import RageTable

    table = RageTable.ready(players=5)
    table.hero(2, hp=0).hero(3, hp=0)
    for seat in (2, 3):
        table.state["heroes"][seat]["alive"] = False
    view = ENGINE.view(table.state, None)
    d = new_canvas(4, 4)[1]
    assert rage_renderer._draw_panel(d, view, 0) == rage_renderer._panel_height(view)
