"""Wizard's Rage: resolving the heroes' committed moves (flips, traps, scouting, loot, combat, the end)."""
from __future__ import annotations

from bot.rng import Rng

from . import cards
from .constants import SCOUT_RANGE, TRAP_DAMAGE


class ResolutionMixin:
    """Once every living hero has committed: reveal, move, flip, collect, fight, end the round."""

    def _flip(self, state: dict, i: int) -> list[dict]:
        """A hero reaches tile i: flip the tile (wizard draw/mana) and every face-down token on it."""
        events: list[dict] = []
        if not state["tiles"][i]["up"]:
            events.extend(self._reveal_room(state, i))
        events.extend(self._flip_tokens(state, i))
        return events

    def _reveal_room(self, state: dict, i: int) -> list[dict]:
        """The room turns face up: its card-draw and mana values apply to the wizard, then scouting."""
        state["tiles"][i]["up"] = True
        room = self.room_tile(state, i)
        events = [self._event("flip", f"{self.label(state, i)} is revealed: **{room['name']}** "
                              f"({self.room_effect(room)}).")]
        wizard = state["wizard"]
        if room["draw"] > 0:
            drawn = self._draw_wizard(state, room["draw"], events)  # the reveal's line says how many
            if drawn:
                events.append(self._event("draw", "You draw " + ", ".join(self.wizard_card(state, c)["name"] for c in drawn)
                                  + ".", to=0))
        elif room["draw"] < 0:
            events.extend(self._room_discard(state, min(-room["draw"], len(wizard["hand"]))))
        if room["mana"] > 0 and wizard["mana"] >= cards.MANA_MAX:
            events.append(self._event("mana", "The Mana Wheel is already full."))
        elif room["mana"]:
            events.extend(self._spin(state, room["mana"]))
        events.extend(self._scout(state, i))
        return events

    @staticmethod
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

    def _room_discard(self, state: dict, k: int) -> list[dict]:
        """A room with a negative card value: the wizard discards k cards at random."""
        wizard = state["wizard"]
        rng = Rng(state)
        lost = []
        for _ in range(k):
            cid = wizard["hand"].pop(rng.below(len(wizard["hand"])))
            wizard["discard"].append(cid)
            lost.append(cid)
        events = [self._event("draw", f"The wizard discards {k} card{'s' if k != 1 else ''} at random." if k else
                              "The wizard has no card to discard.")]
        if lost:
            events.append(self._event("draw", "You lose " + ", ".join(self.wizard_card(state, c)["name"] for c in lost)
                              + ".", to=0))
        return events

    def _flip_tokens(self, state: dict, i: int) -> list[dict]:
        """Face-down tokens on tile i flip: decoys vanish, traps spring on the heroes there, monsters stay."""
        hidden = self.hidden_tokens(state, i)
        if not hidden:
            return []
        tile = state["tiles"][i]
        names = [self._token_name(state, tid) for tid in hidden]
        events = [self._event("tokens", f"Tokens flip on {self.label(state, i)}: {', '.join(names)}.")]
        here = self.heroes_on(state, i)
        rng = Rng(state)
        for tid in hidden:
            token = self.token(state, tid)
            token["up"] = True
            if token["kind"] == "monster":
                continue
            if token["kind"] == "trap":
                events.extend(self._spring_trap(state, here, rng))
            tile["tokens"].remove(tid)
            state["tokens"].pop(str(tid))
        return events

    def _spring_trap(self, state: dict, here: list[int], rng: Rng) -> list[dict]:
        events: list[dict] = []
        for seat in here:
            hero = state["heroes"][seat]
            if not hero["alive"]:
                continue
            if hero["ward"]:
                events.append(self._event("save", f"{state['names'][seat]}'s ward charm turns the trap aside."))
                continue
            events.extend(self._saving_throw(state, seat, rng, "Trap! ", ": safe.", f": {TRAP_DAMAGE} damage."))
        return events

    def scout_range(self, state: dict) -> int:
        """How far a revealed room senses key vaults: tuned only (a new rule; 0 under the rulebook)."""
        return 0 if self.rulebook(state) else SCOUT_RANGE[state["n"]]

    def _scout(self, state: dict, i: int) -> list[dict]:
        """Scouting (tuned rules): a revealed room senses how many key vaults (found or not) lie within
        SCOUT_RANGE steps of it. The number is public and stays on the room; which tiles they are is not."""
        tile = state["tiles"][i]
        rng_ = self.scout_range(state)
        if not rng_ or tile["key_tile"]:
            return []
        r0, c0 = self.row_col(state, i)
        near = len([j for j, u in enumerate(state["tiles"]) if u["key_tile"] and j != i
                    and abs(self.row_col(state, j)[0] - r0) + abs(self.row_col(state, j)[1] - c0) <= rng_])
        tile["sense"] = near
        if not near:
            return [self._event("flip", f"Scouting from {self.label(state, i)}: no key vault within {rng_} steps.")]
        state["scouted"] = state.get("scouted", 0) + 1
        return [self._event("flip", f"Scouting from {self.label(state, i)}: {near} key vault{'s' if near > 1 else ''} "
                                f"within {rng_} steps!")]

    def _collect(self, state: dict, i: int, visitors: list[int]) -> list[dict]:
        """Visitors of a monster-free tile: first search loot, a hidden key, dropped items."""
        events: list[dict] = []
        tile = state["tiles"][i]
        seats = [s for s in visitors if state["heroes"][s]["alive"]]
        if not seats or self.face_up_monsters(state, i) or i == state["tower"]:
            return events
        lab = self.label(state, i)
        if not tile["searched"]:
            tile["searched"] = True
            events.extend(self._give_loot(state, seats, 1, lab))
        events.extend(self._pickup(state, i, seats))
        return events

    def _pickup(self, state: dict, i: int, seats: list[int]) -> list[dict]:
        events: list[dict] = []
        tile = state["tiles"][i]
        lab = self.label(state, i)
        seats = [s for s in seats if state["heroes"][s]["alive"]]
        if not seats:
            return events
        keeper = sorted(seats, key=lambda s: (-state["heroes"][s]["keys"], s))[0]
        if tile["key"]:
            tile["key"] = False
            state["heroes"][keeper]["keys"] += 1
            state["keys_taken"] += 1
            events.append(self._event("key", f"{state['names'][keeper]} takes the key from {lab}! "
                                     f"({state['keys_taken']}/3 found)"))
            if state["keys_taken"] == 3 and not state["keys_found"]:
                state["keys_found"] = True
                events.append(self._event("rage", "All three keys are found! The wizard's rage begins: "
                                          "from now on the world crumbles every wizard turn."))
        if tile["drop"]["keys"]:
            state["heroes"][keeper]["keys"] += tile["drop"]["keys"]
            events.append(self._event("key", f"{state['names'][keeper]} picks up {tile['drop']['keys']} dropped key(s) on {lab}."))
            tile["drop"]["keys"] = 0
        if tile["drop"]["cards"]:
            dropped = tile["drop"]["cards"]
            tile["drop"]["cards"] = []
            for cid in dropped:
                s = self._loot_order(state, seats)[0]
                self._gain_card(state, s, cid)
                events.append(self._event("loot", f"{state['names'][s]} picks up {self.loot_card(state, cid)['name']} on {lab}."))
        return events

    def _settle_drops(self, state: dict) -> list[dict]:
        """Dropped items go to the next hero who stands on their tile with no monsters -- also a hero who
        was already there when their friend fell (e.g. to a fireball), or who stays there."""
        events = []
        for i, tile in enumerate(state["tiles"]):
            if (tile["drop"]["cards"] or tile["drop"]["keys"]) and not tile["removed"] and i != state["tower"] \
                    and not self.face_up_monsters(state, i) and self.heroes_on(state, i):
                events.extend(self._pickup(state, i, self.heroes_on(state, i)))
        return events

    def _combat(self, state: dict, i: int, fighters: list[int], movers: dict[int, int]) -> list[dict]:
        events = []
        rng = Rng(state)
        mons = self.face_up_monsters(state, i)
        level, hits = self.monster_power(state, mons)
        lab = "the tower" if i == state["tower"] else self.label(state, i)
        wroll = rng.die(20)
        bonus = sum(self.attack(state, s) for s in fighters)
        lone = state["options"].get("lone_hero") and len(self.living(state)) == 1
        if lone:
            a, b = rng.die(20), rng.die(20)
            hroll = a + b
            rolls = f"{a}+{b} (last-hero boost)"
        else:
            rolls_list = [rng.die(20) for _ in fighters]
            hroll = max(rolls_list)
            rolls = "/".join(str(r) for r in rolls_list)
        names = ", ".join(state["names"][s] for s in fighters)
        mnames = ", ".join(self._monster_name(self.token(state, m)) for m in mons)
        hero_total = hroll + bonus
        wiz_total = wroll + level
        heroes_win = hero_total >= wiz_total
        verb = "roll" if len(fighters) > 1 or lone else "rolls"
        events.append(self._event("combat", f"Combat in {lab}: {names} {verb} {rolls} +{bonus} = {hero_total} against "
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
                events.append(self._event("win", state["end_reason"]))
                return events
            count = 1 if tile["conquered"] else 2
            tile["conquered"] = True
            tile["searched"] = True
            events.extend(self._give_loot(state, fighters, count, lab))
            events.extend(self._pickup(state, i, fighters))
        else:
            for s in fighters:
                if s in movers:
                    state["heroes"][s]["pos"] = movers[s]
                events.append(self._event("damage", f"{state['names'][s]} is driven back to "
                                            f"{self.label(state, state['heroes'][s]['pos'])} and takes {hits} "
                                            f"damage."))
                events.extend(self._damage(state, s, hits))
        return events

    def _resolve(self, state: dict) -> list[dict]:
        """Every living hero has committed: reveal the moves, open the tower door, move (flipping rooms and
        tokens), collect loot and keys, fight, then end the game or the round."""
        commits = {int(k): v for k, v in state["commits"].items()}
        state["commits"] = {}
        order = sorted(commits)
        parts = [f"{state['names'][s]}: {self._public_move(state, s, commits[s])}" for s in order]
        events = [self._event("reveal", "Moves revealed - " + "; ".join(parts) + ".")]
        events.extend(self._open_door(state, commits))
        came_from: dict[int, int] = {}
        visited: dict[int, list[int]] = {}
        events.extend(self._move_heroes(state, commits, came_from, visited))
        for i in sorted(visited):  # looting empty rooms, keys and dropped items
            here = [s for s in visited[i] if state["heroes"][s]["alive"] and state["heroes"][s]["pos"] == i]
            events.extend(self._collect(state, i, here))
        events.extend(self._fights(state, came_from))
        if state["phase"] == "over":
            return events
        events.extend(self._settle_drops(state))
        events.extend(self._storm_empty_tower(state))
        if state["phase"] == "over":
            return events
        events.extend(self._check_wizard_win(state))
        if state["phase"] == "over":
            return events
        events.extend(self._end_round(state, commits))
        return events

    def _open_door(self, state: dict, commits: dict[int, dict]) -> list[dict]:
        """A hero moving into the closed tower: the keys held on the entrance tile open it for good."""
        if state["tower_open"] or not any(a.get("to") == state["tower"] for a in commits.values()):
            return []
        for s in self.heroes_on(state, self.entrance_tile(state)):
            state["keys_used"] += state["heroes"][s]["keys"]
            state["heroes"][s]["keys"] = 0
        state["tower_open"] = True
        return [self._event("tower", "The three keys turn in the lock: the tower door swings open!")]

    def _move_heroes(self, state: dict, commits: dict[int, dict], came_from: dict[int, int],
                     visited: dict[int, list[int]]) -> list[dict]:
        """Everyone's first step (and the stuck heroes' own tiles) flips at once, then the sprinters' and
        marchers' further steps, each stopped by monsters on the tile they stand on. Fills ``came_from``
        (where a hero driven back returns to) and ``visited`` (tile -> heroes who entered it)."""
        order = sorted(commits)
        start = {s: state["heroes"][s]["pos"] for s in order}
        paths = self._committed_paths(state, commits)
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
            events.extend(self._flip(state, i))
        for k in (1, 2):
            events.extend(self._further_step(state, order, paths, k, came_from, visited))
        return events

    def _committed_paths(self, state: dict, commits: dict[int, dict]) -> dict[int, list[int]]:
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

    def _further_step(self, state: dict, order: list[int], paths: dict[int, list[int]], k: int,
                      came_from: dict[int, int], visited: dict[int, list[int]]) -> list[dict]:
        """Step ``k`` (1 or 2) of the marches and sprints: leave tile k-1 (collecting there) for tile k."""
        events: list[dict] = []
        step: list[int] = []
        for s in order:
            if s in paths and len(paths[s]) > k and state["heroes"][s]["alive"]:
                a, b = paths[s][k - 1], paths[s][k]
                if state["heroes"][s]["pos"] != a:
                    continue
                if self.face_up_monsters(state, a):
                    events.append(self._event("move", f"{state['names'][s]} is stopped by monsters on {self.label(state, a)}."))
                    continue
                events.extend(self._collect(state, a, [s]))
                state["heroes"][s]["pos"] = b
                came_from[s] = a
                visited.setdefault(b, []).append(s)
                if b not in step:
                    step.append(b)
        for i in step:
            events.extend(self._flip(state, i))
        return events

    def _fights(self, state: dict, came_from: dict[int, int]) -> list[dict]:
        """Combat on every tile where living heroes stand with face-up monsters (stops if the game ends)."""
        events: list[dict] = []
        for i in sorted({state["heroes"][s]["pos"] for s in self.living(state)}):
            if self.face_up_monsters(state, i):
                fighters = self.heroes_on(state, i)
                events.extend(self._combat(state, i, fighters, {s: came_from[s] for s in fighters if s in came_from}))
                if state["phase"] == "over":
                    return events
        return events

    def _storm_empty_tower(self, state: dict) -> list[dict]:
        """Heroes inside a tower with no monster left win."""
        if not self.heroes_on(state, state["tower"]):
            return []
        state["phase"] = "over"
        state["winner"] = "heroes"
        state["end"] = "heroes stormed the tower"
        state["end_reason"] = "The heroes storm the empty tower and cut down the wizard!"
        return [self._event("win", state["end_reason"])]

    def _end_round(self, state: dict, commits: dict[int, dict]) -> list[dict]:
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
            return [self._event("win", state["end_reason"])]
        state["round"] += 1
        return self._start_wizard_turn(state)

    def _check_wizard_win(self, state: dict) -> list[dict]:
        if state["phase"] != "over" and not self.living(state):
            state["phase"] = "over"
            state["winner"] = "wizard"
            state["end"] = "all heroes dead"
            state["end_reason"] = "Every hero has fallen: the wizard wins!"
            state["pending"] = None
            wizard = state["wizard"]
            if wizard["pending_card"] is not None:
                wizard["discard"].append(wizard["pending_card"])
                wizard["pending_card"] = None
            return [self._event("win", state["end_reason"])]
        return []

    def _public_move(self, state: dict, seat: int, a: dict) -> str:
        if a["type"] == "stay":
            return "stays"
        if a["type"] == "move":
            if a["to"] == state["tower"]:
                return "enters the tower"
            return f"moves to {self.label(state, a['to'])}"
        verb = "sprints" if a["type"] == "sprint" else "marches"
        return f"{verb} " + " -> ".join(self.label(state, i) for i in a["path"])

