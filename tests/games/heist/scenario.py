"""Readable HEIST set-ups for rules tests: say what the table looks like, not which state keys to poke.
Every component stays where the rules can find it: a card or token put somewhere is taken from where it
was (deck, hands, supply, box...), so the 78 cards and 50 tokens are all still there exactly once.

    table = HeistTable(3).holds(1, "Lookout", "Tumble").at("B", 1).bag(yellow=4).faces("B")
    lookout, tumble = table.hand(1)
    st = table.state
"""
from __future__ import annotations

from bot.games.heist import ENGINE, cards


def ids_named(name: str) -> list[str]:
    """Every resource card id printed with this name."""
    return [card for card in cards.RESOURCE_IDS if cards.RESOURCE[card]["name"] == name]


class HeistTable:
    """One game's state with set-up verbs; every verb returns the table, so they chain."""

    def __init__(self, players: int = 3, seed: int = 1, faces: str = "front") -> None:
        self.state = ENGINE.setup([f"P{i}" for i in range(players)], {"token_faces": faces}, seed)

    @classmethod
    def of(cls, state: dict) -> HeistTable:
        """A table around a state a test already has."""
        table = cls.__new__(cls)
        table.state = state
        return table

    # ------------------------------------------------------------------ reading the table
    @property
    def active(self) -> int:
        """The seat whose turn it is."""
        return self.state["active"]

    def others(self) -> list[int]:
        """The seats other than the active one, clockwise from it (the reveal's order)."""
        count = self.state["n"]
        return [(self.active + step) % count for step in range(1, count)]

    def hand(self, seat: int) -> list[str]:
        """The card ids in ``seat``'s hand, in the order they were given."""
        return list(self.state["hands"][seat])

    # ------------------------------------------------------------------ cards
    def _places(self) -> list[list[str]]:
        st = self.state
        return [st["deck"], st["discard"], *st["hands"], *st["upgrades"], *st["piles"]]

    def _take_card(self, card: str) -> str:
        """A card by id or by name (a copy not yet taken by this set-up), removed from where it lies."""
        if card not in cards.RESOURCE:
            st = self.state
            taken = {held for seat in range(st["n"]) for held in st["hands"][seat] + st["upgrades"][seat] + st["piles"][seat]}
            card = next(copy for copy in ids_named(card) if copy not in taken)
        for place in self._places():
            if card in place:
                place.remove(card)
                return card
        raise AssertionError(f"card {card} is nowhere")

    def holds(self, seat: int, *names: str) -> HeistTable:
        """``seat``'s hand is exactly these cards (by name, or id); the old hand goes to the bottom of the deck."""
        st = self.state
        st["deck"][:0] = st["hands"][seat]
        st["hands"][seat] = []
        for name in names:
            st["hands"][seat].append(self._take_card(name))
        return self

    def upgraded(self, seat: int, *names: str) -> HeistTable:
        """These cards (by name, or id) lie on ``seat``'s identity as upgrades."""
        for name in names:
            self.state["upgrades"][seat].append(self._take_card(name))
        return self

    def scored(self, seat: int, *items: str) -> HeistTable:
        """These obstacles (by number) and cards (by name, or id) are in ``seat``'s score pile."""
        for item in items:
            if item in cards.OBSTACLE:
                self._take_obstacle(item)
            else:
                item = self._take_card(item)
            self.state["piles"][seat].append(item)
        return self

    def deck_runs_low(self, left: int) -> HeistTable:
        """All but the top ``left`` cards of the deck lie in the discard pile."""
        st = self.state
        st["discard"] += st["deck"][:-left]
        st["deck"] = st["deck"][-left:]
        return self

    # ------------------------------------------------------------------ jobs and obstacles
    def _take_obstacle(self, obstacle: str) -> None:
        st = self.state
        for place in [*st["jobs"].values(), st["boxed"], st["unused"], *st["piles"]]:
            if obstacle in place:
                place.remove(obstacle)
                return
        raise AssertionError(f"obstacle {obstacle} is nowhere")

    def job(self, letter: str, *stack: str) -> HeistTable:
        """Job ``letter`` holds exactly these obstacles, top first (none: it is empty); the ones it held
        before are in the box (failed)."""
        st = self.state
        before = st["jobs"][letter]
        st["jobs"][letter] = []
        st["boxed"] += [obstacle for obstacle in before if obstacle not in stack]
        for obstacle in stack:
            if obstacle not in before:
                self._take_obstacle(obstacle)
        st["jobs"][letter] = list(stack)
        return self

    def completed(self, *letters: str) -> HeistTable:
        """These jobs count as completed (their 7th obstacle overcome)."""
        self.state["completed"] += letters
        return self

    def record(self, tests: int, failed: int) -> HeistTable:
        """So far ``tests`` tests were resolved and ``failed`` of them failed."""
        self.state["tests"], self.state["failed"] = tests, failed
        return self

    # ------------------------------------------------------------------ thieves
    def identity(self, seat: int, identity: str) -> HeistTable:
        """``seat`` plays this identity (swapped with its holder, or with the box)."""
        st = self.state
        if identity in st["identities"]:
            st["identities"][st["identities"].index(identity)] = st["identities"][seat]
        else:
            st["box_identities"].remove(identity)
            st["box_identities"] = sorted(st["box_identities"] + [st["identities"][seat]])
        st["identities"][seat] = identity
        return self

    def secret(self, seat: int, secret: str) -> HeistTable:
        """``seat`` holds this secret (swapped with its holder, or with the box)."""
        st = self.state
        if secret in st["secrets"]:
            st["secrets"][st["secrets"].index(secret)] = st["secrets"][seat]
        else:
            st["box_secrets"].remove(secret)
            st["box_secrets"].append(st["secrets"][seat])
        st["secrets"][seat] = secret
        return self

    def at(self, job: str | None, *seats: int) -> HeistTable:
        """These seats' pawns stand at ``job`` (None: the hideout)."""
        for seat in seats:
            self.state["locations"][seat] = job
        return self

    # ------------------------------------------------------------------ tokens
    def bag(self, **counts: int) -> HeistTable:
        """The bag holds exactly these tokens (by colour); the rest are in the supply."""
        st = self.state
        for colour in cards.COLOURS:
            st["supply"][colour] += st["bag"][colour]
            st["bag"][colour] = 0
        for colour, count in counts.items():
            assert st["supply"][colour] >= count
            st["supply"][colour] -= count
            st["bag"][colour] = count
        return self

    def spent(self, *tokens: tuple[str, int]) -> HeistTable:
        """These tokens ``(colour, face)`` were drawn earlier this round (taken from the supply)."""
        for colour, face in tokens:
            self.state["supply"][colour] -= 1
            self.state["spent"].append({"colour": colour, "face": face, "ignored": False})
        return self

    def drawn(self, *tokens: tuple[str, int]) -> HeistTable:
        """The current test's drawn tokens are exactly these ``(colour, face)``: the ones drawn go back
        into the bag, the wanted ones come from the supply."""
        test = self.state["test"]
        for token in test["tokens"]:
            self.state["bag"][token["colour"]] += 1
        test["tokens"] = []
        for colour, face in tokens:
            self.state["supply"][colour] -= 1
            test["tokens"].append({"colour": colour, "face": face, "ignored": False})
        return self

    def bonus(self, amount: int) -> HeistTable:
        """Tricks add ``amount`` to the current test (to force a success or a failure)."""
        self.state["test"]["bonus"] = amount
        return self

    def facing(self, obstacle: str) -> HeistTable:
        """The current test is against this obstacle instead (its first skill test)."""
        self.state["test"]["obstacle"] = obstacle
        return self

    # ------------------------------------------------------------------ moves
    def faces(self, letter: str, option: int = 0) -> HeistTable:
        """The active player chooses the top obstacle of job ``letter`` (its skill test ``option``)."""
        ENGINE.apply(self.state, self.active, {"type": "choose", "job": letter, "option": option})
        return self

    def no_help(self) -> HeistTable:
        """Every helper still to commit commits nothing."""
        if self.state["phase"] == "assist":
            for seat in ENGINE.to_act(self.state):
                ENGINE.apply(self.state, seat, {"type": "no_assist"})
        return self

    def game_over(self) -> HeistTable:
        """The game has ended here (for scoring and secret checks)."""
        self.state["phase"] = "over"
        return self
