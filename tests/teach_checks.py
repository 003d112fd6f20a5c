"""Checks every game's teaching keeps (bot/teach.py): each game's ``tests/games/<key>/test_teach.py`` calls them.

  check_how_to_play(engine)      the four parts, short enough for one private message
  check_tutorial(engine)         every step's section is a heading of docs/rules/<key>.md and every heading is
                                 taught (or listed as reference in the game's teach.REFERENCE_SECTIONS, with why);
                                 a run-through: each step's expected moves are legal, a wrong move changes
                                 nothing and is explained, the run reaches its end; 10 minutes at most
  check_action_help(engine)      over seeded bot games, every kind (action type) offered has a help line
  unexplained_terms(engine)      the game's jargon in what players read that no glossary, how-to-play or help
                                 line explains (see ``jargon``)
"""
from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from bot.engine import Engine
from bot.teach import TutorialRun

RULES_DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
TUTORIAL_MINUTES = 10
HOW_TO_PLAY_CHARS = 3500  # one embed's description, with room for a title and the picture's alt text


def teach_module(engine: Engine) -> Any:
    """The game's ``teach`` module."""
    import importlib

    return importlib.import_module(type(engine).__module__.rpartition(".")[0] + ".teach")


def rules_sections(key: str) -> list[str]:
    """The ``## `` headings of the game's rules doc, in order."""
    text = (RULES_DOCS / f"{key}.md").read_text(encoding="utf-8")
    return [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]


def check_how_to_play(engine: Engine) -> None:
    """The how-to-play text exists, has its four parts, and fits one private message."""
    how = engine.how_to_play()
    assert how is not None, f"{engine.meta.key} has no HOW_TO_PLAY"
    for part in ("goal", "winning", "turn", "board"):
        assert getattr(how, part).strip(), f"{engine.meta.key}: how to play has no {part}"
    assert len(how.text()) <= HOW_TO_PLAY_CHARS, len(how.text())


def check_tutorial(engine: Engine) -> TutorialRun:
    """The tutorial teaches every section of the rules doc and can be played through (returns the finished run)."""
    key = engine.meta.key
    tutorial = engine.tutorial()
    assert tutorial is not None, f"{key} has no tutorial"
    sections = rules_sections(key)
    reference = dict(getattr(teach_module(engine), "REFERENCE_SECTIONS", {}))
    taught = {step.section for step in tutorial.steps}
    assert taught <= set(sections), f"steps name sections the rules doc lacks: {sorted(taught - set(sections))}"
    assert not set(reference) - set(sections), f"reference sections the doc lacks: {set(reference) - set(sections)}"
    assert all(why.strip() for why in reference.values()), "every reference section says why it isn't taught"
    missing = [s for s in sections if s not in taught and s not in reference]
    assert not missing, f"{key}: rules doc sections no tutorial step teaches: {missing}"
    minutes = tutorial.estimated_minutes()
    assert minutes <= TUTORIAL_MINUTES, f"{key}: the tutorial takes about {minutes:.1f} minutes"

    run = TutorialRun.begin(engine)
    for number, step in enumerate(tutorial.steps):
        assert run.index == number and run.step is step
        assert step.say.strip(), f"{key} step {number} says nothing"
        if step.expect is None:
            run.next()
            continue
        legal = run.legal()
        assert legal, f"{key} step {number} ({step.section}) asks for a move but the learner has none"
        for action in step.expect:
            assert action in legal, f"{key} step {number}: expected move {action} is not legal: {legal[:5]}"
        wrong = [a for a in legal if step.expect and a not in step.expect]
        if wrong:
            before = copy.deepcopy(run.state)
            result = run.answer(wrong[0])
            assert not result.right and result.text.strip(), f"{key} step {number}: a wrong move isn't explained"
            assert run.state == before and run.index == number, f"{key} step {number}: a wrong move changed the game"
        result = run.answer((step.expect or legal)[0])
        assert result.right, f"{key} step {number}: the expected move was refused: {result.text}"
    assert run.finished and tutorial.outro.strip()
    return run


def bot_games(engine: Engine, seeds: Iterable[int], players: Iterable[int] | None = None,
              options: dict[str, Any] | None = None) -> Iterator[tuple[dict[str, Any], int, list[dict[str, Any]]]]:
    """Every decision of seeded normal-bot games: ``(state, seat, legal)`` before the seat's move (the state is
    the live one: copy it to keep it)."""
    counts = list(players or range(engine.meta.min_players, engine.meta.max_players + 1))
    for seed in seeds:
        for count in counts:
            state = engine.setup([f"P{i + 1}" for i in range(count)], engine.meta.resolve_options(options), seed)
            rng = random.Random(seed)
            for _ in range(20_000):
                if engine.is_terminal(state):
                    break
                seat = engine.to_act(state)[0]
                legal = engine.legal_actions(state, seat)
                yield state, seat, legal
                engine.apply(state, seat, engine.bot_action(state, seat, rng))


def check_action_help(engine: Engine, seeds: Iterable[int] = range(3)) -> None:
    """At every decision of some seeded games, ``action_help`` explains every kind of move offered."""
    for state, seat, legal in bot_games(engine, seeds):
        kinds = {str(a.get("type")) for a in legal}
        lines = engine.action_help(state, seat, legal)
        assert isinstance(lines, dict), "action_help returns {action type: one plain line}"
        missing = kinds - set(lines)
        assert not missing, f"{engine.meta.key}: no help for {sorted(missing)} (offered {sorted(kinds)})"
        for kind, line in lines.items():
            assert line.strip() and "\n" not in line, f"{engine.meta.key}: help for {kind} is not one line"


def texts_players_read(engine: Engine, seeds: Iterable[int] = range(3)) -> list[str]:
    """What a player reads during seeded bot games: move labels and their groups, status lines, every event's
    text (public and private), each seat's private text, the board's alt text (the renderer's ``describe``)."""
    from rendering import renderer

    describe = getattr(renderer(engine.meta.key), "describe", None)
    texts: list[str] = []
    for state, seat, legal in bot_games(engine, seeds):
        texts.append(engine.status_line(state))
        for action in legal:
            texts.append(engine.describe_action(state, seat, action))
            texts.append(engine.action_group(state, seat, action))
        texts.append(engine.private_text(engine.view(state, seat)))
        if describe is not None:
            texts.append(describe(engine.view(state, None)))
        probe = copy.deepcopy(state)
        action = engine.bot_action(probe, seat, random.Random(len(texts)))
        texts += [e.get("text", "") for e in engine.apply(probe, seat, action)]
    return texts


WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
RARE = 3.0  # a word rarer than this (wordfreq's Zipf scale: 3 = once per million words) is the game's own


def jargon(texts: Iterable[str], names: Iterable[str] = ()) -> set[str]:
    """Words that need explaining: rare in English (wordfreq), in capitals (``MANDATORY``, ``WILD``), or short
    abbreviations (``obs``, ``Drv``); player names left out."""
    from wordfreq import zipf_frequency

    skip = {n.lower() for name in names for n in WORD.findall(name)}
    found: set[str] = set()
    for text in texts:
        for word in WORD.findall(text or ""):
            low = word.lower()
            if low in skip:
                continue
            if (len(word) > 1 and word.isupper() and word not in ("OK",)) or zipf_frequency(low, "en") < RARE:
                found.add(low)
    return found


def explained_words(engine: Engine, help_lines: Iterable[str] = ()) -> set[str]:
    """Every word of the game's glossary (terms and explanations), how-to-play text and help lines."""
    how = engine.how_to_play()
    words = " ".join([*engine.glossary().keys(), *engine.glossary().values(), how.text() if how else "",
                      *help_lines])
    return {w.lower() for w in WORD.findall(words)}


def unexplained_terms(engine: Engine, seeds: Iterable[int] = range(3)) -> set[str]:
    """The jargon of what players read that nothing a player can open explains (the game's teach module may list
    ``PROPER_NAMES``: names, such as cards', whose every appearance carries its own description)."""
    names = [f"P{i + 1}" for i in range(engine.meta.max_players)]
    names += list(getattr(teach_module(engine), "PROPER_NAMES", ()))
    help_lines: list[str] = []
    for state, seat, legal in bot_games(engine, seeds):
        help_lines += engine.action_help(state, seat, legal).values()
    return jargon(texts_players_read(engine, seeds), names) - explained_words(engine, help_lines)
