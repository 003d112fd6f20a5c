"""A small deterministic random number generator whose whole state is one int.

Engines keep the generator's state inside the game state (``state["rng"]``) so a
game is a pure function of its seed and its action log, and the state stays plain
JSON. The algorithm is SplitMix64: tiny, fast and statistically fine for shuffling
cards and rolling dice.
"""
from __future__ import annotations

from collections.abc import MutableMapping, MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Reads and writes its 64-bit state in ``holder[key]`` on every draw."""

    __slots__ = ("holder", "key")

    def __init__(self, holder: MutableMapping[str, Any], key: str = "rng") -> None:
        self.holder = holder
        self.key = key

    @staticmethod
    def seed_state(seed: int) -> int:
        """The 64-bit state a game's RNG starts from for ``seed``."""
        return seed & _MASK

    def next64(self) -> int:
        """The next 64-bit draw (splitmix64), advancing the stored state."""
        x = (self.holder[self.key] + 0x9E3779B97F4A7C15) & _MASK
        self.holder[self.key] = x
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform int in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            v = self.next64()
            if v <= limit:
                return v % n

    def randint(self, a: int, b: int) -> int:
        """A uniform int in [a, b], both ends included."""
        return a + self.below(b - a + 1)

    def die(self, sides: int) -> int:
        """A roll of a die with ``sides`` faces (1 to sides)."""
        return self.randint(1, sides)

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of ``seq``."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        """Shuffle ``seq`` in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements of ``seq`` in random order."""
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]
