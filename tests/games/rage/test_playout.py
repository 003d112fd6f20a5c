"""Wizard's Rage: seeded random playouts with conservation, secrecy and rage-safety checks,
bot games, and renderer smoke tests."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter, deque

import pytest

from bot.games.rage import ENGINE, cards
from rendering import rage as rage_renderer
from rendering.common import to_png
from tests.playout import random_playout

SECRET_NAMES = [d["name"] for d in cards.WIZARD_DEFS.values() if d["kind"] in ("monster", "trap")]


def reach(st, start):
    """Independent BFS over existing non-tower tiles."""
    size = st["size"]
    seen = {start}
    q = deque([start])
    while q:
        i = q.popleft()
        r, c = divmod(i, size)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            j = rr * size + cc
            if 0 <= rr < size and 0 <= cc < size and j not in seen and j != st["tower"] \
                    and not st["tiles"][j]["removed"]:
                seen.add(j)
                q.append(j)
    return seen


def scramble(st, seed, keep_seat=None):
    """A copy that differs from ``st`` only in what the public may not know."""
    s = copy.deepcopy(st)
    rng = random.Random(seed)
    hidden = [tid for t in s["tiles"] for tid in t["tokens"] if not s["tokens"][str(tid)]["up"]]
    idents = [dict(s["tokens"][str(t)]) for t in hidden]
    rng.shuffle(idents)
    for tid, ident in zip(hidden, idents):
        s["tokens"][str(tid)] = ident
    down = [i for i, t in enumerate(s["tiles"]) if not t["up"] and not t["removed"]]
    props = [(s["tiles"][i]["id"], s["tiles"][i]["key"], s["tiles"][i]["key_tile"]) for i in down]
    rng.shuffle(props)
    for i, (tid, key, kt) in zip(down, props):
        s["tiles"][i].update(id=tid, key=key, key_tile=kt)
    w = s["wizard"]
    pool = w["deck"] + w["hand"] + w["discard"] + w["opening"]
    keys = [s["wcards"][c] for c in pool]
    rng.shuffle(keys)
    for c, k in zip(pool, keys):
        s["wcards"][c] = k
    lpool = s["loot"]["deck"] + s["loot"]["discard"] + [
        c for seat, h in enumerate(s["heroes"]) if h and seat != keep_seat for c in h["hand"]]
    lkeys = [s["lcards"][c] for c in lpool]
    rng.shuffle(lkeys)
    for c, k in zip(lpool, lkeys):
        s["lcards"][c] = k
    s["commits"] = {k: (v if k == str(keep_seat) else {"type": "stay"}) for k, v in s["commits"].items()}
    if s["pending"] and s["pending"]["kind"] == "place":
        s["pending"]["trap"] = rng.random() < 0.5  # which kind of card is being placed is the wizard's secret
    return s


def make_check(n):
    counter = {"steps": 0}

    def check(st):
        counter["steps"] += 1
        w = st["wizard"]
        wizard_ids = w["deck"] + w["hand"] + w["discard"] + w["opening"]
        if w["pending_card"] is not None:
            wizard_ids.append(w["pending_card"])
        assert sorted(wizard_ids) == list(range(len(st["wcards"]))), "wizard cards not conserved"
        loot = st["loot"]["deck"] + st["loot"]["discard"]
        for h in st["heroes"][1:]:
            loot += h["hand"] + h["equip"]
            if not h["alive"]:
                assert not h["hand"] and not h["equip"] and not h["keys"] and h["hp"] == 0
            else:
                assert 0 < h["hp"] <= 10
                assert not st["tiles"][h["pos"]]["removed"]
                assert h["pos"] != st["tower"] or st["winner"] == "heroes"
                for slot, cap in cards.SLOTS.items():
                    assert sum(1 for c in h["equip"] if cards.LOOT_DEFS[st["lcards"][c]]["slot"] == slot) <= cap
        for t in st["tiles"]:
            loot += t["drop"]["cards"]
        assert sorted(loot) == list(range(len(st["lcards"]))), "loot cards not conserved"
        placed = [tid for t in st["tiles"] for tid in t["tokens"]]
        assert len(placed) == len(set(placed)) and {str(t) for t in placed} == set(st["tokens"]), "tokens"
        for i, t in enumerate(st["tiles"]):  # the limit (tuned: decoys don't count)
            assert ENGINE.counted_tokens(st, i) <= n
            if t["removed"]:
                assert not t["tokens"] and not t["key"]
        if st["phase"] not in ("tower", "entrance", "keys"):
            on_tiles = sum(1 for t in st["tiles"] if t["key"])
            held = sum(h["keys"] for h in st["heroes"][1:]) + sum(t["drop"]["keys"] for t in st["tiles"])
            assert on_tiles + held + st["keys_used"] == 3, "keys not conserved"
            assert st["keys_taken"] == 3 - on_tiles
        if st["keys_found"] and st["phase"] != "over":
            ent = ENGINE.entrance_tile(st)
            comp = reach(st, ent)
            for s in ENGINE.living(st):
                assert st["heroes"][s]["pos"] in comp, "a hero was cut off from the tower"
            for i, t in enumerate(st["tiles"]):
                if t["drop"]["keys"]:
                    assert i in comp, "dropped keys were cut off"
            for i in ENGINE.ring(st):
                assert not st["tiles"][i]["removed"]
        pub = ENGINE.view(st, None)
        assert "private" not in pub
        text = json.dumps(pub)
        for t, v in zip(st["tiles"], pub["tiles"]):
            if not t["up"]:
                assert "name" not in v and "key" not in v
        if counter["steps"] % 25 == 0:
            other = scramble(st, counter["steps"])
            assert ENGINE.view(other, None) == pub, "public view depends on hidden information"
            assert text == json.dumps(ENGINE.view(other, None))
            for s in range(n):
                json.dumps(ENGINE.view(st, s))

    return check


OPTION_SETS = [{}, {"lone_hero": True}, {"round_limit": 8}]


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["basic", "lone", "short"])
def test_random_playouts(n, opts):
    seeds = range(10) if not opts.get("round_limit") else range(20)
    winners = Counter()
    for seed in seeds:
        st, log = random_playout(ENGINE, n, seed, opts, check=make_check(n), check_every=2)
        assert ENGINE.is_terminal(st)
        winners[st["winner"]] += 1
    assert sum(winners.values()) == len(seeds)


def test_public_events_never_leak():
    """Placement, play and setup events, as the public sees them, name no token and no key spot."""
    for n in (3, 4, 5):
        for seed in range(6):
            st = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options({}), seed)
            rng = random.Random(seed)
            while not ENGINE.is_terminal(st):
                seat = rng.choice(ENGINE.to_act(st))
                legal = ENGINE.legal_actions(st, seat)
                action = rng.choice(legal) if seat else ENGINE.bot_action(st, seat, rng)
                for a in legal:
                    assert len(ENGINE.describe_action(st, seat, a)) <= 80
                    assert ENGINE.action_group(st, seat, a)
                key_labels = [ENGINE.label(st, i) for i, t in enumerate(st["tiles"]) if t["key"] and not t["up"]]
                events = ENGINE.apply(st, seat, action)
                for e in events:
                    if "to" in e:
                        continue
                    if e["type"] in ("place", "play", "setup", "discard", "draw", "commit"):
                        for name in SECRET_NAMES + ["decoy", "monster", "trap"]:
                            assert name not in e["text"], e
                    if e["type"] == "setup":
                        for lab in key_labels + [ENGINE.label(st, action.get("tile", 0))] * (action["type"] == "hide_key"):
                            assert lab not in e["text"], e


def test_rage_graph_search_many_games():
    """Bot games reach the rage often: after every removal every hero still reaches the tower door
    and every dropped key (checked with an independent BFS)."""
    raged = 0
    for n in (3, 4, 5):
        for seed in range(10):
            st = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options({"round_limit": 40}), 100 + seed)
            rng = random.Random(seed)
            while not ENGINE.is_terminal(st):
                seat = ENGINE.to_act(st)[0]
                action = ENGINE.bot_action(st, seat, rng)
                if action["type"] == "remove":
                    legal = ENGINE.legal_actions(st, 0)
                    action = rng.choice(legal)  # any offered tile must be safe
                    raged += 1
                ENGINE.apply(st, seat, action)
                if action["type"] == "remove":
                    comp = reach(st, ENGINE.entrance_tile(st))
                    assert all(st["heroes"][s]["pos"] in comp for s in ENGINE.living(st))
                    assert all(i in comp for i, t in enumerate(st["tiles"]) if t["drop"]["keys"])
                    assert not any(st["tiles"][i]["removed"] for i in ENGINE.ring(st))
    assert raged > 50


def brute_safe_removals(st):
    """The rule as written, one independent BFS per candidate tile: not the tower or its ring, no
    hero or dropped items on it, and every living hero and dropped key still reach the door."""
    ent = ENGINE.entrance_tile(st)
    heroes = [st["heroes"][s]["pos"] for s in ENGINE.living(st)]
    keys = [i for i, t in enumerate(st["tiles"]) if t["drop"]["keys"] and not t["removed"]]
    out = []
    for i, t in enumerate(st["tiles"]):
        if t["removed"] or i == st["tower"] or i in ENGINE.ring(st) or i in heroes or t["drop"]["cards"] \
                or t["drop"]["keys"]:
            continue
        t["removed"] = True
        comp = reach(st, ent)
        t["removed"] = False
        if all(h in comp for h in heroes) and all(k in comp for k in keys):
            out.append(i)
    return out


def test_safe_removals_match_the_rule_on_broken_boards():
    """The rage's safe tiles (found through the board's cut tiles) are exactly the rule's, one BFS per
    tile, on boards riddled with random holes: thin corridors, islands, heroes and keys cut off."""
    checked = cut_off = 0
    for n in (3, 4, 5):
        for seed in range(25):
            rng = random.Random(seed)
            st = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options({}), seed)
            while st["phase"] != "heroes":
                ENGINE.apply(st, 0, ENGINE.bot_action(st, 0, rng))
            open_tiles = [i for i in range(st["size"] ** 2) if i != st["tower"] and i not in ENGINE.ring(st)]
            for _ in range(8):
                trial = copy.deepcopy(st)
                for i in rng.sample(open_tiles, rng.randrange(len(open_tiles) // 2)):
                    trial["tiles"][i]["removed"] = True
                for s in ENGINE.living(trial):
                    trial["heroes"][s]["pos"] = rng.choice([i for i in open_tiles if not trial["tiles"][i]["removed"]])
                drop = rng.choice(open_tiles)
                if not trial["tiles"][drop]["removed"] and rng.random() < 0.5:
                    trial["tiles"][drop]["drop"]["keys"] = 1
                expected = brute_safe_removals(trial)
                assert ENGINE.safe_removals(trial) == expected
                checked += 1
                cut_off += not expected
    assert checked == 600 and 20 < cut_off < 580


def play_bots(n, seed, opts=None, bot_seats=None):
    st = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options(opts or {}), seed)
    rng = random.Random(seed)
    while not ENGINE.is_terminal(st):
        seat = ENGINE.to_act(st)[0]
        if bot_seats is None or seat in bot_seats:
            action = ENGINE.bot_action(st, seat, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(st, seat))
        ENGINE.apply(st, seat, action)
    return st


@pytest.mark.parametrize("n", [3, 4, 5])
def test_bots_play_full_games(n):
    for seed in range(4):
        st = play_bots(n, seed)
        assert ENGINE.is_terminal(st)
        assert len(ENGINE.scores(st)) == n


def test_bot_wizard_beats_random_heroes():
    wins = sum(play_bots(3, seed, {"round_limit": 12}, bot_seats={0}).get("winner") == "wizard" for seed in range(8))
    assert wins >= 6


def test_bot_heroes_beat_random_heroes():
    bot = sum(play_bots(4, seed, {}, bot_seats={1, 2, 3}).get("winner") == "heroes" for seed in range(6))
    rnd = sum(play_bots(4, seed, {}, bot_seats={0}).get("winner") == "heroes" for seed in range(6))
    assert bot > rnd


def test_bot_uses_only_its_view():
    """The hero bot's choice does not change when hidden information changes."""
    for seed in range(3):
        st = ENGINE.setup(["A", "B", "C", "D"], ENGINE.meta.resolve_options({}), seed)
        rng = random.Random(seed)
        steps = 0
        while not ENGINE.is_terminal(st) and steps < 400:
            seat = ENGINE.to_act(st)[0]
            if seat:
                other = scramble(st, steps, keep_seat=seat)
                a1 = ENGINE.bot_action(st, seat, random.Random(steps))
                a2 = ENGINE.bot_action(other, seat, random.Random(steps))
                assert a1 == a2
            ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, rng))
            steps += 1


def test_render_smoke_and_size_budget():
    for n in (3, 4, 5):
        st = ENGINE.setup([f"Player {i}" for i in range(n)], ENGINE.meta.resolve_options({}), 7)
        rng = random.Random(7)
        shots = 0
        step = 0
        while True:
            if step % 30 == 0 or ENGINE.is_terminal(st):
                pub = ENGINE.view(st, None)
                img = rage_renderer.render_board(pub)
                png = to_png(img)
                assert len(png) < 400_000 and 1000 <= img.width <= 1400
                wiz = rage_renderer.render_private(ENGINE.view(st, 0))
                assert wiz is not None and len(to_png(wiz)) < 400_000
                assert rage_renderer.render_private(ENGINE.view(st, 1)) is None
                # the public image is the same whatever the hidden information
                other = scramble(st, step)
                assert to_png(rage_renderer.render_board(ENGINE.view(other, None))) == png
                shots += 1
            if ENGINE.is_terminal(st):
                break
            seat = ENGINE.to_act(st)[0]
            ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, rng))
            step += 1
        final = rage_renderer.render_final(ENGINE.view(st, None), ENGINE.scores(st))
        assert len(to_png(final)) < 400_000
        assert shots >= 3
