"""HEIST "fair and fun": forced prompts, start-player rotation, solo target, balance tally."""
from __future__ import annotations

import json

from bot.games.heist import ENGINE as E
from tests.test_heist_rules import choose, new, set_bag, set_hand, texts


# ------------------------------------------------------------------ forced prompts
def test_assist_prompt_skipped_when_the_board_shows_no_card() -> None:
    """An empty hand is public (hand sizes are on the board): that seat isn't asked."""
    st = new(3, seed=2)
    a = st["active"]
    x, y = [(a + 1) % 3, (a + 2) % 3]
    st["deck"] += st["hands"][x]
    st["hands"][x] = []
    ev = choose(st, "A")
    assert E.to_act(st) == [y]
    assert "has no cards: no assist" in texts(ev)
    assert E.view(st, None)["test"]["committed"] == [x]
    E.apply(st, y, {"type": "no_assist"})
    assert st["phase"] == "tricks"


def test_assist_prompt_skipped_for_lone_card_away_from_the_job() -> None:
    st = new(3, seed=2)
    a = st["active"]
    x, y = [(a + 1) % 3, (a + 2) % 3]
    set_hand(st, x, ["Lookout"])
    set_hand(st, y, ["Tumble"])  # y's single card: y is away too, so both are skipped
    ev = choose(st, "B")
    assert st["phase"] == "tricks" and "Assists revealed" in texts(ev)
    assert "can't pay to move" in texts(ev)


def test_assist_prompt_still_asked_when_being_forced_would_reveal_the_hand() -> None:
    """A hand of tricks only has 'No assist' as its one answer, but the public can't see
    that: skipping the prompt would tell everyone, so the seat is still asked."""
    st = new(3, seed=2)
    a = st["active"]
    x = (a + 1) % 3
    set_hand(st, x, ["Tumble", "Brute Force", "Cold Read"])
    choose(st, "A")
    assert x in E.to_act(st)
    assert E.legal_actions(st, x) == [{"type": "no_assist"}]
    st["locations"][x] = "A"
    set_hand(st, x, ["Tumble"])  # one trick at the job: still hidden
    assert x in E.to_act(st) and E.legal_actions(st, x) == [{"type": "no_assist"}]


def test_resolve_asked_unless_the_hand_is_empty() -> None:
    st = new(2, seed=3)
    a = st["active"]
    set_hand(st, a, ["Lookout"])  # no trick, but the public doesn't know that
    set_bag(st, yellow=4)
    choose(st, "A")
    E.apply(st, 1 - a, {"type": "no_assist"})
    assert st["phase"] == "tricks" and E.legal_actions(st, a) == [{"type": "resolve"}]
    st2 = new(2, seed=3)
    a = st2["active"]
    st2["deck"] += st2["hands"][a]
    st2["hands"][a] = []
    set_bag(st2, yellow=4)
    choose(st2, "A")
    ev = E.apply(st2, 1 - a, {"type": "no_assist"})
    assert "has no cards left" in texts(ev) and ("SUCCESS" in texts(ev) or "FAILURE" in texts(ev))
    assert st2["active"] != a or st2["phase"] == "choose"


def test_single_obstacle_left_is_chosen_for_you() -> None:
    st = new(2, seed=3)
    for letter in "BC":
        st["boxed"] += st["jobs"][letter]
        st["jobs"][letter] = []
    st["boxed"] += st["jobs"]["D"][:-1]
    st["jobs"]["D"] = ["D7"]  # one test, no "or"
    st["boxed"] += st["jobs"]["A"][1:]
    st["jobs"]["A"] = ["A1"]
    a = st["active"]
    set_hand(st, a, ["Lookout", "Lookout"])
    set_bag(st, yellow=4)
    assert len(E.legal_actions(st, a)) == 2
    choose(st, "A")
    E.apply(st, 1 - a, {"type": "no_assist"})
    ev = E.apply(st, a, {"type": "resolve"})
    # A1 is gone either way; D7 is the next player's only choice, so it is made for them.
    assert st["active"] == 1 - a and st["phase"] == "assist" and st["test"]["obstacle"] == "D7"
    assert "faces D7" in texts(ev)
