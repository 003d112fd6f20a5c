"""HEIST rules, card powers and the decisions in docs/rules/heist.md, one by one."""
from __future__ import annotations

import json
import random

import pytest

from bot.engine import RuleError
from bot.games.heist import ENGINE, cards, rules
from bot.games.heist.bot_player import token_sum_distribution
from bot.games.heist.scoring import final_rows
from bot.games.heist.supply import apply_effect
from tests.games.heist.scenario import HeistTable, ids_named
from tests.playout import assert_rejects


# --------------------------------------------------------------------------- helpers
def new(n: int = 3, seed: int = 1, faces: str = "front") -> dict:
    return HeistTable(n, seed, faces).state


def finished(n: int = 3) -> HeistTable:
    """A table whose game has just ended, for secrets and scores."""
    return HeistTable(n, seed=23).game_over()


def choose(st: dict, letter: str, option: int = 0) -> list:
    return ENGINE.apply(st, st["active"], {"type": "choose", "job": letter, "option": option})


def no_assists(st: dict) -> list:
    events = []
    if st["phase"] != "assist":
        return events
    for seat in ENGINE.to_act(st):
        events += ENGINE.apply(st, seat, {"type": "no_assist"})
    return events


def texts(events: list) -> str:
    return " | ".join(event["text"] for event in events if "to" not in event)


# --------------------------------------------------------------------------- data
def test_component_counts() -> None:
    assert len(cards.IDENTITIES) == 7 and len(cards.JOBS) == 4 and len(cards.OBSTACLE) == 28
    assert len(cards.SECRETS) == 15 and len(cards.ASSISTS) == 44 and len(cards.TRICKS) == 34
    assert cards.TOKEN_TOTAL == {"blue": 7, "green": 9, "yellow": 12, "orange": 9, "red": 7, "purple": 6}
    assert [cards.TOKENS[c]["faces"] for c in cards.COLOURS] == [[4, 2], [2, 1], [1, -1], [-1, -2], [-2, -4], [3, -3]]
    assert cards.HEAT_TRACK == ["orange", "orange", "red", "purple", "blue"]
    for ident in cards.IDENTITIES:
        assert sum(ident["skills"].values()) == 3
    assert len({tuple(i["skills"].values()) for i in cards.IDENTITIES}) == 7
    for job in cards.JOBS:
        assert [o["id"] for o in job["obstacles"]] == [f"{job['letter']}{i}" for i in range(1, 8)]
        assert job["obstacles"][-1]["mandatory"], "the final obstacle of each job is Mandatory"
    for card in cards.RESOURCE.values():
        assert not (card["cheese"] and card["upgrade"]), "a card scores or upgrades, never both"
        assert card["cheese"] or card["upgrade"] or card["kind"] == "assist", "every trick rewards something"


def test_rulebook_examples() -> None:
    cat = cards.IDENTITY["cat_burglar"]
    assert cat["name"] == "Cat Burglar" and cat["skills"] == {"agility": 2, "charm": 0, "dexterity": 1}
    b1 = cards.OBSTACLE["B1"]
    assert b1["name"] == "Climb the Tower" and b1["test"] == [{"skills": ["agility"], "target": 2}]
    assert b1["failure"] == [{"do": "add", "colour": "red", "n": 1}] and b1["cheese"] == 2
    thief = cards.SECRET["master_thief"]
    assert thief["cheese"] == 4 and thief["check"]["kind"] == "top_skill" and thief["check"]["skill"] == "agility"
    assert cards.secret_text("master_thief", 4) == "Your Agility is at least as high as every other player's."  # ties count
    soh = cards.RESOURCE[ids_named("Sleight of Hand")[0]]
    assert soh["effect"]["do"] == "flip" and soh["upgrade"] == "dexterity"
    wl = cards.RESOURCE[ids_named("Watch & Learn")[0]]
    assert wl["modifier"] == 1 and wl["upgrade"] == "agility"
    museum = cards.JOB["A"]
    assert museum["name"] == "The Museum Job"
    targets: dict[str, list[int]] = {}
    for ob in museum["obstacles"]:
        for opt in ob["test"]:
            for s in opt["skills"]:
                targets.setdefault(s, []).append(opt["target"])
    assert (min(targets["agility"]), max(targets["agility"])) == (2, 10)
    assert (min(targets["dexterity"]), max(targets["dexterity"])) == (6, 12)
    assert (min(targets["charm"]), max(targets["charm"])) == (3, 12)


def test_card_texts() -> None:
    for cid in cards.RESOURCE_IDS:
        assert cards.card_text(cid)
        assert len(ENGINE.describe_action(new(), 0, {"type": "no_assist"})) <= 80
    assert cards.card_text(ids_named("Watch & Learn")[0]) == "+1 to the test; success: +1 Agility"
    assert "flip 1 drawn token" in cards.card_text(ids_named("Sleight of Hand")[0])
    assert "Mandatory" in cards.obstacle_text(cards.OBSTACLE["A7"])


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_setup(n: int) -> None:
    st = new(n, seed=n)
    assert st["bag"]["yellow"] == 1 + 2 * (n - 1)
    assert st["bag"]["red"] == 1 and st["bag"]["purple"] == 1
    assert st["bag"]["orange"] == n - 1
    per = (n + 1) // 2
    counts = [h["count"] for h in st["heat"]]
    if n < 5:
        assert counts == [per] * 5
    elif n == 5:  # only 9 orange tokens exist: 4 go in the bag, 3 + 2 on the track
        assert counts == [3, 2, 3, 3, 3]
    else:  # 5 in the bag, 3 + 1 on the track
        assert counts == [3, 1, 3, 3, 3]
    assert all(len(h) == 5 for h in st["hands"])
    assert len(st["deck"]) == 78 - 5 * n
    assert len(set(st["identities"])) == n and len(set(st["secrets"])) == n
    k = rules.TUNED.job_length[n]  # shorter jobs with fewer players; the last one is the finale
    assert st["jobs"]["A"] == [f"A{i}" for i in range(1, k + 1)]
    assert st["finales"]["A"] == f"A{k}" and ENGINE.mandatory(st, f"A{k}")
    assert sorted(st["unused"]) == sorted(f"{j}{i}" for j in "ABCD" for i in range(k + 1, 8))
    assert st["locations"] == [None] * n
    assert st["phase"] == "choose" and st["active"] == st["start"] and st["round"] == 1


def test_random_start_player() -> None:
    starts = {new(4, seed=s)["start"] for s in range(40)}
    assert starts == {0, 1, 2, 3}


def test_setup_is_seeded() -> None:
    assert new(4, seed=9) == new(4, seed=9)
    assert new(4, seed=9) != new(4, seed=10)


def test_rejects_bad_player_count() -> None:
    with pytest.raises(RuleError):
        ENGINE.setup([f"P{i}" for i in range(7)], {}, 1)


# --------------------------------------------------------------------------- choosing
def test_choose_only_top_obstacles_and_or_skill() -> None:
    table = HeistTable(3)
    st, seat = table.state, table.active
    legal = ENGINE.legal_actions(st, seat)
    assert legal == [{"type": "choose", "job": j, "option": 0} for j in "ABCD"]
    table.job("A", "A5", "A6", "A7")  # A5 is "Dexterity 8 or Charm 8"
    legal = ENGINE.legal_actions(st, seat)
    assert {"type": "choose", "job": "A", "option": 1} in legal
    msg = assert_rejects(ENGINE, st, seat, {"type": "choose", "job": "A", "option": 2})
    assert "top obstacle" in msg
    choose(st, "A", 1)
    assert ENGINE.option_of(st) == {"skills": ["charm"], "target": 8}
    assert st["locations"][seat] == "A"
    # The declared skill is the one tested.
    table.identity(seat, "socialite")  # charm 2, dexterity 1
    assert ENGINE.total(st)["skill"] == 2


def test_multi_skill_obstacle_adds_skills() -> None:
    st = HeistTable(1).identity(0, "fixer").job("D", "D7").bag(yellow=2).faces("D").state
    assert ENGINE.total(st)["skill"] == 3  # Agility + Charm + Dexterity


def test_empty_job_cannot_be_chosen() -> None:
    st = HeistTable(2).job("B").state
    assert all(a["job"] != "B" for a in ENGINE.legal_actions(st, st["active"]))
    msg = assert_rejects(ENGINE, st, st["active"], {"type": "choose", "job": "B", "option": 0})
    assert "no obstacle left" in msg


# --------------------------------------------------------------------------- assists
def test_assist_commit_is_simultaneous_and_hidden() -> None:
    table = HeistTable(4, seed=2)
    st = table.state
    first, second, third = table.others()
    others = sorted(table.others())
    table.holds(first, "Lookout", "Tumble").holds(second, "Lookout", "Tumble").holds(third, "Tumble", "Muscle")
    table.at("A", *range(4)).faces("A")
    assert sorted(ENGINE.to_act(st)) == others
    ev = ENGINE.apply(st, third, {"type": "assist", "card": st["hands"][third][1]})  # Muscle
    assert texts(ev) == f"P{third} has committed."
    assert any(e.get("to") == third and "Muscle" in e["text"] for e in ev)
    public = ENGINE.view(st, None)
    assert public["test"]["committed"] == [third]
    assert "Muscle" not in json.dumps(public)
    assert ENGINE.view(st, third)["private"]["commit"].startswith("Muscle (+3)")
    assert sorted(ENGINE.to_act(st)) == sorted([first, second])
    assert_rejects(ENGINE, st, third, {"type": "no_assist"})  # already committed
    ENGINE.apply(st, first, {"type": "no_assist"})
    ev = ENGINE.apply(st, second, {"type": "assist", "card": st["hands"][second][0]})  # Lookout
    reveal = [e for e in ev if e["type"] == "reveal"]
    assert len(reveal) == 1
    text = reveal[0]["text"]
    # one event, clockwise from the active player
    assert text.index(f"P{first}: nothing") < text.index(f"P{second}: Lookout") < text.index(f"P{third}: Muscle")
    assert st["phase"] == "tricks" and ENGINE.total(st)["assists"] == 5
    assert len(st["hands"][second]) == 1 and len(st["hands"][third]) == 1


def test_assist_needs_location_or_a_discard() -> None:
    """"You may only commit an assist card if your player pawn is at the location of the active job marker. You may
    discard one card to move your pawn to the active player's location.": away, the assist card is picked first,
    then the card to discard."""
    table = HeistTable(2, seed=4)
    st = table.state
    other = 1 - table.active
    lookout, tumble, brute = table.holds(other, "Lookout", "Tumble", "Brute Force").hand(other)
    table.faces("C")
    legal = ENGINE.legal_actions(st, other)
    assert legal == [{"type": "assist", "card": lookout}, {"type": "no_assist"}]
    msg = assert_rejects(ENGINE, st, other, {"type": "pay", "card": tumble})
    assert "assist card first" in msg
    msg = assert_rejects(ENGINE, st, other, {"type": "assist", "card": tumble, "pay": brute})
    assert "assist card" in msg
    ENGINE.apply(st, other, {"type": "assist", "card": lookout})
    assert ENGINE.legal_actions(st, other) == [{"type": "pay", "card": card} for card in sorted([brute, tumble])] + [
        {"type": "no_assist"}]
    msg = assert_rejects(ENGINE, st, other, {"type": "pay", "card": lookout})
    assert "another card" in msg
    ENGINE.apply(st, other, {"type": "pay", "card": tumble})
    assert st["locations"][other] == "C"
    assert tumble in st["discard"] and st["hands"][other] == [brute]
    assert [a["card"] for a in st["test"]["assists"]] == [lookout]


def test_assist_at_location_pays_nothing_and_lone_card_cannot_pay() -> None:
    table = HeistTable(2, seed=4)
    st = table.state
    other = 1 - table.active
    (lookout,) = table.holds(other, "Lookout").hand(other)
    away = json.loads(json.dumps(st))
    ev = choose(away, "C")
    # Away with a single card: the commit could not be paid, so it isn't offered; the
    # public sees one card and the pawn elsewhere, so the player isn't even asked.
    assert other not in ENGINE.to_act(away) and away["phase"] == "tricks"
    assert "can't pay to move: no assist" in texts(ev)
    table.at("C", other).faces("C")
    assert {"type": "assist", "card": lookout} in ENGINE.legal_actions(st, other)
    msg = assert_rejects(ENGINE, st, other, {"type": "assist", "card": lookout, "pay": lookout})
    assert "already at this job" in msg


def test_identical_cards_are_offered_once() -> None:
    table = HeistTable(2, seed=4)
    other = 1 - table.active
    table.holds(other, "Lookout", "Lookout", "Lookout", "Muscle", "Muscle").at("A", other).faces("A")
    assert len(ENGINE.legal_actions(table.state, other)) == 3  # Lookout, Muscle, nothing


def test_assist_bag_effects_resolve_before_the_draw() -> None:
    table = HeistTable(2, seed=5)
    st = table.state
    other = 1 - table.active
    (alarm,) = table.holds(other, "Cut the Alarm").hand(other)
    table.at("B", other).bag(red=1, yellow=2).faces("B")
    ENGINE.apply(st, other, {"type": "assist", "card": alarm})
    assert st["bag"]["red"] == 0 and st["supply"]["red"] >= 1
    assert [t["colour"] for t in st["test"]["tokens"]] == ["yellow", "yellow"]


def test_supply_run_and_loaded_dice() -> None:
    table = HeistTable(3, seed=5)
    st, active = table.state, table.active
    runner, gambler = sorted(table.others())
    (run,) = table.holds(runner, "Supply Run").hand(runner)
    (dice,) = table.holds(gambler, "Loaded Dice").hand(gambler)
    table.at("A", runner, gambler)
    before = len(st["hands"][active])
    table.bag(yellow=3).faces("A")
    ENGINE.apply(st, runner, {"type": "assist", "card": run})
    ENGINE.apply(st, gambler, {"type": "assist", "card": dice})
    assert len(st["hands"][active]) == before + 1
    assert st["bag"]["blue"] + sum(t["colour"] == "blue" for t in st["test"]["tokens"]) == 1


# --------------------------------------------------------------------------- tokens
def test_two_tokens_drawn_random_faces() -> None:
    faces = set()
    for seed in range(30):
        st = HeistTable(1, seed=seed, faces="random").bag(purple=4).faces("A").state
        assert len(st["test"]["tokens"]) == 2 and st["bag"]["purple"] == 2
        faces |= {t["face"] for t in st["test"]["tokens"]}
        view = ENGINE.view(st, None)
        assert [t["value"] for t in view["test"]["tokens"]] == [cards.token_value(t) for t in st["test"]["tokens"]]
    assert faces == {0, 1}


def test_front_option_draws_first_face() -> None:
    st = HeistTable(1, faces="front").bag(red=2).faces("A").state
    assert [cards.token_value(t) for t in st["test"]["tokens"]] == [-2, -2]


def test_empty_bag_takes_back_earlier_tokens_then_draws_nothing() -> None:
    st = HeistTable(1).bag(yellow=1).faces("A").state
    assert len(st["test"]["tokens"]) == 1  # only one token in the bag
    st2 = HeistTable(1).bag().spent(("green", 0), ("green", 0)).state
    ev = choose(st2, "A")
    assert "go back into it" in texts(ev)
    assert [t["colour"] for t in st2["test"]["tokens"]] == ["green", "green"]


def test_token_distribution_helper() -> None:
    dist = token_sum_distribution({"yellow": 2}, 2)
    assert dist == pytest.approx({2: 0.25, 0: 0.5, -2: 0.25})


# --------------------------------------------------------------------------- tricks
def _tricks_state(tokens: list[tuple[str, int]], hand: list[str], n: int = 2) -> tuple[dict, list[str]]:
    table = HeistTable(n, seed=7)
    active = table.active
    # A spare assist keeps the hand from running empty (an empty hand resolves at once).
    got = table.holds(active, *hand, "Old Friend").hand(active)[:len(hand)]
    table.bag(yellow=4).faces("A").no_help().drawn(*tokens)
    return table.state, got


def test_flip_trick() -> None:
    st, (soh,) = _tricks_state([("red", 1), ("yellow", 0)], ["Sleight of Hand"])
    assert ENGINE.total(st)["tokens"] == -3
    legal = ENGINE.legal_actions(st, 0 if st["n"] == 1 else st["active"])
    assert {"type": "trick", "card": soh, "token": 0} in legal and {"type": "resolve"} in legal
    ev = ENGINE.apply(st, st["active"], {"type": "trick", "card": soh, "token": 0})
    assert "flips red -4 to red -2" in texts(ev)
    assert ENGINE.total(st)["tokens"] == -1


def test_flip_all_ignore_bonus_double() -> None:
    st, (tables, cold, brute, double) = _tricks_state(
        [("purple", 1), ("orange", 1)], ["Turn the Tables", "Cold Read", "Brute Force", "Double Down"])
    active = st["active"]
    ENGINE.apply(st, active, {"type": "trick", "card": tables})
    assert ENGINE.total(st)["tokens"] == 3 - 1
    ENGINE.apply(st, active, {"type": "trick", "card": cold, "token": 1})
    assert ENGINE.total(st)["tokens"] == 3
    assert all(x.get("token") != 1 for x in ENGINE.legal_actions(st, active) if x["type"] == "trick")
    ENGINE.apply(st, active, {"type": "trick", "card": brute})
    ENGINE.apply(st, active, {"type": "trick", "card": double})
    numbers = ENGINE.total(st)
    assert numbers["tricks"] == 2 + 3 and numbers["tokens"] == 3


def test_redraw_extra_lucky() -> None:
    st, (second, push, lucky) = _tricks_state([("red", 1), ("yellow", 0)],
                                             ["Second Chance", "Push Your Luck", "Lucky Break"])
    active = st["active"]
    HeistTable.of(st).bag(green=3)
    ev = ENGINE.apply(st, active, {"type": "trick", "card": second, "token": 0})
    assert "puts red -4 back" in texts(ev)
    new_token = st["test"]["tokens"][0]
    assert st["bag"]["red"] + (new_token["colour"] == "red") == 1
    assert st["bag"]["green"] + (new_token["colour"] == "green") == 3
    ENGINE.apply(st, active, {"type": "trick", "card": push})
    assert len(st["test"]["tokens"]) == 3
    ENGINE.apply(st, active, {"type": "trick", "card": lucky})
    toks = st["test"]["tokens"]
    assert len(toks) == 4 and sum(t["ignored"] for t in toks) == 1
    low = next(t for t in toks if t["ignored"])
    assert cards.token_value(low) == min(cards.token_value(t) for t in toks)


def test_favour_counts_assists_and_clean_exit_once() -> None:
    table = HeistTable(3, seed=8)
    st, active = table.state, table.active
    favour, clean, _ = table.holds(active, "Call in a Favour", "Clean Exit", "Lookout").hand(active)
    for helper in sorted(table.others()):
        table.holds(helper, "Lookout").at("B", helper)
    table.bag(yellow=3).faces("B")
    for seat in ENGINE.to_act(st):
        ENGINE.apply(st, seat, {"type": "assist", "card": st["hands"][seat][0]})
    before = ENGINE.total(st)["total"]
    ENGINE.apply(st, active, {"type": "trick", "card": favour})
    assert ENGINE.total(st)["total"] == before + 2
    ENGINE.apply(st, active, {"type": "trick", "card": clean})
    assert st["test"]["clean_exit"]


def test_only_active_player_plays_tricks_and_assists_are_not_tricks() -> None:
    st, (lookout,) = _tricks_state([("yellow", 0), ("yellow", 0)], ["Lookout"], n=2)
    active = st["active"]
    assert ENGINE.legal_actions(st, active) == [{"type": "resolve"}]
    msg = assert_rejects(ENGINE, st, active, {"type": "trick", "card": lookout})
    assert "assist card" in msg
    msg = assert_rejects(ENGINE, st, 1 - active, {"type": "resolve"})
    assert "not your turn" in msg


# --------------------------------------------------------------------------- resolve
def test_success_scores_obstacle_assists_and_upgrades() -> None:
    table = HeistTable(3, seed=11)
    st, active = table.state, table.active
    learner, banker = sorted(table.others())
    table.identity(active, "cat_burglar")
    (wl,) = table.holds(learner, "Watch & Learn").hand(learner)
    (look,) = table.holds(banker, "Lookout").hand(banker)
    brute, _ = table.holds(active, "Brute Force", "Lookout").hand(active)
    table.at("B", learner, banker).bag(yellow=4).faces("B")  # B1 Climb the Tower: Agility 2
    ENGINE.apply(st, learner, {"type": "assist", "card": wl})
    ENGINE.apply(st, banker, {"type": "assist", "card": look})
    ENGINE.apply(st, active, {"type": "trick", "card": brute})
    ev = ENGINE.apply(st, active, {"type": "resolve"})
    assert "SUCCESS" in texts(ev)
    assert st["piles"][active] == ["B1"] and st["jobs"]["B"][0] == "B2"
    assert st["upgrades"][learner] == [wl]
    assert ENGINE.skill(st, learner, "agility") == cards.IDENTITY[st["identities"][learner]]["skills"]["agility"] + 1
    assert st["piles"][banker] == [look]
    assert brute in st["discard"]
    assert st["bag"]["red"] == 0  # no failure effect
    assert len(st["hands"][active]) == 5  # refilled
    assert st["phase"] == "choose" and st["active"] == (active + 1) % 3
    pub = ENGINE.view(st, None)
    assert pub["players"][learner]["skills"]["agility"] == ENGINE.skill(st, learner, "agility")
    assert pub["last"]["success"] and pub["last"]["name"] == "Climb the Tower"


def test_failure_effects_box_discard_and_trick_cheese() -> None:
    table = HeistTable(2, seed=12)
    st, active = table.state, table.active
    other = 1 - active
    table.identity(active, "socialite")  # agility 0
    (look,) = table.holds(other, "Lookout").hand(other)
    brute, soh = table.holds(active, "Brute Force", "Sleight of Hand").hand(active)
    table.at("B", other).bag(red=2).faces("B")  # Agility 2; on failure add a red token
    ENGINE.apply(st, other, {"type": "assist", "card": look})
    ENGINE.apply(st, active, {"type": "trick", "card": brute})
    reds = st["bag"]["red"]
    ev = ENGINE.apply(st, active, {"type": "resolve"})
    assert "FAILURE" in texts(ev)
    assert st["bag"]["red"] == reds + 1
    assert st["boxed"] == ["B1"] and st["jobs"]["B"][0] == "B2"
    assert look in st["discard"]
    assert st["piles"][active] == [brute]  # a played trick with cheese scores on failure
    # the unplayed Sleight of Hand can upgrade from hand
    assert st["phase"] == "upgrade"
    assert ENGINE.legal_actions(st, active) == [{"type": "upgrade", "card": soh}, {"type": "no_upgrade"}]
    ENGINE.apply(st, active, {"type": "upgrade", "card": soh})
    assert st["upgrades"][active] == [soh] and ENGINE.skill(st, active, "dexterity") == 2
    assert len(st["hands"][active]) == 5 and st["phase"] == "choose"


def test_failure_upgrade_from_a_played_trick() -> None:
    st, (soh, tumble) = _tricks_state([("red", 1), ("red", 1)], ["Sleight of Hand", "Tumble"])
    active = st["active"]
    ENGINE.apply(st, active, {"type": "trick", "card": soh, "token": 0})
    ENGINE.apply(st, active, {"type": "resolve"})
    legal = ENGINE.legal_actions(st, active)
    assert {"type": "upgrade", "card": soh} in legal and {"type": "upgrade", "card": tumble} in legal
    assert "the one you played" in ENGINE.describe_action(st, active, {"type": "upgrade", "card": soh})
    ENGINE.apply(st, active, {"type": "upgrade", "card": soh})
    assert st["upgrades"][active] == [soh] and tumble in st["hands"][active]


def test_unused_played_tricks_are_discarded_after_failure() -> None:
    st, (soh, tumble) = _tricks_state([("red", 1), ("red", 1)], ["Sleight of Hand", "Tumble"])
    active = st["active"]
    ENGINE.apply(st, active, {"type": "trick", "card": soh, "token": 0})
    ENGINE.apply(st, active, {"type": "trick", "card": tumble, "token": 1})
    ENGINE.apply(st, active, {"type": "resolve"})
    ENGINE.apply(st, active, {"type": "upgrade", "card": tumble})
    assert soh in st["discard"] and st["upgrades"][active] == [tumble]


def test_no_upgrade_step_without_upgrade_tricks() -> None:
    st, _ = _tricks_state([("red", 1), ("red", 1)], ["Lookout", "Brute Force"])
    ENGINE.apply(st, st["active"], {"type": "resolve"})
    assert st["phase"] != "upgrade"


def test_mandatory_obstacle_stays_on_failure() -> None:
    table = HeistTable(2, seed=3)
    st, active = table.state, table.active
    table.identity(active, "socialite").job("A", "A3", "A4", "A5", "A6", "A7").holds(active, "Lookout")
    table.bag(red=2).faces("A").no_help()
    ENGINE.apply(st, active, {"type": "resolve"})
    assert st["jobs"]["A"][0] == "A3" and "A3" not in st["boxed"]
    assert st["bag"]["red"] == 1  # failure effect: add a red token (2 drawn are out)


def test_clean_exit_ignores_failure_effect() -> None:
    st, (clean,) = _tricks_state([("red", 1), ("red", 1)], ["Clean Exit"])
    HeistTable.of(st).facing("A1")  # failure: add an orange token
    oranges = st["bag"]["orange"]
    ENGINE.apply(st, st["active"], {"type": "trick", "card": clean})
    ev = ENGINE.apply(st, st["active"], {"type": "resolve"})
    assert st["bag"]["orange"] == oranges and "failure effect is ignored" in texts(ev)


def test_backup_plan_and_double_cross() -> None:
    table = HeistTable(3, seed=13)
    st, active = table.state, table.active
    table.identity(active, "socialite")
    planner, traitor = sorted(table.others())
    (backup,) = table.holds(planner, "Backup Plan").hand(planner)
    (cross,) = table.holds(traitor, "Double Cross").hand(traitor)
    table.at("B", planner, traitor).bag(red=3).faces("B")
    ENGINE.apply(st, planner, {"type": "assist", "card": backup})
    ENGINE.apply(st, traitor, {"type": "assist", "card": cross})
    assert ENGINE.total(st)["assists"] == -1
    ENGINE.apply(st, active, {"type": "resolve"})
    assert backup in st["hands"][planner]
    assert st["piles"][traitor] == [cross]


def test_double_cross_is_discarded_on_success() -> None:
    table = HeistTable(2, seed=13)
    st, active = table.state, table.active
    other = 1 - active
    table.identity(active, "cat_burglar")
    (cross,) = table.holds(other, "Double Cross").hand(other)
    table.at("B", other).bag(blue=2).faces("B")
    ENGINE.apply(st, other, {"type": "assist", "card": cross})
    ENGINE.apply(st, active, {"type": "resolve"})
    assert cross in st["discard"] and st["piles"][active] == ["B1"]


def test_success_effects_draw_and_tokens() -> None:
    table = HeistTable(1, seed=14).identity(0, "fixer").bag(blue=2)
    st = table.state
    greens = st["supply"]["green"]
    choose(st, "C")  # C1: success adds a green token
    ENGINE.apply(st, 0, {"type": "resolve"})
    assert st["supply"]["green"] == greens - 1
    choose(st, "A")  # round 2 (solo): A1
    ENGINE.apply(st, 0, {"type": "resolve"})
    choose(st, "A")  # A2 Charm 3: success draws a card
    table.bonus(10)
    hand = len(st["hands"][0])
    ev = ENGINE.apply(st, 0, {"type": "resolve"})
    # the success draw comes on top of a full hand (refilling never discards)
    assert "draws 1 card" in texts(ev) and len(st["hands"][0]) == hand + 1 == 6


def test_discard_random_failure_effect() -> None:
    table = HeistTable(1, seed=15).job("B", "B2", "B3", "B4", "B5", "B6", "B7").bag(red=2)
    st = table.state
    table.faces("B").bonus(-20)  # B2 Jam the Gears: Dexterity 4, failure discards a random card
    disc = len(st["discard"])
    ev = ENGINE.apply(st, 0, {"type": "resolve"})
    assert "at random" in texts(ev) and len(st["discard"]) >= disc + 1


def test_job_completion_bonus() -> None:
    table = HeistTable(2, seed=16)
    st, active = table.state, table.active
    table.job("D", "D7").scored(active, "D6").bag(blue=4).faces("D")
    ENGINE.apply(st, 1 - active, {"type": "no_assist"})
    table.bonus(20)
    ev = ENGINE.apply(st, active, {"type": "resolve"})
    assert st["completed"] == ["D"] and "complete" in texts(ev)
    rows = final_rows(st)
    mine = next(r for r in rows if r["seat"] == active)
    assert "job bonus 2" in mine["detail"]


# --------------------------------------------------------------------------- refill and deck
def test_refill_reshuffles_discard() -> None:
    table = HeistTable(1, seed=17).holds(0, "Lookout").deck_runs_low(1).bag(yellow=2)
    st = table.state
    choose(st, "A")
    ev = ENGINE.apply(st, 0, {"type": "resolve"})
    assert "shuffled into a new resource deck" in texts(ev)
    assert len(st["hands"][0]) == 5


def test_only_active_player_refills() -> None:
    table = HeistTable(2, seed=18)
    st, active = table.state, table.active
    other = 1 - active
    look, tum, brute = table.holds(other, "Lookout", "Tumble", "Brute Force").hand(other)
    table.faces("A")
    ENGINE.apply(st, other, {"type": "assist", "card": look})
    ENGINE.apply(st, other, {"type": "pay", "card": tum})
    ENGINE.apply(st, active, {"type": "resolve"})
    while st["phase"] == "upgrade":
        ENGINE.apply(st, active, {"type": "no_upgrade"})
    assert len(st["hands"][other]) == 1 and len(st["hands"][active]) == 5


# --------------------------------------------------------------------------- rounds and the end
def _play_turn(st: dict) -> None:
    active = st["active"]
    choose(st, ENGINE.legal_actions(st, active)[0]["job"])
    no_assists(st)
    ENGINE.apply(st, active, {"type": "resolve"})
    if st["phase"] == "upgrade":
        ENGINE.apply(st, active, {"type": "no_upgrade"})


def test_round_end_adds_heat_and_returns_tokens() -> None:
    st = new(3, seed=19)
    start = st["start"]
    bag_before = dict(st["bag"])
    for _ in range(3):
        _play_turn(st)
    # the first player moves one seat left each round
    assert st["round"] == 2 and st["active"] == (start + 1) % 3 and st["spent"] == []
    # drawn tokens are back; the heat added ceil(3/2)=2 orange (plus obstacle effects)
    assert st["heat"][0]["done"] and st["heat"][0]["count"] == 0
    diff = {c: st["bag"][c] - bag_before[c] for c in cards.COLOURS}
    assert diff["orange"] >= 2
    assert sum(st["bag"].values()) + sum(st["supply"].values()) + sum(h["count"] for h in st["heat"]) == 50


def test_drawn_tokens_stay_out_until_round_end() -> None:
    st = new(2, seed=20)
    total = sum(st["bag"].values())
    _play_turn(st)
    assert len(st["spent"]) == 2
    assert sum(st["bag"].values()) <= total - 2 + 1  # a failure may have added one


def test_game_ends_after_heat_track() -> None:
    st = new(2, seed=21)
    turns = 0
    while st["phase"] != "over":
        _play_turn(st)
        turns += 1
    assert turns == 10 and st["round"] == 5
    assert all(h["done"] for h in st["heat"])
    assert ENGINE.to_act(st) == [] and ENGINE.legal_actions(st, 0) == []
    with pytest.raises(RuleError):
        ENGINE.apply(st, 0, {"type": "resolve"})
    view = ENGINE.view(st, None)
    assert view["over"] and len(view["secrets"]) == 2 and view["scores"]


def test_game_ends_when_every_job_is_empty() -> None:
    table = HeistTable(2, seed=22).job("A", "A1").job("B").job("C").job("D").bag(blue=2)
    st, active = table.state, table.active
    choose(st, "A")
    ENGINE.apply(st, 1 - active, {"type": "no_assist"})
    ENGINE.apply(st, active, {"type": "resolve"})
    assert st["phase"] == "over" and st["round"] == 1
    assert st["heat"][0]["done"] and not st["heat"][1]["done"]


def test_heat_supply_runs_out() -> None:
    st = new(6)
    assert st["supply"]["orange"] == 0
    ev: list = []
    apply_effect(st, 0, {"do": "add", "colour": "orange", "n": 1}, ev, "Test")
    assert "no orange token is left" in ev[0]["text"]
    apply_effect(st, 0, {"do": "remove", "colour": "green", "n": 1}, ev, "Test")
    assert "no green token in the bag" in ev[1]["text"]


# --------------------------------------------------------------------------- secrets and scoring
def test_secret_top_skill_ties_count() -> None:
    table = finished().secret(0, "master_thief")
    table.identity(0, "cat_burglar").identity(1, "acrobat").identity(2, "fixer")
    assert ENGINE.secret_met(table.state, 0)  # 2 vs 2 vs 1: ties are fine
    table.upgraded(1, "Tumble", "Tumble")
    assert not ENGINE.secret_met(table.state, 0)


def test_solo_comparison_secrets_need_a_minimum() -> None:
    table = finished(1).secret(0, "safecracker")  # solo: the skill must be at least 2
    st = table.identity(0, "fixer").state  # dexterity 1
    assert not ENGINE.secret_met(st, 0)
    table.upgraded(0, "Steady Hands")
    assert ENGINE.secret_met(st, 0)
    table.secret(0, "ringleader").scored(0, "A1")  # solo: at least 2 obstacles
    assert not ENGINE.secret_met(st, 0)
    table.scored(0, "B1")
    assert ENGINE.secret_met(st, 0)


@pytest.mark.parametrize("secret,arrange,expected", [
    ("jack_of_all_trades", lambda table: table.identity(0, "fixer"), False),
    ("well_trained", lambda table: table.upgraded(0, "t01", "t02", "t03", "t04"), True),
    ("well_trained", lambda table: table.upgraded(0, "t01", "t02", "t03"), False),
    ("collector", lambda table: table.scored(0, "A1", "B1", "C1", "C2"), True),  # 3 players: 4 from 3 jobs
    ("collector", lambda table: table.scored(0, "A1", "B1", "C1"), False),
    ("collector", lambda table: table.scored(0, "A1", "A2", "C1", "C2"), False),
    ("specialist", lambda table: table.scored(0, "A1", "A2", "A3"), True),
    ("specialist", lambda table: table.scored(0, "A1", "A2", "B3"), False),
    ("ringleader", lambda table: table.scored(0, "A1", "A2").scored(1, "B1"), True),
    ("ringleader", lambda table: table.scored(0, "A1").scored(1, "B1"), True),  # ties at 3+
    ("ringleader", lambda table: table.scored(0, "A1").scored(1, "B1", "B2"), False),
    ("team_player", lambda table: table.scored(0, "a25", "a26", "a27", "a28").upgraded(0, "a01"),
     True),  # 3 players: 5 assists kept
    ("team_player", lambda table: table.scored(0, "a25", "a26", "a27").upgraded(0, "a01"), False),
    ("sore_loser", lambda table: table.scored(0, "t30", "t31"), True),
    ("sore_loser", lambda table: table.scored(0, "t30", "a25"), False),
    ("jack_of_all_trades", lambda table: table.identity(0, "fixer").upgraded(0, "a01", "a04", "a07"), True),
    ("saboteur", lambda table: table.record(tests=10, failed=4), True),  # 3 players: 40% of tests failed
    ("saboteur", lambda table: table.record(tests=10, failed=3), False),
    ("saboteur", lambda table: table, False),
    ("big_score", lambda table: table.completed("C"), True),
    ("big_score", lambda table: table, False),
])
def test_secret_conditions(secret, arrange, expected) -> None:
    table = finished().secret(0, secret)
    arrange(table)
    assert ENGINE.secret_met(table.state, 0) is expected


def test_team_player_ignores_double_cross() -> None:
    table = finished().secret(0, "team_player").scored(0, *ids_named("Double Cross"))
    assert not ENGINE.secret_met(table.state, 0)


def test_bag_secrets_use_final_bag() -> None:
    table = finished().secret(0, "heat_seeker")  # 3 players: at least 3 more red than blue
    st = table.bag(red=4, blue=1).state
    assert ENGINE.secret_met(st, 0)
    table.bag(red=3, blue=1)
    assert not ENGINE.secret_met(st, 0)
    table.secret(0, "guardian_angel").bag(red=3, blue=2, green=3)  # at least 2 more blue and green than red
    assert ENGINE.secret_met(st, 0)
    table.bag(red=3, blue=2, green=2)
    assert not ENGINE.secret_met(st, 0)
    table.secret(0, "gambler").bag(red=2, purple=3)
    assert ENGINE.secret_met(st, 0)
    table.bag(red=3, purple=3)
    assert not ENGINE.secret_met(st, 0)


def test_secret_checked_after_last_heat_tokens() -> None:
    st = HeistTable(2, seed=24).secret(0, "guardian_angel").state
    while st["phase"] != "over":
        _play_turn(st)
    # the round-5 blue tokens are in the final bag the secret looks at
    assert st["bag"]["blue"] >= 1
    need = cards.secret_check("guardian_angel", 2)["n"]
    met = st["bag"]["blue"] + st["bag"]["green"] - st["bag"]["red"] >= need
    assert next(r for r in st["final"] if r["seat"] == 0)["secret_met"] is met


def test_scores_and_tiebreaks() -> None:
    table = finished(3).secret(0, "big_score").secret(1, "saboteur").secret(2, "specialist")
    table.state["options"]["rules"] = "rulebook"  # no head start (tested on its own); nothing else differs here
    st = table.scored(0, "A1", "A2").scored(1, "B1").scored(2, "A3").state
    # 2 cheese each; 2, 1 and 1 obstacles
    rows = {r["seat"]: r for r in final_rows(st)}
    assert [rows[s]["score"] for s in range(3)] == [2, 2, 2]
    assert rows[0]["rank"] == 1 and rows[0]["won"]
    assert rows[1]["rank"] == rows[2]["rank"] == 2  # shared
    table.scored(1, "C1")
    rows = {r["seat"]: r for r in final_rows(st)}
    assert rows[1]["score"] == 3 and rows[1]["won"] and not rows[0]["won"]
    table.scored(2, "Lookout")  # 3 cheese too, but only 1 obstacle
    rows = {r["seat"]: r for r in final_rows(st)}
    assert rows[2]["score"] == 3 and rows[1]["won"] and not rows[2]["won"] and rows[2]["rank"] == 2


def test_full_tie_is_shared() -> None:
    table = finished(2).secret(0, "big_score").secret(1, "saboteur").scored(0, "A1").scored(1, "C1")
    rows = final_rows(table.state)
    assert all(r["won"] and r["rank"] == 1 for r in rows)


# --------------------------------------------------------------------------- solo, views, text
def test_solo_has_no_assist_step() -> None:
    st = new(1, seed=25)
    ev = choose(st, "A")
    assert st["phase"] == "tricks" and len(st["test"]["tokens"]) == 2
    assert not any(e["type"] == "reveal" for e in ev)
    while st["phase"] != "over":
        active = st["active"]
        if st["phase"] == "choose":
            choose(st, ENGINE.legal_actions(st, active)[0]["job"])
        elif st["phase"] == "tricks":
            ENGINE.apply(st, active, {"type": "resolve"})
        else:
            ENGINE.apply(st, active, {"type": "no_upgrade"})
    assert st["round"] == 5


def test_public_view_contents() -> None:
    st = new(4, seed=26)
    choose(st, "B")
    pub = ENGINE.view(st, None)
    assert [j["letter"] for j in pub["jobs"]] == list("ABCD")
    assert pub["jobs"][1]["active"] and pub["jobs"][1]["top"]["name"] == "Climb the Tower"
    assert set(pub["bag"]) == set(cards.COLOURS) and len(pub["heat"]) == 5
    assert all("skills" in p and "location" in p and "identity" in p for p in pub["players"])
    assert pub["test"]["tokens"] == [] and pub["test"]["waiting"]
    assert "private" not in pub
    own = ENGINE.view(st, 0)
    assert own["private"]["secret"]["name"] == cards.SECRET[st["secrets"][0]]["name"]
    assert len(own["private"]["hand"]) == len(st["hands"][0])
    text = ENGINE.private_text(own)
    assert own["private"]["secret"]["name"] in text and "Your hand" in text
    json.dumps(pub)


def test_public_events_hide_commits() -> None:
    for seed in range(10):
        st = new(3, seed=seed)
        choose(st, "A")
        for s in ENGINE.to_act(st):
            legal = ENGINE.legal_actions(st, s)
            act = legal[0]
            ev = ENGINE.apply(st, s, act)
            if st["phase"] == "assist":
                for e in ev:
                    if "to" not in e:
                        assert e["text"] == f"P{s} has committed."


def test_describe_and_groups() -> None:
    st = new(3, seed=27)
    active = st["active"]
    for act in ENGINE.legal_actions(st, active):
        d = ENGINE.describe_action(st, active, act)
        assert len(d) <= 80 and "cheese" in d
        assert ENGINE.action_group(st, active, act) == "Obstacles"
    choose(st, "A")
    for s in ENGINE.to_act(st):
        for act in ENGINE.legal_actions(st, s):
            assert len(ENGINE.describe_action(st, s, act)) <= 80
            assert ENGINE.action_group(st, s, act) == "Assist"
    assert "waiting for assists" in ENGINE.status_line(st)


def test_illegal_messages() -> None:
    st = new(2, seed=28)
    active = st["active"]
    msg = assert_rejects(ENGINE, st, active, {"type": "resolve"})
    assert "Tricks" in msg
    msg = assert_rejects(ENGINE, st, active, {"type": "choose", "job": "Z", "option": 0})
    assert "no such job" in msg
    msg = assert_rejects(ENGINE, st, 1 - active, {"type": "choose", "job": "A", "option": 0})
    assert "not your turn" in msg
    choose(st, "A")
    msg = assert_rejects(ENGINE, st, 1 - active, {"type": "assist", "card": "zz"})
    assert "isn't in your hand" in msg
    msg = assert_rejects(ENGINE, st, active, {"type": "no_assist"})
    assert "not your turn" in msg


def test_bot_never_peeks() -> None:
    """The bot's choice depends only on what its seat can see."""
    for seed in range(6):
        st = new(3, seed=seed)
        active = st["active"]
        choose(st, "A")
        s = ENGINE.to_act(st)[0]
        base = ENGINE.bot_action(st, s, random.Random(1))
        other = [x for x in range(3) if x not in (active, s)][0]
        st2 = json.loads(json.dumps(st))
        st2["hands"][other], st2["deck"][:5] = st2["deck"][:5], st2["hands"][other]
        st2["secrets"][other] = st2["box_secrets"][0]
        st2["box_secrets"][0] = st["secrets"][other]
        assert ENGINE.bot_action(st2, s, random.Random(1)) == base
