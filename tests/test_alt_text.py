"""Alt text for a board (issue 27, item 11): a space before the recap, a long description cut at a word (with an
ellipsis), no space before a comma. Drawn from the same view as the picture (cogs.embeds.alt_text)."""
from __future__ import annotations

import random

from bot.games import get_engine
from bot.storage import GameRow
from cogs import embeds


def game_of(key: str, names: list[str], seed: int, moves: int = 0):
    engine = get_engine(key)
    state = engine.setup(names, engine.meta.resolve_options({}), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
    game = GameRow(id=7, guild_id=1, channel_id=2, game_key=key, status="running", host_id=1, options={},
                   seed=seed, seats=[{"name": n} for n in names], state=state, version=moves)
    return game, engine, state


def test_the_recap_is_a_sentence_of_its_own():
    game, engine, state = game_of("dummy", ["Ann", "Bob"], 1)
    text = embeds.alt_text(game, engine, "board", engine.view(state, None),
                           [{"type": "x", "text": "Bob frowns."}])
    assert ". Just happened: Bob frowns." in text, text


def test_a_long_description_is_cut_at_a_word_and_spaced_right():
    game, engine, state = game_of("tower", ["Alice", "Bruno", "Chiara", "Dario", "Elena"], 3)
    view = engine.view(state, None)
    events = [{"type": "x", "text": f"Alice claims card {n} on floor 2."} for n in range(8)]
    text = embeds.alt_text(game, engine, "board", view, events)
    assert len(text) <= embeds.ALT_TEXT_LIMIT
    head, _, recap = text.partition(" Just happened: ")
    assert recap, text
    whole = embeds.plain(f"{engine.meta.name}, table #{game.id}. {embeds.renderer('tower').describe(view)}")
    assert head.endswith("…") and len(head) < len(whole)
    kept = head[:-1]
    assert whole.startswith(kept) and not whole[len(kept)].isalnum(), head[-30:]  # whole words kept
    assert " ," not in text and "( " not in text and " )" not in text, text
