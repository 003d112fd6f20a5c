"""Readable Masterminds set-ups: say what the table looks like, not which state keys to poke. The rules tests
build their positions with it, and so does the tutorial (``teach.py``). Cards are named as printed; every card a
verb places is taken from wherever it lies (deck, discard, pool, another hand or team), so every card, die and
gem is still conserved afterwards.

    table = (MastermindsTable(players=3).empty_hands()
             .team(0, "Ghost", "Byte", gear={"Ghost": "Shadow Suit"})
             .hand(1, "Jammed Radio")
             .heist(0, "The Crown Jewels", "Casino Vault", dice=[(0, 4)])
             .gems(0, Red=1).intel(0, 2).dice(5))
    state = table.state
"""
from __future__ import annotations

from typing import Any, Iterable

from bot.rng import Rng

from .cards import CLEAR, FAILURES, HEISTS, PREP, TALENTS
from .engine import MastermindsEngine

ENGINE = MastermindsEngine()


def tid(name: str) -> str:
    """The id of the Talent called ``name``."""
    return next(k for k, t in TALENTS.items() if t["name"] == name)


def pids(name: str) -> list[str]:
    """The ids of every copy of the Prep card called ``name``."""
    return [k for k, p in PREP.items() if p["name"] == name]


def hid(name: str) -> str:
    """The id of the Heist card called ``name``."""
    return next(k for k, h in HEISTS.items() if h["name"] == name)


def fid(name: str) -> str:
    """The id of the Failure card called ``name``."""
    return next(k for k, f in FAILURES.items() if f["name"] == name)


class MastermindsTable:
    """One game's state with set-up verbs; every verb returns the table, so they chain."""

    def __init__(self, players: int = 2, seed: int = 1, **options: Any) -> None:
        """A new game of ``players`` (P1, P2, ...) where seat 0 starts, whatever the roll said."""
        self.state = ENGINE.setup([f"P{i + 1}" for i in range(players)], ENGINE.meta.resolve_options(options), seed)
        self.state["turn"] = 0
        self.state["first"] = 0

    @classmethod
    def of(cls, state: dict) -> MastermindsTable:
        """A table around a state a test already has."""
        table = cls.__new__(cls)
        table.state = state
        return table

    @classmethod
    def at_a_heist(cls, players: int = 2, seed: int = 1, team: Iterable[str] = ("Rosa Vance",),
                   gear: dict[str, str] | None = None, a: str = "The Crown Jewels", b: str = "Casino Vault",
                   dice: Iterable[tuple[int, int]] = (), **options: Any) -> MastermindsTable:
        """Seat 0 to act with empty hands and exactly ``team``; heist ``a`` (A side) + ``b`` (B side) in slot 0."""
        return cls(players, seed, **options).empty_hands().team(0, *team, gear=gear).heist(0, a, b, dice=dice)

    # ------------------------------------------------------------------ cards
    def _take_talent(self, talent: str) -> None:
        st = self.state
        for pile in ("talent_deck", "talent_discard", "pool"):
            if talent in st[pile]:
                st[pile].remove(talent)
                return
        for team in st["teams"]:
            for i, entry in enumerate(team):
                if entry["card"] == talent:
                    if entry["gear"]:
                        st["prep_discard"].append(entry["gear"])
                    del team[i]
                    return
        raise AssertionError(f"talent {talent} not found")

    def take_prep(self, name: str) -> str:
        """A free copy of the Prep card ``name`` taken off the table (deck, discard, a hand, a recruit's gear)."""
        st = self.state
        for pile in ("prep_deck", "prep_discard"):
            for card in st[pile]:
                if PREP[card]["name"] == name:
                    st[pile].remove(card)
                    return card
        for hand in st["hands"]:
            for card in hand:
                if PREP[card]["name"] == name:
                    hand.remove(card)
                    return card
        for team in st["teams"]:
            for entry in team:
                if entry["gear"] and PREP[entry["gear"]]["name"] == name:
                    card = entry["gear"]
                    entry["gear"] = None
                    return card
        raise AssertionError(f"no free copy of {name}")

    def team(self, seat: int, *names: str, gear: dict[str, str] | None = None) -> MastermindsTable:
        """Player ``seat``'s team is exactly these recruits, untapped, with ``gear`` {recruit: Gear card};
        the old recruits go to the discard and the pool is refilled."""
        st = self.state
        for entry in list(st["teams"][seat]):
            if entry["gear"]:
                st["prep_discard"].append(entry["gear"])
            st["talent_discard"].append(entry["card"])
        st["teams"][seat] = []
        for name in names:
            talent = tid(name)
            self._take_talent(talent)
            card = self.take_prep(gear[name]) if gear and name in gear else None
            st["teams"][seat].append({"card": talent, "gear": card, "tapped": False, "injured": False})
        ENGINE._refresh_pool(st, [])
        return self

    def hand(self, seat: int, *names: str) -> MastermindsTable:
        """Player ``seat`` holds exactly these Prep cards (the old hand goes to the discard)."""
        st = self.state
        st["prep_discard"].extend(st["hands"][seat])
        st["hands"][seat] = []
        for name in names:
            st["hands"][seat].append(self.take_prep(name))
        return self

    def empty_hands(self) -> MastermindsTable:
        """Nobody holds a Prep card."""
        for seat in range(len(self.state["names"])):
            self.hand(seat)
        return self

    def held(self, seat: int, name: str) -> list[str]:
        """The ids of the copies of ``name`` in player ``seat``'s hand."""
        return [card for card in self.state["hands"][seat] if PREP[card]["name"] == name]

    def in_pool(self, name: str) -> MastermindsTable:
        """The Talent ``name`` is in the Talent Pool (replacing the newest card there, which is discarded)."""
        st = self.state
        talent = tid(name)
        if talent not in st["pool"]:
            self._take_talent(talent)
            st["talent_discard"].append(st["pool"].pop())
            st["pool"].append(talent)
        return self

    def next_prep(self, *names: str) -> MastermindsTable:
        """The next Prep cards drawn are these, in this order."""
        for name in reversed(names):
            self.state["prep_deck"].append(self.take_prep(name))
        return self

    def next_failure(self, name: str) -> MastermindsTable:
        """The next Failure card flipped is ``name``."""
        card = fid(name)
        for pile in ("failure_deck", "failure_discard"):
            if card in self.state[pile]:
                self.state[pile].remove(card)
        self.state["failure_deck"].append(card)
        return self

    # ------------------------------------------------------------------ heists
    def heist(self, slot: int, a: str, b: str, dice: Iterable[tuple[int, int]] = ()) -> MastermindsTable:
        """Heist ``a`` (A side) + ``b`` (B side) in ``slot`` with ``dice`` [(seat, face), ...] on its first
        steps; the heist there before (and the other slot's, if it shares a card) goes back under the deck."""
        st = self.state
        deck = st["heist_deck"]
        a_id, b_id = hid(a), hid(b)

        def free(place: int) -> None:
            old = st["heists"][place]
            if old:
                for die in old["dice"]:
                    if die:
                        st["dice"][die["seat"]] += 1
                deck[:0] = [old["a"], old["b"]]
                st["heists"][place] = None

        free(slot)
        other = st["heists"][1 - slot]
        if other and {a_id, b_id} & {other["a"], other["b"]}:
            free(1 - slot)
        deck.remove(a_id)
        deck.remove(b_id)
        placed = list(dice)
        for seat, _ in placed:
            st["dice"][seat] -= 1
        steps = [{"seat": seat, "value": face} for seat, face in placed] + [None] * (4 - len(placed))
        st["heists"][slot] = {"a": a_id, "b": b_id, "dice": steps}
        if st["heists"][1 - slot] is None:
            first, second = deck.pop(), deck.pop()
            st["heists"][1 - slot] = {"a": first, "b": second, "dice": [None] * 4}
        return self

    def heists_done(self, seat: int, count: int) -> MastermindsTable:
        """Player ``seat`` has completed ``count`` heists (their name cards come off the Heist deck)."""
        st = self.state
        done = list(st["heist_deck"])[:count]
        for card in done:
            st["heist_deck"].remove(card)
        st["mementos"][seat] = done
        st["completed"] += count
        return self

    # ------------------------------------------------------------------ gems, Intel, turn, dice
    def gems(self, seat: int, **colours: int) -> MastermindsTable:
        """Player ``seat`` holds exactly this many gems of each colour named (``Clear=2``); the difference
        goes to or comes from the bag."""
        st = self.state
        for colour, count in colours.items():
            colour = CLEAR if colour == "Clear" else colour
            change = count - st["gems"][seat][colour]
            st["gems"][seat][colour] += change
            st["bag"][colour] -= change
        return self

    def bag_only(self, seat: int, **colours: int) -> MastermindsTable:
        """The bag holds only these gems (``Blue=1``); every other gem in it goes to player ``seat``."""
        st = self.state
        for colour in st["bag"]:
            keep = colours.get("Clear" if colour == CLEAR else colour, 0)
            st["gems"][seat][colour] += st["bag"][colour] - keep
            st["bag"][colour] = keep
        return self

    def intel(self, seat: int, amount: int) -> MastermindsTable:
        """Player ``seat`` has ``amount`` Intel for their next heist attempt."""
        self.state["intel"][seat] = amount
        return self

    def turn(self, seat: int) -> MastermindsTable:
        """It is player ``seat``'s turn (the round's first player stays seat 0)."""
        self.state["turn"] = seat
        return self

    def dice(self, *faces: int) -> MastermindsTable:
        """The next d6 rolls of the game show ``faces``, in this order."""
        for seed in range(1, 10 ** 6):
            probe = Rng({"rng": seed})
            if all(probe.die(6) == face for face in faces):
                self.state["rng"] = seed
                return self
        raise AssertionError("could not rig dice")

    def game_over(self, reason: str) -> MastermindsTable:
        """The game ends now (``heists``, ``bag`` or ``rounds``): gem values are rolled and scores counted."""
        self.state["end_reason"] = reason
        ENGINE._finish(self.state, [])
        return self
