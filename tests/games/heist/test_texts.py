"""HEIST's words agree with its code (issue 29, item 5): the rules summary, the how-to-play text and the rules doc
say what the rule sets' data does, because the sentences are made from that data."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.heist import ENGINE, rules, texts

DOC = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "heist.md").read_text(encoding="utf-8")


def _sentence_with(text: str, words: str) -> str:
    """The sentence (or line) of ``text`` that holds ``words``."""
    found = [s for s in re.split(r"(?<=[.!?])\s+|\n", text) if words in s]
    assert found, f"no sentence mentions {words!r}"
    return found[0]


def test_the_head_start_sentence_names_every_player_count_that_has_one() -> None:
    counts = {n for n in range(1, 7) if rules.TUNED.head_start[n]}
    assert counts == {5, 6}  # the measured counts (docs/rules/heist.md, "Tuned and rulebook rules")
    said = {int(n) for n in re.findall(r"\d+", _sentence_with(ENGINE.meta.summary, "head start"))} - {1}
    assert said == counts, said
    ties = {n for n in range(1, 7) if rules.TUNED.start_wins_ties[n]}
    assert ties == {3}
    said = {int(n) for n in re.findall(r"\d+", _sentence_with(ENGINE.meta.summary, "wins ties"))}
    assert said == ties, said


def test_no_text_says_a_job_ends_with_its_7th_obstacle() -> None:
    """Tuned jobs are 3-7 obstacles long: it is the last one in play that is Mandatory and completes the job."""
    for text in (ENGINE.meta.summary, DOC):
        for wrong in ("job's 7th obstacle is Mandatory", "when its 7th obstacle is overcome", "its 7th obstacle overcome"):
            assert wrong not in text
    assert texts.job_length_text(rules.TUNED) in ENGINE.meta.summary


def test_job_lengths_and_head_start_in_words() -> None:
    assert rules.TUNED.job_length[1:] == (3, 3, 5, 6, 7, 7)
    assert texts.job_length_text(rules.TUNED) == "3 obstacles at 1-2 players, 5 at 3, 6 at 4 and all 7 at 5-6"
    assert texts.head_start_text(rules.TUNED) == "at 5 and 6 players the start player gets a 1-cheese head start"
    assert texts.start_ties_text(rules.TUNED) == "at 3 players the start player wins ties on cheese"
    assert texts.start_ties_text(rules.RULEBOOK) == "no tie-break for the start player"
    assert texts.job_length_text(rules.RULEBOOK) == "all 7 obstacles at every player count"
    assert texts.head_start_text(rules.RULEBOOK) == "no head start"


@pytest.mark.parametrize("rule_set", rules.SETS, ids=lambda r: r.name)
def test_the_rules_doc_says_what_each_set_does(rule_set: rules.RuleSet) -> None:
    for phrase in (texts.job_length_text(rule_set), texts.head_start_text(rule_set),
                   texts.start_ties_text(rule_set), texts.round_order_text(rule_set)):
        assert phrase in DOC, phrase


def _everything_players_and_hosts_read() -> dict[str, str]:
    tutorial = ENGINE.tutorial()
    steps = " ".join(" ".join((step.say, step.hint, step.wrong, step.after)) for step in tutorial.steps)
    return {"summary": ENGINE.meta.summary, "how to play": ENGINE.how_to_play().text(), "tutorial": steps,
            "glossary": " ".join(ENGINE.glossary().values()), "rules doc": DOC}


def _counts_in(sentence: str, phrase: str) -> set[int]:
    """The player counts a sentence gives ``phrase`` ("at 5 and 6 players the start player gets ...")."""
    clause = next(part for part in re.split(r"[;:]|, and ", sentence) if phrase in part)
    match = re.search(r"[Aa]t ([\d, and]+) players", clause)
    assert match, clause
    return {int(n) for n in re.findall(r"\d+", match.group(1))}


def test_every_text_that_states_the_start_players_edge_states_the_data() -> None:
    """Issue 29 item 5: "At 3 and 6 players" (5 missing) in the texts while the code gave 5 a head start too. Every
    sentence anywhere that says who gets the head start or wins ties (present tense) names the data's counts."""
    head = {n for n in range(1, 7) if rules.TUNED.head_start[n]}
    ties = {n for n in range(1, 7) if rules.TUNED.start_wins_ties[n]}
    stated: dict[str, set[str]] = {}
    for where, text in _everything_players_and_hosts_read().items():
        for sentence in re.split(r"(?<=[.!?])\s+|\n\n", text):
            sentence = " ".join(sentence.split())
            if re.search(r"players the start player gets a \d-cheese head start", sentence):
                assert _counts_in(sentence, "head start") == head, (where, sentence)
                stated.setdefault(where, set()).add("head start")
            if "players the start player wins ties" in sentence:
                assert _counts_in(sentence, "wins ties") == ties, (where, sentence)
                stated.setdefault(where, set()).add("ties")
    assert {where: sorted(said) for where, said in stated.items()} == {
        where: ["head start", "ties"] for where in ("summary", "tutorial", "glossary", "rules doc")}
