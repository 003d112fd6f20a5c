"""Wizard's Rage: resolving the heroes' committed moves (flips, traps, scouting, loot, combat, the end)."""
from __future__ import annotations

from bot.rng import Rng

from . import board, cards, loot
from . import wizard as wizard_turn
from .constants import TRAP_DAMAGE

# Once every living hero has committed: reveal, move, flip, collect, fight, end the round.


def _flip(state: dict, i: int) -> list[dict]:
    """A hero reaches tile i: flip the tile (wizard draw/mana) and every face-down token on it."""
    events: list[dict] = []
    if not state["tiles"][i]["up"]:
        events.extend(_reveal_room(state, i))
    events.extend(_flip_tokens(state, i))
    return events


def _reveal_room(state: dict, i: int) -> list[dict]:
    """The room turns face up: its card-draw and mana values apply to the wizard, then scouting."""
    state["tiles"][i]["up"] = True
    room = board.room_tile(state, i)
    events = [board._event("flip", f"{board.label(state, i)} is revealed: **{room['name']}** "
                          f"({room_effect(room)}).")]
    wizard = state["wizard"]
    if room["draw"] > 0:
        drawn = wizard_turn._draw_wizard(state, room["draw"], events)  # the reveal's line says how many
        if drawn:
            events.append(board._event("draw", "You draw " + ", ".join(board.wizard_card(state, c)["name"] for c in drawn)
                              + ".", to=0))
    elif room["draw"] < 0:
        events.extend(_room_discard(state, min(-room["draw"], len(wizard["hand"]))))
    if room["mana"] > 0 and wizard["mana"] >= cards.MANA_MAX:
        events.append(board._event("mana", "The Mana Wheel is already full."))
    elif room["mana"]:
        events.extend(wizard_turn._spin(state, room["mana"]))
    events.extend(_scout(state, i))
    return events


def room_effect(room: dict) -> str:
    """What a room does to the wizard when it is revealed, in words ("the wizard draws 1 card and the Mana
    Wheel turns up 1")."""
    draw, mana = room["draw"], room["mana"]
    cards_part = (f"the wizard draws {draw} card{'s' if draw != 1 else ''}" if draw > 0 else
                  f"the wizard discards {-draw} card{'s' if draw != -1 else ''}" if draw < 0 else
                  "the wizard draws nothing")
    mana_part = (f"the Mana Wheel turns {'up' if mana > 0 else 'down'} {abs(mana)}" if mana else
                 "the Mana Wheel stays")
    return f"{cards_part} and {mana_part}"


def _room_discard(state: dict, k: int) -> list[dict]:
    """A room with a negative card value: the wizard discards k cards at random."""
    wizard = state["wizard"]
    rng = Rng(state)
    lost = []
    for _ in range(k):
        cid = wizard["hand"].pop(rng.below(len(wizard["hand"])))
        wizard["discard"].append(cid)
        lost.append(cid)
    events = [board._event("draw", f"The wizard discards {k} card{'s' if k != 1 else ''} at random." if k else
                          "The wizard has no card to discard.")]
    if lost:
        events.append(board._event("draw", "You lose " + ", ".join(board.wizard_card(state, c)["name"] for c in lost)
                          + ".", to=0))
    return events


def _flip_tokens(state: dict, i: int) -> list[dict]:
    """Face-down tokens on tile i flip: decoys vanish, traps spring on the heroes there, monsters stay."""
    hidden = board.hidden_tokens(state, i)
    if not hidden:
        return []
    tile = state["tiles"][i]
    names = [board._token_name(state, tid) for tid in hidden]
    events = [board._event("tokens", f"Tokens flip on {board.label(state, i)}: {', '.join(names)}.")]
    here = board.heroes_on(state, i)
    rng = Rng(state)
    for tid in hidden:
        token = board.token(state, tid)
        token["up"] = True
        if token["kind"] == "monster":
            continue
        if token["kind"] == "trap":
            events.extend(_spring_trap(state, here, rng))
        tile["tokens"].remove(tid)
        state["tokens"].pop(str(tid))
    return events


def _spring_trap(state: dict, here: list[int], rng: Rng) -> list[dict]:
    events: list[dict] = []
    for seat in here:
        hero = state["heroes"][seat]
        if not hero["alive"]:
            continue
        if hero["ward"]:
            events.append(board._event("save", f"{state['names'][seat]}'s ward charm turns the trap aside."))
            continue
        events.extend(board._saving_throw(state, seat, rng, "Trap! ", ": safe.", f": {TRAP_DAMAGE} damage."))
    return events


def _scout(state: dict, i: int) -> list[dict]:
    """Scouting (tuned rules): a revealed room senses how many key vaults (found or not) lie within
    SCOUT_RANGE steps of it. The number is public and stays on the room; which tiles they are is not."""
    tile = state["tiles"][i]
    rng_ = board.scout_range(state)
    if not rng_ or tile["key_tile"]:
        return []
    r0, c0 = board.row_col(state, i)
    near = len([j for j, u in enumerate(state["tiles"]) if u["key_tile"] and j != i
                and abs(board.row_col(state, j)[0] - r0) + abs(board.row_col(state, j)[1] - c0) <= rng_])
    tile["sense"] = near
    if not near:
        return [board._event("flip", f"Scouting from {board.label(state, i)}: no key vault within {rng_} steps.")]
    state["scouted"] = state.get("scouted", 0) + 1
    return [board._event("flip", f"Scouting from {board.label(state, i)}: {near} key vault{'s' if near > 1 else ''} "
                            f"within {rng_} steps!")]


def _collect(state: dict, i: int, visitors: list[int]) -> list[dict]:
    """Visitors of a monster-free tile: first search loot, a hidden key, dropped items."""
    events: list[dict] = []
    tile = state["tiles"][i]
    seats = [s for s in visitors if state["heroes"][s]["alive"]]
    if not seats or board.face_up_monsters(state, i) or i == state["tower"]:
        return events
    lab = board.label(state, i)
    if not tile["searched"]:
        tile["searched"] = True
        events.extend(loot._give_loot(state, seats, 1, lab))
    events.extend(loot._pickup(state, i, seats))
    return events


def _combat(state: dict, i: int, fighters: list[int], movers: dict[int, int]) -> list[dict]:
    events = []
    rng = Rng(state)
    mons = board.face_up_monsters(state, i)
    level, hits = board.monster_power(state, mons)
    lab = "the tower" if i == state["tower"] else board.label(state, i)
    wroll = rng.die(20)
    bonus = sum(board.attack(state, s) for s in fighters)
    lone = state["options"].get("lone_hero") and len(board.living(state)) == 1
    if lone:
        a, b = rng.die(20), rng.die(20)
        hroll = a + b
        rolls = f"{a}+{b} (last-hero boost)"
    else:
        rolls_list = [rng.die(20) for _ in fighters]
        hroll = max(rolls_list)
        rolls = "/".join(str(r) for r in rolls_list)
    names = ", ".join(state["names"][s] for s in fighters)
    mnames = ", ".join(board._monster_name(board.token(state, m)) for m in mons)
    hero_total = hroll + bonus
    wiz_total = wroll + level
    heroes_win = hero_total >= wiz_total
    verb = "roll" if len(fighters) > 1 or lone else "rolls"
    events.append(board._event("combat", f"Combat in {lab}: {names} {verb} {rolls} +{bonus} = {hero_total} against "
                                f"{mnames} {wroll}+{level} = {wiz_total}: "
                                f"{'the heroes win' if heroes_win else 'the monsters win'}!"))
    tile = state["tiles"][i]
    if heroes_win:
        for m in mons:
            tile["tokens"].remove(m)
            state["tokens"].pop(str(m))
        if i == state["tower"]:
            state["phase"] = "over"
            state["winner"] = "heroes"
            state["end"] = "heroes stormed the tower"
            state["end_reason"] = "The heroes defeat the tower's guardians and cut down the wizard!"
            events.append(board._event("win", state["end_reason"]))
            return events
        count = 1 if tile["conquered"] else 2
        tile["conquered"] = True
        tile["searched"] = True
        events.extend(loot._give_loot(state, fighters, count, lab))
        events.extend(loot._pickup(state, i, fighters))
    else:
        for s in fighters:
            if s in movers:
                state["heroes"][s]["pos"] = movers[s]
            events.append(board._event("damage", f"{state['names'][s]} is driven back to "
                                        f"{board.label(state, state['heroes'][s]['pos'])} and takes {hits} "
                                        f"damage."))
            events.extend(board._damage(state, s, hits))
    return events


def _resolve(state: dict) -> list[dict]:
    """Every living hero has committed: reveal the moves, open the tower door, move (flipping rooms and
    tokens), collect loot and keys, fight, then end the game or the round."""
    commits = {int(k): v for k, v in state["commits"].items()}
    state["commits"] = {}
    order = sorted(commits)
    parts = [f"{state['names'][s]}: {_public_move(state, s, commits[s])}" for s in order]
    events = [board._event("reveal", "Moves revealed - " + "; ".join(parts) + ".")]
    events.extend(_open_door(state, commits))
    came_from: dict[int, int] = {}
    visited: dict[int, list[int]] = {}
    events.extend(_move_heroes(state, commits, came_from, visited))
    for i in sorted(visited):  # looting empty rooms, keys and dropped items
        here = [s for s in visited[i] if state["heroes"][s]["alive"] and state["heroes"][s]["pos"] == i]
        events.extend(_collect(state, i, here))
    events.extend(_fights(state, came_from))
    if state["phase"] == "over":
        return events
    events.extend(loot._settle_drops(state))
    events.extend(_storm_empty_tower(state))
    if state["phase"] == "over":
        return events
    events.extend(board._check_wizard_win(state))
    if state["phase"] == "over":
        return events
    events.extend(_end_round(state, commits))
    return events


def _open_door(state: dict, commits: dict[int, dict]) -> list[dict]:
    """A hero moving into the closed tower: the keys held on the entrance tile open it for good."""
    if state["tower_open"] or not any(a.get("to") == state["tower"] for a in commits.values()):
        return []
    for s in board.heroes_on(state, board.door(state)):
        state["keys_used"] += state["heroes"][s]["keys"]
        state["heroes"][s]["keys"] = 0
    state["tower_open"] = True
    return [board._event("tower", "The three keys turn in the lock: the tower door swings open!")]


def _move_heroes(state: dict, commits: dict[int, dict], came_from: dict[int, int],
                 visited: dict[int, list[int]]) -> list[dict]:
    """Everyone's first step (and the stuck heroes' own tiles) flips at once, then the sprinters' and
    marchers' further steps, each stopped by monsters on the tile they stand on. Fills ``came_from``
    (where a hero driven back returns to) and ``visited`` (tile -> heroes who entered it)."""
    order = sorted(commits)
    start = {s: state["heroes"][s]["pos"] for s in order}
    paths = _committed_paths(state, commits)
    touched: list[int] = []
    for s in order:
        if s in paths:
            state["heroes"][s]["pos"] = paths[s][0]
            came_from[s] = start[s]
            visited.setdefault(paths[s][0], []).append(s)
            if paths[s][0] not in touched:
                touched.append(paths[s][0])
        elif state["tiles"][start[s]]["tokens"] and start[s] not in touched:
            touched.append(start[s])
    events: list[dict] = []
    for i in touched:
        events.extend(_flip(state, i))
    for k in (1, 2):
        events.extend(_further_step(state, order, paths, k, came_from, visited))
    return events


def _committed_paths(state: dict, commits: dict[int, dict]) -> dict[int, list[int]]:
    """seat -> the tiles its move goes through (no entry for a hero who stays); a Sprint card is spent."""
    paths: dict[int, list[int]] = {}
    for s in sorted(commits):
        a = commits[s]
        if a["type"] == "move":
            paths[s] = [a["to"]]
        elif a["type"] == "march":
            paths[s] = list(a["path"])
        elif a["type"] == "sprint":
            paths[s] = list(a["path"])
            state["heroes"][s]["hand"].remove(a["card"])
            state["loot"]["discard"].append(a["card"])
    return paths


def _further_step(state: dict, order: list[int], paths: dict[int, list[int]], k: int,
                  came_from: dict[int, int], visited: dict[int, list[int]]) -> list[dict]:
    """Step ``k`` (1 or 2) of the marches and sprints: leave tile k-1 (collecting there) for tile k."""
    events: list[dict] = []
    step: list[int] = []
    for s in order:
        if s in paths and len(paths[s]) > k and state["heroes"][s]["alive"]:
            a, b = paths[s][k - 1], paths[s][k]
            if state["heroes"][s]["pos"] != a:
                continue
            if board.face_up_monsters(state, a):
                events.append(board._event("move", f"{state['names'][s]} is stopped by monsters on {board.label(state, a)}."))
                continue
            events.extend(_collect(state, a, [s]))
            state["heroes"][s]["pos"] = b
            came_from[s] = a
            visited.setdefault(b, []).append(s)
            if b not in step:
                step.append(b)
    for i in step:
        events.extend(_flip(state, i))
    return events


def _fights(state: dict, came_from: dict[int, int]) -> list[dict]:
    """Combat on every tile where living heroes stand with face-up monsters (stops if the game ends)."""
    events: list[dict] = []
    for i in sorted({state["heroes"][s]["pos"] for s in board.living(state)}):
        if board.face_up_monsters(state, i):
            fighters = board.heroes_on(state, i)
            events.extend(_combat(state, i, fighters, {s: came_from[s] for s in fighters if s in came_from}))
            if state["phase"] == "over":
                return events
    return events


def _storm_empty_tower(state: dict) -> list[dict]:
    """Heroes inside a tower with no monster left win."""
    if not board.heroes_on(state, state["tower"]):
        return []
    state["phase"] = "over"
    state["winner"] = "heroes"
    state["end"] = "heroes stormed the tower"
    state["end_reason"] = "The heroes storm the empty tower and cut down the wizard!"
    return [board._event("win", state["end_reason"])]


def _end_round(state: dict, commits: dict[int, dict]) -> list[dict]:
    """Potions wear off, frozen heroes who committed thaw; the round limit, or the next wizard turn."""
    for s in range(1, state["n"]):
        hero = state["heroes"][s]
        hero["strength"] = 0
        hero["ward"] = False
        hero["thawed"] = hero["frozen"] and s in commits
        if s in commits:
            hero["frozen"] = False
    if state["round"] >= state["round_limit"]:
        state["phase"] = "over"
        state["winner"] = "wizard"
        state["end"] = "round limit"
        state["end_reason"] = (f"Round {state['round']} ends and the world collapses: "
                               "the heroes ran out of time and the wizard wins.")
        return [board._event("win", state["end_reason"])]
    state["round"] += 1
    return wizard_turn._start_wizard_turn(state)


def _public_move(state: dict, seat: int, a: dict) -> str:
    if a["type"] == "stay":
        return "stays"
    if a["type"] == "move":
        if a["to"] == state["tower"]:
            return "enters the tower"
        return f"moves to {board.label(state, a['to'])}"
    verb = "sprints" if a["type"] == "sprint" else "marches"
    return f"{verb} " + " -> ".join(board.label(state, i) for i in a["path"])

