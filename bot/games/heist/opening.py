"""HEIST: a new game (identities, secrets, jobs cut to the player count, bag, heat track, hands)."""
from __future__ import annotations

from typing import Any

from bot.engine import State
from bot.rng import Rng

from . import cards, rules
from .cards import COLOURS


def _deal_roles(state: State, rng: Rng, count: int) -> None:
    """Identities and secrets for each seat; the rest go back to the box."""
    identities = [identity["id"] for identity in cards.IDENTITIES]
    rng.shuffle(identities)
    # Solo leaves out the secrets nobody can meet alone (no assists, no job within reach).
    secrets = [secret["id"] for secret in cards.SECRETS if count > 1 or secret.get("solo", True)]
    rng.shuffle(secrets)
    state["identities"] = identities[:count]
    state["box_identities"] = sorted(identities[count:])
    state["secrets"] = secrets[:count]
    state["box_secrets"] = sorted(set(cards.SECRET) - set(secrets[:count]))


def _stack_jobs(state: State, count: int) -> None:
    """Jobs are shorter with fewer players: the top obstacles of each job are used,
    the last of them is the job's finale (Mandatory); the rest stay in the box."""
    length = rules.of(state).job_length[count]
    state["jobs"] = {job["letter"]: [obstacle["id"] for obstacle in job["obstacles"][:length]] for job in cards.JOBS}
    state["unused"] = sorted(obstacle["id"] for job in cards.JOBS for obstacle in job["obstacles"][length:])
    state["finales"] = {letter: stack[-1] for letter, stack in state["jobs"].items()}
    state["boxed"] = []
    state["tests"] = 0
    state["failed"] = 0
    state["completed"] = []


def _fill_bag(state: State, count: int) -> None:
    """The starting bag (more tokens per extra player) and the heat track, taken from the supply."""
    supply = dict(cards.TOKEN_TOTAL)
    bag = {colour: 0 for colour in COLOURS}

    def take(colour: str, wanted: int) -> int:
        got = min(wanted, supply[colour])
        supply[colour] -= got
        return got

    for colour, wanted in cards.START_BAG.items():
        bag[colour] += take(colour, wanted)
    for _ in range(count - 1):
        for colour, wanted in cards.PER_EXTRA_PLAYER.items():
            bag[colour] += take(colour, wanted)
    per_space = (count + 1) // 2
    state["heat"] = [{"colour": colour, "count": take(colour, per_space), "done": False}
                     for colour in cards.HEAT_TRACK]
    state["bag"] = bag
    state["supply"] = supply
    state["spent"] = []  # tokens drawn earlier this round, in front of players


def _deal_hands(state: State, rng: Rng, count: int) -> None:
    """The shuffled resource deck, five cards to each seat, empty upgrades and score piles."""
    deck = list(cards.RESOURCE_IDS)
    rng.shuffle(deck)
    state["deck"] = deck
    state["discard"] = []
    state["hands"] = [[] for _ in range(count)]
    for seat in range(count):
        state["hands"][seat] = [state["deck"].pop() for _ in range(cards.HAND_SIZE)]
    # Card names that have been in some hand (for the balance report's "available").
    state["held"] = sorted({cards.card_name(card) for hand in state["hands"] for card in hand})
    state["upgrades"] = [[] for _ in range(count)]
    state["piles"] = [[] for _ in range(count)]
    state["locations"] = [None] * count  # None = the hideout (no job yet)


def new_state(names: list[str], options: dict[str, Any], seed: int) -> State:
    """A new game for these players (options already resolved): everything dealt, the start player drawn."""
    count = len(names)
    state: State = {"names": list(names), "rng": Rng.seed_state(seed), "options": options, "n": count}
    rng = Rng(state)
    _deal_roles(state, rng, count)
    _stack_jobs(state, count)
    _fill_bag(state, count)
    _deal_hands(state, rng, count)
    state["start"] = rng.below(count)
    state["leader"] = state["start"]  # this round's first player (tuned: moves left each round)
    state["active"] = state["start"]
    state["round"] = 1
    state["turns"] = 0
    state["phase"] = "choose"
    state["test"] = None
    state["last"] = None
    state["final"] = None
    return state
