"""Rule tests for Masterminds: Heist Society: setup, PREP, HEIST, completion,
interrupt windows, card powers, abilities, game end and every documented decision."""
from __future__ import annotations

import json

import pytest

from bot.games.masterminds.cards import CLEAR, HEISTS, PREP, TALENTS
from bot.games.masterminds.scenario import MastermindsTable
from tests.games.masterminds.test_util import (
    ENGINE,
    check,
    clear_hands,
    fresh,
    go,
    heist_state,
    hid,
    pass_all,
    play,
    rig,
    set_hand,
    set_heist,
    set_team,
    texts,
    tid,
    top_failure,
    top_prep,
)
from tests.playout import assert_rejects


# ----------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup(n):
    s = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options({}), 42)
    assert s["dice"] == [5] * n
    assert s["bag"] == {c: 5 for c in s["colours"]} | {CLEAR: 10}
    assert all(g[CLEAR] == 1 and sum(g.values()) == 1 for g in s["gems"])
    assert all(len(h) == 4 for h in s["hands"])
    assert not any(PREP[p]["kind"] == "immediate" for h in s["hands"] for p in h)
    assert len(s["pool"]) == 3 and all(s["heists"]) and s["target"] == n + 1
    last = s["first_rolls"][-1]
    assert s["first"] == s["turn"] == max(last, key=lambda r: r[1])[0]
    assert [r[1] for r in last].count(max(r[1] for r in last)) == 1
    check(s)


def test_setup_rolloff_ties_reroll():
    for seed in range(200):
        s = ENGINE.setup(["A", "B", "C", "D", "E"], ENGINE.meta.resolve_options({}), seed)
        if len(s["first_rolls"]) > 1:
            first = s["first_rolls"][0]
            best = max(r for _, r in first)
            tied = [seat for seat, r in first if r == best]
            assert [seat for seat, _ in s["first_rolls"][1]] == tied
            return
    pytest.fail("no tie in 200 seeds")


def test_heist_is_a_of_one_card_and_b_of_another():
    s = fresh(2)
    for h in s["heists"]:
        assert h["a"] != h["b"]
    v = ENGINE.view(s, None)["heists"][0]
    h = s["heists"][0]
    assert v["name"] == HEISTS[h["a"]]["name"] and v["take"] == HEISTS[h["b"]]["take"]
    assert v["steps"][0]["number"] == HEISTS[h["a"]]["a"]["number"]
    assert [st["number"] for st in v["steps"][1:]] == [x["number"] for x in HEISTS[h["b"]]["b"]]


# ----------------------------------------------------------------- PREP
def test_recruit_then_two_plan_actions_then_next_player():
    s = fresh(2)
    clear_hands(s)
    t = s["pool"][0]
    play(s, 0, {"type": "recruit", "card": t})  # into an empty team: no question who leaves
    assert s["teams"][0][-1]["card"] == t and s["phase"] == "plan" and s["plan_left"] == 2
    assert t not in s["pool"]
    play(s, 0, {"type": "draw"})
    assert s["phase"] == "plan" and s["plan_left"] == 1
    play(s, 0, {"type": "draw"})
    assert s["turn"] == 1 and s["phase"] == "turn"
    assert len(s["pool"]) == 3  # refreshed in upkeep
    check(s)


def test_team_of_four_must_replace():
    """Into a full team hiring is two picks: the Talent, then who it replaces."""
    s = fresh(2)
    team = set_team(s, 0, ["Rosa Vance", "Ghost", "Byte", "Big Tomas"], {"Ghost": "Shadow Suit"})
    new = s["pool"][0]
    play(s, 0, {"type": "recruit", "card": new})
    assert s["phase"] == "replace" and new in s["pool"]  # nothing has happened yet
    assert ENGINE.legal_actions(s, 0) == [{"type": "replace", "recruit": t} for t in team] + [{"type": "back"}]
    assert [a for a in ENGINE.legal_actions(fresh(2), 0) if a["type"] == "recruit" and a.get("swap")] == []
    ghost = tid("Ghost")
    play(s, 0, {"type": "replace", "recruit": ghost})
    assert ghost in s["talent_discard"] and len(s["teams"][0]) == 4 and new not in s["pool"]
    assert any(PREP[p]["name"] == "Shadow Suit" for p in s["prep_discard"])  # the gear goes too
    check(s)


def test_may_replace_even_below_four_or_go_back():
    """ "You may replace (discard) a Recruit when doing this": with room on the team a Talent simply joins, or
    (the second option of each) replaces one of yours, picked next."""
    s = fresh(2)
    set_team(s, 0, ["Rosa Vance", "Ghost"])
    new = s["pool"][0]
    before = ENGINE.legal_actions(s, 0)
    assert [a for a in before if a["type"] == "recruit"][:2] == [{"type": "recruit", "card": new},
                                                                {"type": "recruit", "card": new, "swap": True}]
    play(s, 0, {"type": "recruit", "card": new, "swap": True})
    assert ENGINE.legal_actions(s, 0) == [{"type": "replace", "recruit": tid("Rosa Vance")},
                                          {"type": "replace", "recruit": tid("Ghost")}, {"type": "back"}]
    play(s, 0, {"type": "back"})
    assert s["phase"] == "turn" and ENGINE.legal_actions(s, 0) == before
    play(s, 0, {"type": "recruit", "card": new, "swap": True})
    play(s, 0, {"type": "replace", "recruit": tid("Ghost")})
    assert [e["card"] for e in s["teams"][0]] == [tid("Rosa Vance"), new] and s["phase"] == "plan"
    check(s)


def test_burn_pool_then_hire_or_pool():
    s = fresh(2)
    old = list(s["pool"])
    top = s["talent_deck"][-1]
    play(s, 0, {"type": "burn"})
    assert s["phase"] == "burned" and s["pool"] == [] and all(t in s["talent_discard"] for t in old)
    check(s)
    play(s, 0, {"type": "to_pool"})
    assert s["pool"] == [top] and s["phase"] == "plan"
    s = fresh(2, seed=3)
    top = s["talent_deck"][-1]
    play(s, 0, {"type": "burn"})
    play(s, 0, {"type": "hire"})
    assert s["teams"][0][-1]["card"] == top or TALENTS[top]["ability"] == "scout"
    check(s)


def test_skip_recruit_draws_a_prep_card():
    s = fresh(2)
    clear_hands(s)
    top_prep(s, "Getaway Car")
    ev = play(s, 0, {"type": "draw_prep"})
    assert [PREP[p]["name"] for p in s["hands"][0]] == ["Getaway Car"]
    assert s["phase"] == "plan"
    assert "Getaway Car" not in texts(ev)
    assert any(e.get("to") == 0 and "Getaway Car" in e["text"] for e in ev)


def test_play_two_gear_one_per_recruit():
    s = fresh(2)
    rosa, ghost = set_team(s, 0, ["Rosa Vance", "Ghost"])
    set_hand(s, 0, ["Getaway Car", "Shadow Suit", "Laptop Rig"])
    play(s, 0, {"type": "draw_prep"})
    car = s["hands"][0][0]
    play(s, 0, {"type": "gear", "card": car, "recruit": rosa})
    assert s["phase"] == "gear2"
    legal = ENGINE.legal_actions(s, 0)
    assert all(a.get("recruit") != rosa for a in legal)  # max one gear per recruit
    suit = next(p for p in s["hands"][0] if PREP[p]["name"] == "Shadow Suit")
    play(s, 0, {"type": "gear", "card": suit, "recruit": ghost})
    assert s["phase"] == "plan" and s["plan_left"] == 1
    assert s["teams"][0][0]["gear"] == car and s["teams"][0][1]["gear"] == suit
    # No recruit without gear: no gear action any more.
    assert not any(a["type"] == "gear" for a in ENGINE.legal_actions(s, 0))
    check(s)


def test_single_gear_then_stop():
    s = fresh(2)
    rosa, ghost = set_team(s, 0, ["Rosa Vance", "Ghost"])
    set_hand(s, 0, ["Getaway Car", "Shadow Suit"])
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "gear", "card": s["hands"][0][0], "recruit": rosa})
    play(s, 0, {"type": "gear_done"})
    assert s["plan_left"] == 1


def test_trade_moves_and_swaps_gear():
    s = fresh(2)
    rosa, ghost, byte = set_team(s, 0, ["Rosa Vance", "Ghost", "Byte"], {"Rosa Vance": "Shadow Suit", "Byte": "Getaway Car"})
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "trade", "from": rosa, "to": ghost})
    team = {e["card"]: e for e in s["teams"][0]}
    assert team[rosa]["gear"] is None and PREP[team[ghost]["gear"]]["name"] == "Shadow Suit"
    play(s, 0, {"type": "trade", "from": byte, "to": ghost})
    team = {e["card"]: e for e in s["teams"][0]}
    assert PREP[team[byte]["gear"]]["name"] == "Shadow Suit" and PREP[team[ghost]["gear"]]["name"] == "Getaway Car"
    check(s)


def test_end_plan_early():
    s = fresh(2)
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "end_plan"})
    assert s["turn"] == 1


def test_hand_limit_discard_in_upkeep():
    s = fresh(2)
    set_hand(s, 0, ["Getaway Car", "Shadow Suit", "Laptop Rig", "Hydraulic Jack", "Blueprints", "Earpiece Comms"])
    top_prep(s, "Adrenaline")
    top_prep(s, "Sabotage")
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "draw"})
    play(s, 0, {"type": "end_plan"})
    assert s["phase"] == "discard" and len(s["hands"][0]) == 8
    play(s, 0, {"type": "discard", "card": s["hands"][0][0]})
    assert s["phase"] == "discard"
    play(s, 0, {"type": "discard", "card": s["hands"][0][0]})
    assert s["phase"] == "turn" and s["turn"] == 1 and len(s["hands"][0]) == 6
    check(s)


# ----------------------------------------------------------------- action cards
def _planning(table: MastermindsTable, *names: str) -> MastermindsTable:
    """Seat 0 holds these Prep cards and has chosen PREP (skipping the recruit): the plan phase."""
    play(table.hand(0, *names).state, 0, {"type": "draw_prep"})
    return table


def _plan_with(s, names):
    """As ``_planning``; the ids of the cards in hand by name."""
    _planning(MastermindsTable.of(s), *names)
    return {PREP[p]["name"]: p for p in s["hands"][0]}


def test_action_without_and_with_gem():
    table = _planning(MastermindsTable().team(0, "Rosa Vance"), "Casing the Joint", "Casing the Joint")
    s = table.state
    p1, p2 = table.held(0, "Casing the Joint")
    play(s, 0, {"type": "action", "card": p1, "gem": False})
    assert s["intel"][0] == 2
    bag = s["bag"][CLEAR]
    play(s, 0, {"type": "action", "card": p2, "gem": True})
    assert s["intel"][0] == 6 and s["gems"][0][CLEAR] == 0 and s["bag"][CLEAR] == bag + 1
    check(s)


def test_gem_option_only_with_a_gem():
    s = MastermindsTable().gems(0, Clear=0).state
    cards = _plan_with(s, ["Call in Favours"])
    acts = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "action"]
    assert acts == [{"type": "action", "card": cards["Call in Favours"], "gem": False}]


def test_a_gem_bonus_asks_which_colour_when_you_hold_several():
    """The card, then what you pay: with a Clear and a Red gem the colour is the next question."""
    s = MastermindsTable().gems(0, Red=1, Clear=1).state
    cards = _plan_with(s, ["Casing the Joint"])
    assert [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "action"] == [
        {"type": "action", "card": cards["Casing the Joint"], "gem": False},
        {"type": "action", "card": cards["Casing the Joint"], "gem": True}]
    play(s, 0, {"type": "action", "card": cards["Casing the Joint"], "gem": True})
    assert s["phase"] == "pay" and ENGINE.legal_actions(s, 0) == [{"type": "pay", "colour": "Red"},
                                                                  {"type": "pay", "colour": CLEAR}]
    check(s)
    ev = play(s, 0, {"type": "pay", "colour": "Red"})
    assert s["intel"][0] == 4 and s["gems"][0]["Red"] == 0 and "spending a Red gem" in texts(ev)
    check(s)


def test_instead_gem_replaces_the_effect():
    s = fresh(2)
    cards = _plan_with(s, ["Black Market"])
    before = len(s["hands"][0])
    for _ in range(3):
        top_prep(s, "Getaway Car") if len([p for p in s["prep_deck"] if PREP[p]["name"] == "Getaway Car"]) else top_prep(s, "Laptop Rig")
    play(s, 0, {"type": "action", "card": cards["Black Market"], "gem": True})
    assert len(s["hands"][0]) == before - 1 + 3  # 3 drawn, not 1 + 3
    check(s)


def test_call_in_favours_gem_adds():
    s = fresh(2)
    cards = _plan_with(s, ["Call in Favours"])
    for nm in ("Getaway Car", "Laptop Rig", "Hydraulic Jack"):
        top_prep(s, nm)
    before = len(s["hands"][0])
    play(s, 0, {"type": "action", "card": cards["Call in Favours"], "gem": True})
    assert len(s["hands"][0]) == before - 1 + 3


def test_sabotage_targets_a_rival():
    s = fresh(3)
    set_hand(s, 1, ["Getaway Car", "Laptop Rig"])
    set_hand(s, 2, [])
    cards = _plan_with(s, ["Sabotage"])
    play(s, 0, {"type": "action", "card": cards["Sabotage"], "gem": True})
    # Only seat 1 holds cards: the target is chosen automatically.
    assert s["hands"][1] == [] and s["phase"] == "plan"
    check(s)


def test_double_cross_base_and_instead():
    table = (MastermindsTable().team(1, "Ghost", "Byte", gear={"Ghost": "Shadow Suit", "Byte": "Laptop Rig"})
             .heist(0, "Casino Vault", "Server Farm", dice=[(1, 4), (1, 4)]))
    s = _planning(table, "Double-Cross", "Double-Cross").state
    dc = table.held(0, "Double-Cross")
    play(s, 0, {"type": "action", "card": dc[0], "gem": False})
    assert s["phase"] == "target"
    assert {a.get("recruit") for a in ENGINE.legal_actions(s, 0)} == {tid("Ghost"), tid("Byte")}
    play(s, 0, {"type": "target", "recruit": tid("Ghost")})
    assert s["teams"][1][0]["gear"] is None
    table.gems(0, Clear=1)
    play(s, 0, {"type": "action", "card": dc[1], "gem": True})
    # Instead: the last die on a heist returns to its owner (one heist has dice: automatic).
    assert s["heists"][0]["dice"][1] is None and s["heists"][0]["dice"][0] is not None
    assert s["dice"][1] == 4
    check(s)


def test_headhunter_with_gem_recruits_from_new_pool():
    s = fresh(2)
    set_team(s, 0, ["Rosa Vance"])
    cards = _plan_with(s, ["Headhunter"])
    old = list(s["pool"])
    play(s, 0, {"type": "action", "card": cards["Headhunter"], "gem": True})
    assert s["phase"] == "hire" and not set(old) & set(s["pool"])
    new = s["pool"][0]
    play(s, 0, {"type": "hire_pool", "card": new})
    assert any(e["card"] == new for e in s["teams"][0]) and s["phase"] in ("plan", "turn")
    check(s)


# ----------------------------------------------------------------- immediate cards
def test_immediate_cards_resolve_on_draw():
    s = fresh(2)
    clear_hands(s)
    top_prep(s, "Windfall")
    bag = sum(s["bag"].values())
    ev = play(s, 0, {"type": "draw_prep"})
    assert s["hands"][0] == [] and sum(s["bag"].values()) == bag - 1 and sum(s["gems"][0].values()) == 2
    assert "Windfall" in texts(ev)
    check(s)


def test_street_tip_and_rival_crew_and_lockdown():
    s = fresh(2)
    clear_hands(s)
    set_heist(s, 0, hid("Casino Vault"), hid("Server Farm"), [(0, 2), (1, 3)])
    set_heist(s, 1, hid("Yacht Party"), hid("Auction House"), [(1, 5)])
    top_prep(s, "Getaway Car")
    top_prep(s, "Laptop Rig")
    top_prep(s, "Street Tip")
    play(s, 0, {"type": "draw_prep"})
    assert sorted(PREP[p]["name"] for p in s["hands"][0]) == ["Getaway Car", "Laptop Rig"]
    pool = list(s["pool"])
    top_prep(s, "Rival Crew")
    play(s, 0, {"type": "draw"})
    assert not set(pool) & set(s["pool"]) and len(s["pool"]) == 3
    top_prep(s, "Lockdown")
    play(s, 0, {"type": "draw"})
    assert s["heists"][0]["dice"][1] is None and s["heists"][0]["dice"][0] == {"seat": 0, "value": 2}
    assert s["heists"][1]["dice"][0] is None and s["dice"] == [4, 5]
    check(s)


# ----------------------------------------------------------------- HEIST: tally
def attempt(s, recruits, skill=None, slot=0, resolve=True):
    """Seat 0 picks the step, then the crew; with ``resolve`` everyone passes in the windows."""
    h = s["heists"][slot]
    k = ENGINE._next_step(h)
    skill = skill or ENGINE._steps(h)[k]["skills"][0]
    return go(s, 0, slot, skill, recruits, resolve=resolve)


def test_perfection_face_matches_your_dice_without_a_question():
    """The free face only matters for matching your own dice there, so it is set to match them (no prompt)."""
    # Crown Jewels B is Stealth 7 (Casino Vault's B side); Ghost 4 + Shadow Suit 2 + Lone Wolf 2 = 8 > 7.
    s = heist_state(team=("Ghost",), gear={"Ghost": "Shadow Suit"}, dice=[(0, 3)])
    ev = attempt(s, [tid("Ghost")])
    assert "PERFECTION" in texts(ev) and "shows 3" in texts(ev)
    assert s["heists"][0]["dice"][1] == {"seat": 0, "value": 3} and s["dice"][0] == 3
    assert all(a["type"] != "face" for a in ENGINE.legal_actions(s, 0))
    # Two of your dice differ (2 and 5): either matches one of them; the higher is shown. A rival's die never counts.
    s = MastermindsTable.at_a_heist(team=("Ghost",), gear={"Ghost": "Shadow Suit"}, a="The Crown Jewels",
                                    b="Casino Vault", dice=[(0, 2), (1, 1), (0, 5)]).intel(0, 9).state
    ev = attempt(s, [tid("Ghost")])  # step D, Muscle 9: Ghost 1 + 9 Intel + Lone Wolf 2 = 12 > 9
    assert "PERFECTION" in texts(ev) and "shows 5" in texts(ev) and "bonus" not in texts(ev)
    assert s["phase"] == "turn" and s["turn"] == 1  # no fresh recruits: the run ends
    check(s)


def test_perfection_without_a_die_of_yours_there_needs_no_face_choice():
    """With none of your dice on the heist every face is alike: the die shows 6, no question asked."""
    s = heist_state(team=("Ghost",), gear={"Ghost": "Shadow Suit"}, dice=[])
    ev = attempt(s, [tid("Ghost")])
    assert "PERFECTION" in texts(ev) and s["phase"] == "turn"
    assert s["heists"][0]["dice"][0] == {"seat": 0, "value": 6}


def test_equal_total_before_roll_must_roll():
    # Ghost 4 + Lone Wolf 2 = 6: equal to Stealth 6 is not PERFECTION.
    s = heist_state(team=("Ghost",))
    rig(s, [3])
    ev = attempt(s, [tid("Ghost")])
    assert "P1 rolls 3 for Stealth 6: total 6 + 3 = 9 beats 6: SUCCESS." in texts(ev)
    assert s["heists"][0]["dice"][0] == {"seat": 0, "value": 3}


def test_push_ends_the_run():
    s = heist_state(team=("Rosa Vance", "Byte"))
    rig(s, [5])
    ev = attempt(s, [tid("Byte")])  # Stealth 1 + 5 = 6: push
    assert "PUSH" in texts(ev) and s["heists"][0]["dice"][0] is None and s["turn"] == 1
    assert all(not e["tapped"] for e in s["teams"][0])  # upkeep untapped them


def test_failure_not_triggered_is_safe():
    s = heist_state(team=("Byte",))
    rig(s, [1])
    top_failure(s, "Pulled Over")  # triggers Driving, Charm: Stealth is safe
    ev = attempt(s, [tid("Byte")])
    assert "This was a Stealth step: Byte is safe" in texts(ev) and len(s["teams"][0]) == 1 and s["turn"] == 1
    check(s)


def test_failure_choose_who_suffers_and_test_fails_busted():
    s = heist_state(team=("Marco Bellini", "Big Tomas"))
    rig(s, [1, 1])  # attempt roll 1, test roll 1
    top_failure(s, "Silent Alarm")  # Stealth/Hacking, test Stealth 5, busted
    attempt(s, [tid("Marco Bellini"), tid("Big Tomas")])  # Stealth 0 + 0 + 1 = 1 < 6
    assert s["phase"] == "suffer"
    assert {a["recruit"] for a in ENGINE.legal_actions(s, 0)} == {tid("Marco Bellini"), tid("Big Tomas")}
    ev = play(s, 0, {"type": "suffer", "recruit": tid("Big Tomas")})
    ev += pass_all(s)
    assert "arrested" in texts(ev) and [e["card"] for e in s["teams"][0]] == [tid("Marco Bellini")]
    assert s["turn"] == 1
    check(s)


def test_failure_test_beaten_is_safe():
    s = heist_state(team=("Marco Bellini",))
    rig(s, [1, 6])
    top_failure(s, "Silent Alarm")  # Stealth 0 + 6 = 6 > 5
    ev = attempt(s, [tid("Marco Bellini")])
    assert "safe" in texts(ev) and len(s["teams"][0]) == 1


def test_failure_test_equal_is_not_higher():
    s = heist_state(team=("Byte",))
    rig(s, [1, 4])
    top_failure(s, "Silent Alarm")  # Stealth 1 + 4 = 5: must score HIGHER than 5
    ev = attempt(s, [tid("Byte")])
    assert "caught" in texts(ev) and s["teams"][0] == []


def test_consequence_injured_stays_tapped_one_upkeep():
    s = heist_state(team=("Marco Bellini", "Rosa Vance"), a="Armoured Convoy")  # A: Driving 6
    rig(s, [1, 1])
    top_failure(s, "Fender Bender")  # Driving/Muscle, test Driving 4, injured
    attempt(s, [tid("Marco Bellini")])
    marco = s["teams"][0][0]
    assert marco["tapped"] and not marco["injured"]  # upkeep passed: still tapped, flag used up
    play(s, 1, {"type": "draw_prep"})
    play(s, 1, {"type": "end_plan"})
    play(s, 0, {"type": "heist", "heist": 0, "skill": "Driving"})
    assert not any(tid("Marco Bellini") in a["recruits"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "crew")
    msg = assert_rejects(ENGINE, s, 0, {"type": "crew", "recruits": [tid("Marco Bellini")]})
    assert "tapped" in msg
    play(s, 0, {"type": "back"})
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "end_plan"})
    assert not s["teams"][0][0]["tapped"]


def test_consequence_lost_gear():
    s = heist_state(team=("Rosa Vance",), gear={"Rosa Vance": "Getaway Car"}, a="First Federal Bank")  # Hacking 6
    rig(s, [1, 1])
    top_failure(s, "Fried Circuits")  # Rosa Hacking 0 + Lone Wolf 2 + 1 = 3 < 6; test Hacking 0 + 1 = 1, not > 4
    ev = attempt(s, [tid("Rosa Vance")])
    assert "loses Getaway Car" in texts(ev) and s["teams"][0][0]["gear"] is None
    check(s)
def test_consequence_lose_gem_choice():
    s = (MastermindsTable.at_a_heist(team=("Rosa Vance",), a="Casino Vault", b="Server Farm")  # A: Charm 5
         .gems(0, Red=1).dice(1, 1).next_failure("Hush Money").state)  # Charm/Hacking, test Charm 5
    attempt(s, [tid("Rosa Vance")])  # Charm 2 + 2 + 1 = 5: push!
    assert s["turn"] == 1  # a push: no failure card
    s = (MastermindsTable.at_a_heist(team=("Marco Bellini",), a="Casino Vault", b="Server Farm")
         .gems(0, Red=1).dice(1, 1).next_failure("Hush Money").state)
    attempt(s, [tid("Marco Bellini")])  # Charm 2 + 1 = 3 < 5; test 2 + 1 = 3 < 5
    assert s["phase"] == "lose_gem"
    play(s, 0, {"type": "give_gem", "colour": "Red"})
    assert s["gems"][0]["Red"] == 0 and s["bag"]["Red"] == 5
    check(s)


def test_consequence_lose_cards():
    s = heist_state(team=("Rosa Vance",), a="First Federal Bank")  # Hacking 6
    set_hand(s, 0, ["Getaway Car", "Laptop Rig", "Blueprints"])
    rig(s, [1, 1])
    top_failure(s, "Paper Trail")
    attempt(s, [tid("Rosa Vance")])
    assert len(s["hands"][0]) == 1
    check(s)


# ----------------------------------------------------------------- continue / hold
def test_continue_with_unused_recruits_only_same_heist():
    s = heist_state(team=("Ghost", "Silas Crane", "Big Tomas"), gear={"Ghost": "Shadow Suit"})
    attempt(s, [tid("Ghost")])
    assert s["phase"] == "continue"
    legal = ENGINE.legal_actions(s, 0)
    steps = [a for a in legal if a["type"] == "heist" and "recruits" not in a]
    assert steps == [{"type": "heist", "heist": 0, "skill": "Stealth"}]
    assert {"type": "hold"} in legal
    play(s, 0, steps[0])
    crews = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "crew"]
    assert crews and all(tid("Ghost") not in a["recruits"] for a in crews)
    # Crown Jewels B is Stealth 7 (from Casino Vault's B side).
    rig(s, [6])
    play(s, 0, {"type": "crew", "recruits": [tid("Silas Crane"), tid("Big Tomas")]})
    pass_all(s)
    assert s["heists"][0]["dice"][1] == {"seat": 0, "value": 6}
    assert s["phase"] == "turn" and s["turn"] == 1  # nobody fresh left
    check(s)


def test_hold_keeps_the_die_and_others_may_continue():
    s = heist_state(team=("Ghost", "Byte"), gear={"Ghost": "Shadow Suit"})
    set_team(s, 1, ["Lena Fox", "Silas Crane", "Iris Calder"])
    attempt(s, [tid("Ghost")])
    play(s, 0, {"type": "hold"})
    assert s["turn"] == 1 and s["heists"][0]["dice"][0] == {"seat": 0, "value": 6}
    # P2 may attempt step B of the same heist.
    assert any(a["type"] == "heist" and a["heist"] == 0 for a in ENGINE.legal_actions(s, 1))


def test_need_a_free_die():
    s = heist_state(team=("Ghost",), dice=[(0, 1), (0, 2), (0, 3)])
    set_heist(s, 1, hid("Yacht Party"), hid("Auction House"), [(0, 4), (0, 5)])
    assert s["dice"][0] == 0
    assert not any(a["type"] == "heist" for a in ENGINE.legal_actions(s, 0))
    msg = assert_rejects(ENGINE, s, 0, {"type": "heist", "heist": 0, "skill": "Stealth"})
    assert "free die" in msg
    check(s)


def test_at_most_three_recruits():
    s = heist_state(team=("Ghost", "Byte", "Big Tomas", "Rosa Vance"))
    play(s, 0, {"type": "heist", "heist": 0, "skill": "Stealth"})
    assert max(len(a["recruits"]) for a in ENGINE.legal_actions(s, 0) if a["type"] == "crew") == 3
    msg = assert_rejects(ENGINE, s, 0, {"type": "crew", "recruits": [e["card"] for e in s["teams"][0]]})
    assert "at most 3" in msg


def test_two_skill_step_choose_one():
    s = heist_state(team=("Ghost",), a="Museum After Dark")  # A: Stealth or Hacking 6
    skills = {a["skill"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "heist" and a["heist"] == 0}
    assert skills == {"Stealth", "Hacking"}


# ----------------------------------------------------------------- completion
def test_complete_step_d_checklist():
    # D = Muscle 9 (Casino Vault B side): Rosa 2 + Byte 0 + Ghost 1 + Intel 6 = 9 (not greater), rolled 4 -> 13 > 9.
    s = (MastermindsTable.at_a_heist(team=("Rosa Vance", "Byte", "Ghost"),
                                     gear={"Rosa Vance": "Getaway Car", "Byte": "Laptop Rig"},
                                     a="The Crown Jewels", b="Casino Vault", dice=[(0, 4), (1, 4), (0, 4)])
         .intel(0, 6).dice(4).next_prep("Blueprints").state)
    assert s["gems"] == [{c: 0 for c in s["colours"]} | {CLEAR: 1} for _ in range(2)] and s["hands"][0] == []
    ev = attempt(s, [tid("Rosa Vance"), tid("Byte"), tid("Ghost")])
    t = texts(ev)
    assert "completes The Crown Jewels" in t
    # Take 4 gems + bonus gem (three of P1's dice show 4).
    assert sum(s["gems"][0].values()) == 1 + 4 + 1 and "bonus gem" in t
    assert len(s["hands"][0]) == 1  # team of 3 < 4: draw a Prep card
    assert s["dice"] == [5, 5] and s["heists"][0] is None
    assert s["mementos"][0] == [hid("The Crown Jewels")]
    assert s["heist_deck"][0] == hid("Casino Vault")  # the B card goes to the bottom of the Heist deck
    assert all(e["gear"] is None for e in s["teams"][0])
    assert s["phase"] == "retire" and s["completed"] == 1
    play(s, 0, {"type": "retire", "recruit": tid("Byte")})
    assert [e["card"] for e in s["teams"][0]] == [tid("Rosa Vance"), tid("Ghost")] and s["turn"] == 1
    assert s["heists"][0] is not None and s["heists"][0]["dice"] == [None] * 4  # refilled in upkeep
    check(s)


def test_completion_no_draw_with_full_team_and_no_bonus_without_three():
    s = (MastermindsTable.at_a_heist(team=("Rosa Vance", "Byte", "Ghost", "Big Tomas"), a="The Crown Jewels",
                                     b="Casino Vault", dice=[(0, 4), (1, 4), (0, 5)])
         .intel(0, 9).dice(4).state)
    ev = attempt(s, [tid("Big Tomas")])
    assert "PERFECTION" in texts(ev)  # P1's dice show 4 and 5 (P2's 4 doesn't count): two alike at most
    assert "bonus" not in texts(ev) and s["hands"][0] == []
    assert sum(s["gems"][0].values()) == 1 + 4


def test_completer_takes_all_and_dice_return_to_owners():
    s = MastermindsTable.at_a_heist(team=("Big Tomas",), a="The Crown Jewels", b="Casino Vault",
                                    dice=[(0, 2), (1, 3), (1, 6)]).intel(0, 9).state
    attempt(s, [tid("Big Tomas")])
    assert s["dice"] == [5, 5] and sum(s["gems"][1].values()) == 1 and sum(s["gems"][0].values()) == 5
    # A single recruit retires automatically.
    assert s["teams"][0] == [] and s["turn"] == 1
    check(s)


# ----------------------------------------------------------------- interrupt window
def test_window_opens_for_everyone_even_without_interrupts():
    s = heist_state(team=("Ghost",))
    rig(s, [6])
    ev = attempt(s, [tid("Ghost")], resolve=False)
    assert s["phase"] == "window" and sorted(ENGINE.to_act(s)) == [0, 1]
    assert ENGINE.legal_actions(s, 0) == [{"type": "pass"}] and ENGINE.legal_actions(s, 1) == [{"type": "pass"}]
    assert ENGINE.describe_action(s, 0, {"type": "pass"}) == "Roll without an interrupt"
    assert "everyone may play an interrupt or pass" in texts(ev)


def test_window_simultaneous_hidden_then_resolves():
    s = heist_state(n=3, team=("Byte",))
    set_hand(s, 0, ["Adrenaline"])
    set_hand(s, 1, ["Jammed Radio"])
    set_hand(s, 2, ["Cover Story"])  # "self" only: seat 2 can't use it on P1's attempt
    attempt(s, [tid("Byte")], resolve=False)
    assert s["phase"] == "window" and sorted(ENGINE.to_act(s)) == [0, 1, 2]
    assert ENGINE.legal_actions(s, 2) == [{"type": "pass"}]
    assert ENGINE.timeout_action(s, 1, __import__("random").Random(1)) == {"type": "pass"}
    jam = s["hands"][1][0]
    ev = play(s, 1, {"type": "interrupt", "card": jam})
    assert ENGINE.to_act(s) == [0, 2]
    assert "Jammed Radio" not in texts(ev)
    assert "Jammed Radio" not in json.dumps(ENGINE.view(s, None)) and jam in s["hands"][1]
    assert ENGINE.view(s, 1)["private"]["committed"] == "Jammed Radio"
    play(s, 2, {"type": "pass"})
    rig(s, [5])
    ev = play(s, 0, {"type": "pass"})
    t = texts(ev)
    assert "P2 plays Jammed Radio" in t and "total -1 + 5 = 4" in t  # Stealth 1 - 2 + 5 = 4 < 6
    assert jam in s["prep_discard"]
    check(s)


def test_window_closes_when_all_pass():
    s = heist_state(n=3, team=("Ghost",))
    set_hand(s, 1, ["Jammed Radio"])
    set_hand(s, 2, ["Adrenaline"])
    attempt(s, [tid("Ghost")], resolve=False)
    assert sorted(ENGINE.to_act(s)) == [0, 1, 2]
    play(s, 2, {"type": "pass"})
    play(s, 0, {"type": "pass"})
    rig(s, [3])
    ev = play(s, 1, {"type": "pass"})
    assert "Nobody plays an interrupt" in texts(ev) and "rolls 3" in texts(ev)
    assert len(s["hands"][1]) == 1 and len(s["hands"][2]) == 1


def test_window_has_its_own_short_deadline():
    s = heist_state(n=3, team=("Ghost",))
    options = ENGINE.meta.resolve_options({"interrupt_seconds": "12"})
    assert ENGINE.window_seconds(s, options) is None  # an ordinary turn: the table's turn timer applies
    attempt(s, [tid("Ghost")], resolve=False)
    assert s["phase"] == "window" and ENGINE.window_seconds(s, options) == 12
    assert ENGINE.window_seconds(s, ENGINE.meta.resolve_options({})) == 20


def test_interrupt_adrenaline_and_lucky_break():
    s = heist_state(team=("Byte",))
    set_hand(s, 0, ["Adrenaline"])
    attempt(s, [tid("Byte")], resolve=False)
    play(s, 1, {"type": "pass"})
    rig(s, [3])
    ev = play(s, 0, {"type": "interrupt", "card": s["hands"][0][0]})
    assert "total 3 + 3 = 6 equals 6: PUSH" in texts(ev)
    s = heist_state(team=("Byte",))
    set_hand(s, 0, ["Lucky Break"])
    attempt(s, [tid("Byte")], resolve=False)
    play(s, 1, {"type": "pass"})
    rig(s, [2, 6])
    ev = play(s, 0, {"type": "interrupt", "card": s["hands"][0][0]})
    assert "rolls 2, 6 (keeps 6)" in texts(ev) and s["heists"][0]["dice"][0]["value"] == 6


def test_an_interrupt_label_says_whose_roll_it_changes():
    """A newcomer read "Play Adrenaline: +2 to the total of the roll about to be made" on a rival's roll and could
    not tell that it helps the rival: the label names whose roll, and that it helps them."""
    s = heist_state(n=3, team=("Byte",))
    set_hand(s, 0, ["Adrenaline"])
    set_hand(s, 1, ["Adrenaline", "Jammed Radio", "Tripped Alarm"])
    attempt(s, [tid("Byte")], resolve=False)
    labels = {PREP[a["card"]]["name"]: ENGINE.describe_action(s, 1, a) for a in ENGINE.legal_actions(s, 1)
              if a["type"] == "interrupt"}
    assert labels["Adrenaline"].startswith("Play Adrenaline: +2 to P1's roll") and "helps them" in labels["Adrenaline"]
    assert labels["Jammed Radio"].startswith("Play Jammed Radio: -2 to P1's roll")
    assert "P1 can't get PERFECTION" in labels["Tripped Alarm"]
    own = next(a for a in ENGINE.legal_actions(s, 0) if a["type"] == "interrupt")
    assert ENGINE.describe_action(s, 0, own).startswith("Play Adrenaline: +2 to your roll")
    assert all(len(label) <= 80 for label in labels.values())


def test_interrupt_tripped_alarm_denies_perfection():
    s = heist_state(team=("Ghost",), gear={"Ghost": "Shadow Suit"})
    set_hand(s, 1, ["Tripped Alarm"])
    attempt(s, [tid("Ghost")], resolve=False)
    play(s, 0, {"type": "pass"})
    rig(s, [1, 1])
    top_failure(s, "Pulled Over")
    ev = play(s, 1, {"type": "interrupt", "card": s["hands"][1][0]})
    assert "FAILURE" in texts(ev) and "Tripped Alarm" in texts(ev)
    s = heist_state(team=("Ghost",), gear={"Ghost": "Shadow Suit"})
    set_hand(s, 1, ["Tripped Alarm"])
    attempt(s, [tid("Ghost")], resolve=False)
    play(s, 0, {"type": "pass"})
    rig(s, [2])
    play(s, 1, {"type": "interrupt", "card": s["hands"][1][0]})
    assert s["heists"][0]["dice"][0] == {"seat": 0, "value": 2}  # rolled, no face choice


def test_interrupt_cover_story():
    s = heist_state(team=("Marco Bellini",))
    set_hand(s, 0, ["Cover Story"])
    attempt(s, [tid("Marco Bellini")], resolve=False)
    play(s, 1, {"type": "pass"})
    rig(s, [1])
    n_fail = len(s["failure_deck"])
    ev = play(s, 0, {"type": "interrupt", "card": s["hands"][0][0]})
    assert "Cover Story" in texts(ev) and len(s["failure_deck"]) == n_fail and s["turn"] == 1


def test_window_before_failure_test():
    s = heist_state(n=2, team=("Marco Bellini",))
    rig(s, [1])
    top_failure(s, "Silent Alarm")
    set_hand(s, 1, ["Adrenaline"])
    attempt(s, [tid("Marco Bellini")], resolve=False)
    assert s["phase"] == "window" and s["window"]["kind"] == "step" and sorted(ENGINE.to_act(s)) == [0, 1]
    play(s, 1, {"type": "pass"})
    play(s, 0, {"type": "pass"})
    # Stealth 0 + 1 < 6: FAILURE, Silent Alarm triggers on Stealth: a new window before the test roll.
    assert s["phase"] == "window" and s["window"]["kind"] == "test" and sorted(ENGINE.to_act(s)) == [0, 1]
    play(s, 0, {"type": "pass"})
    rig(s, [4])
    ev = play(s, 1, {"type": "interrupt", "card": s["hands"][1][0]})
    assert "Stealth 0 + 2 + 4 = 6: beats it, safe" in texts(ev) and len(s["teams"][0]) == 1
    check(s)


# ----------------------------------------------------------------- abilities
def test_abilities_solo_leader_allrounder_gearhead():
    s = fresh(2)
    rosa, = set_team(s, 0, ["Rosa Vance"])
    assert ENGINE.attempt_total(s, 0, "Driving", [rosa])[0] == 6  # 4 + Lone Wolf 2
    countess, tomas, byte = set_team(s, 0, ["The Countess", "Big Tomas", "Byte"])
    assert ENGINE.attempt_total(s, 0, "Charm", [countess, tomas, byte])[0] == 4 + 3 + 2 + 2
    tess, = set_team(s, 0, ["Tess Okafor"])
    assert ENGINE.attempt_total(s, 0, "Muscle", [tess])[0] == 2
    priya, = set_team(s, 0, ["Priya Ashdown"], {"Priya Ashdown": "Blueprints"})
    assert ENGINE.attempt_total(s, 0, "Hacking", [priya])[0] == 4 + 1 + 1
    MastermindsTable.of(s).intel(0, 2)
    assert ENGINE.attempt_total(s, 0, "Hacking", [priya])[0] == 8


def test_ability_clutch_turns_push_into_success():
    s = heist_state(team=("Hammer Haines",), a="Armoured Convoy")  # Driving 6; Hammer 2
    rig(s, [4])
    ev = attempt(s, [tid("Hammer Haines")])
    assert "Clutch" in texts(ev) and s["heists"][0]["dice"][0] == {"seat": 0, "value": 4}


def test_ability_perfectionist_chooses_face_on_success():
    s = heist_state(team=("Lena Fox",), dice=[(0, 2)])  # step B Stealth 7: Lena 4 + 5 = 9
    rig(s, [5])
    ev = attempt(s, [tid("Lena Fox")])
    assert "Perfectionist" in texts(ev) and s["phase"] == "turn"  # set to match, no question
    assert s["heists"][0]["dice"][1]["value"] == 2
    s = heist_state(team=("Lena Fox",))  # no die of hers there: the rolled face stays, no question
    rig(s, [5])
    attempt(s, [tid("Lena Fox")])
    assert s["phase"] == "turn" and s["heists"][0]["dice"][0]["value"] == 5


def test_ability_lucky_rerolls_a_one():
    s = heist_state(team=("Mei Tanaka",))  # Stealth 2
    rig(s, [1, 6])
    ev = attempt(s, [tid("Mei Tanaka")])
    assert "Lucky re-roll 6" in texts(ev) and s["heists"][0]["dice"][0]["value"] == 6


def test_ability_slippery_on_tests():
    s = heist_state(team=("Silas Crane",), a="Armoured Convoy")  # Driving 6; Silas Driving 1
    rig(s, [1, 1])
    top_failure(s, "Fender Bender")  # Driving test 4: 1 + 3 + 1 = 5 > 4
    ev = attempt(s, [tid("Silas Crane")])
    assert "Slippery 3" in texts(ev) and "safe" in texts(ev)


def test_ability_fixer_scout_fence():
    s = fresh(2)
    clear_hands(s)
    set_team(s, 0, ["Oskar Brandt"])
    play(s, 0, {"type": "draw_prep"})
    play(s, 0, {"type": "end_plan"})
    assert len(s["hands"][0]) == 2  # the draw + Fixer in upkeep (hand < 3)
    s = MastermindsTable().empty_hands().in_pool("Big Tomas").state
    tomas = tid("Big Tomas")
    ev = play(s, 0, {"type": "recruit", "card": tomas})
    assert len(s["hands"][0]) == 1 and "(Scout)" in texts(ev)
    check(s)
    s = MastermindsTable.at_a_heist(team=("Celeste Moreau",), a="The Crown Jewels", b="Casino Vault",
                                    dice=[(0, 1), (0, 2), (0, 3)]).intel(0, 20).state
    ev = attempt(s, [tid("Celeste Moreau")])
    assert "(Fence)" in texts(ev) and sum(s["gems"][0].values()) == 1 + 4 + 1
    check(s)


# ----------------------------------------------------------------- game end
def test_game_ends_at_players_plus_one_heists():
    s = (MastermindsTable.at_a_heist(team=("Big Tomas", "Byte"), a="The Crown Jewels", b="Casino Vault",
                                     dice=[(0, 1), (0, 2), (0, 3)])
         .heists_done(1, 2).intel(0, 20).state)
    ev = attempt(s, [tid("Big Tomas")])
    ev += play(s, 0, {"type": "retire", "recruit": tid("Byte")})
    # The round is played out: P2 (later in turn order) still gets this round's turn.
    assert not ENGINE.is_terminal(s) and s["turn"] == 1 and "when this round is over" in texts(ev)
    assert "LAST ROUND" in ENGINE.status_line(s)
    play(s, 1, {"type": "draw_prep"})
    ev = play(s, 1, {"type": "end_plan"})
    assert ENGINE.is_terminal(s) and s["final"]["reason"] == "heists" and ENGINE.to_act(s) == []
    assert "Gem values" in texts(ev)
    sc = ENGINE.scores(s)
    assert len(sc) == 2 and any(r["won"] for r in sc)
    check(s)


def test_last_player_in_the_round_completing_ends_the_game_at_once():
    s = (MastermindsTable.at_a_heist(team=("Big Tomas",), a="The Crown Jewels", b="Casino Vault",
                                     dice=[(1, 1), (1, 2), (1, 3)])
         .turn(1)  # P2 is last in turn order (P1 started)
         .team(1, "Big Tomas").heists_done(0, 2).intel(1, 20).state)
    go(s, 1, 0, "Muscle", [tid("Big Tomas")], resolve=True)
    assert ENGINE.is_terminal(s) and s["final"]["reason"] == "heists"
    check(s)


def test_game_ends_when_bag_empties():
    s = MastermindsTable().empty_hands().bag_only(1, Blue=1).next_prep("Windfall").state
    play(s, 0, {"type": "draw_prep"})
    assert ENGINE.is_terminal(s) and s["final"]["reason"] == "bag"
    check(s)


def test_round_limit_ends_the_game():
    s = fresh(2, round_limit=8)
    for _ in range(16):
        seat = s["turn"]
        play(s, seat, {"type": "draw_prep"})
        play(s, seat, {"type": "end_plan"})
        while s["phase"] == "discard":
            play(s, seat, {"type": "discard", "card": s["hands"][seat][0]})
    assert ENGINE.is_terminal(s) and s["final"]["reason"] == "rounds"


def test_the_round_limit_ends_on_the_last_round_not_one_past_it():
    """Issue 30: the final board said "round 26 of 25". The game ends after round 25, so it reads 25 of 25."""
    from rendering.masterminds import describe, render_board
    s = fresh(2, round_limit=8)
    while not ENGINE.is_terminal(s):
        seat = s["turn"]
        play(s, seat, {"type": "draw_prep"})
        play(s, seat, {"type": "end_plan"})
        while s["phase"] == "discard":
            play(s, seat, {"type": "discard", "card": s["hands"][seat][0]})
    view = ENGINE.view(s, None)
    assert s["round"] == view["round"] == 8 and view["round_limit"] == 8
    assert "round 8 of 8" in describe(view) and "round 9" not in describe(view)
    render_board(view)
    check(s)


def test_scoring_and_tiebreak():
    s = (MastermindsTable().gems(0, Red=1, Blue=0, Clear=2).gems(1, Red=0, Blue=1, Clear=1)
         .dice(4, 6)  # Red = 4, Blue = 6
         .game_over("rounds").state)
    rows = {r["seat"]: r for r in ENGINE.scores(s)}
    assert rows[0]["score"] == 4 + 4 and rows[1]["score"] == 6 + 2
    # Tie on points: more Clear gems wins.
    assert rows[0]["won"] and not rows[1]["won"] and rows[1]["rank"] == 2


def test_full_tie_is_shared():
    s = MastermindsTable().gems(0, Red=0, Blue=0, Clear=1).gems(1, Red=0, Blue=0, Clear=1).game_over("rounds").state
    assert all(r["won"] and r["rank"] == 1 for r in ENGINE.scores(s))


# ----------------------------------------------------------------- views / text
def test_views_and_texts():
    s = fresh(3)
    pub = ENGINE.view(s, None)
    assert "private" not in pub and pub["bag"] == 25 and len(pub["pool"]) == 3
    assert all(isinstance(p["hand"], int) for p in pub["players"])
    mine = ENGINE.view(s, 1)
    assert len(mine["private"]["hand"]) == 4
    assert "Your hand" in ENGINE.private_text(mine)
    for a in ENGINE.legal_actions(s, s["turn"]):
        d = ENGINE.describe_action(s, s["turn"], a)
        assert d and len(d) <= 80
        assert ENGINE.action_group(s, s["turn"], a)
    assert ENGINE.status_line(s).startswith("Round 1/25")


def test_illegal_messages():
    s = fresh(2)
    msg = assert_rejects(ENGINE, s, 1, {"type": "draw_prep"})
    assert "not your turn" in msg.lower()
    msg = assert_rejects(ENGINE, s, 0, {"type": "draw"})
    assert msg
    play(s, 0, {"type": "draw_prep"})
    msg = assert_rejects(ENGINE, s, 0, {"type": "burn"})
    assert "recruit phase is over" in msg
