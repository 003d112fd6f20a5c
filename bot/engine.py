"""The contract every game engine keeps.

An engine is pure, synchronous and deterministic: no discord, no Pillow, no I/O.
Its state is a plain dict that round-trips through JSON, and its randomness lives
in ``state["rng"]`` (see :mod:`bot.rng`). Seats are ints ``0..n-1``; the platform
maps them to Discord users.

Actions are small JSON dicts (always with a ``"type"`` key). Every decision a
player makes is one action picked from ``legal_actions`` -- multi-step choices
(a card's power asking "which card?") are modelled as a pending decision in the
state whose options are the next legal actions. That keeps one generic UI, one
generic bot and one generic replay for all games.

Events returned by ``apply`` are dicts ``{"type": ..., "text": ...}``. ``text`` is
a public sentence safe for the channel. An event with ``"to": seat`` is private:
its text goes only to that seat and never to the channel. A public event may ask
for an extra picture with ``"image": kind``: the board message then also carries
``render_<kind>(public view)`` from the game's renderer (e.g. a round summary).
"""
from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from bot.teach import HowToPlay, Tutorial
else:
    from typing import TypeVar

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


def competition_ranks(keys: list[Any]) -> list[int]:
    """Ranks as in sport ("1, 2, 2, 4"): 1 + how many keys are strictly better.
    Smaller keys are better, so pass e.g. ``(-score, curses)`` per seat."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


NOT_JSON = ("not json",)


def exact_form(value: Any) -> Any:
    """A form of a JSON value equal only to the form of an identical value: unlike
    ``==``, ``True`` differs from ``1``, ``2.0`` from ``2`` and a tuple from a list.
    Anything that is not plain JSON (other types, non-string keys) gives ``NOT_JSON``,
    which matches no legal action's form."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return (kind.__name__, value)
    if kind is list:
        items = tuple(exact_form(item) for item in value)
        return NOT_JSON if NOT_JSON in items else ("list", items)
    if kind is dict and all(type(key) is str for key in value):
        items = tuple(sorted((key, exact_form(item)) for key, item in value.items()))
        return NOT_JSON if any(form is NOT_JSON for _, form in items) else ("dict", items)
    return NOT_JSON


MAX_NUMBER = 10**9  # no move of any game counts, indexes or numbers anything beyond this
OUT_OF_RANGE = "That move isn't allowed: one of its numbers is out of range."


def numbers_in_range(value: Any) -> bool:
    """Whether every number in a JSON value is finite and within ``MAX_NUMBER`` either way (what a move can
    hold). Infinity, NaN or a huge number is refused before any game reads it (``int(inf)`` raises)."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value) and abs(value) <= MAX_NUMBER
    if kind is int:
        return abs(value) <= MAX_NUMBER
    if kind is list:
        return all(numbers_in_range(item) for item in value)
    if kind is dict:
        return all(numbers_in_range(item) for item in value.values())
    return True


class RuleError(Exception):
    """An illegal move. ``str(error)`` is a sentence a player can read."""


@dataclass(frozen=True)
class Option:
    """A table option, e.g. the variant rules a host picks in the lobby.

    The type is the default's type: ``bool``, ``int`` (within ``minimum``..``maximum``)
    or ``str`` (one of ``choices``).
    """

    key: str
    label: str
    default: Any
    description: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, raw: Any) -> Any:
        """Turn user input (string or native) into a valid value, or raise RuleError."""
        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on", "y"):
                return True
            if text in ("0", "false", "no", "off", "n"):
                return False
            raise RuleError(f"Option '{self.label}' is on or off (yes/no), not '{raw}'.")
        if isinstance(self.default, int):
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise RuleError(f"Option '{self.label}' needs a whole number, not '{raw}'.") from None
            too_low = self.minimum is not None and value < self.minimum
            if too_low or (self.maximum is not None and value > self.maximum):
                raise RuleError(f"Option '{self.label}' must be between {self.minimum} and {self.maximum}.")
            return value
        text = str(raw).strip()
        if self.choices:
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise RuleError(f"Option '{self.label}' must be one of: {', '.join(self.choices)}.")
        return text


TUNED, RULEBOOK = "tuned", "rulebook"
RULES_OPTION = Option(
    "rules", "Rules", TUNED,
    "tuned: the printed rules with our measured balance changes (the rules doc lists each); rulebook: the rules "
    "exactly as printed, keeping only what playing in Discord needs.",
    choices=(TUNED, RULEBOOK))


def plays_rulebook(options: dict[str, Any] | None) -> bool:
    """Whether a table's resolved options (or a state's ``"options"``) ask for the printed rules; a game stored
    before the option existed plays the tuned set."""
    return (options or {}).get("rules", TUNED) == RULEBOOK


def phase_of(state: State) -> str:
    """The default moment of play of a :class:`PhaseTable`: the state's ``"phase"``."""
    return str(state["phase"])


@dataclass(frozen=True)
class Phase:
    """One moment of play: the legal actions of a seat that may act now, and the handler of each kind of action
    (``action["type"]``) they offer. A handler carries out an action already known to be legal and returns its
    events."""

    legal: Callable[[State, int], list[Action]]
    handlers: Mapping[str, Callable[[State, int, Action], list[Event]]]


@dataclass(frozen=True)
class PhaseTable:
    """A game's moments of play by name, and which one applies now (``moment``: by default the state's
    ``"phase"``). A moment with no entry (e.g. ``"over"``) offers no action. An engine hands ``legal_actions``
    and ``_apply`` to it (after its own turn check) instead of dispatching by hand."""

    phases: Mapping[str, Phase]
    moment: Callable[[State], str] = phase_of

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The current moment's legal actions for ``seat`` ([] if the moment has none)."""
        phase = self.phases.get(self.moment(state))
        return phase.legal(state, seat) if phase else []

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Hand a legal action to the current moment's handler of its kind."""
        phase = self.phases.get(self.moment(state))
        handler = phase.handlers.get(action["type"]) if phase else None
        if handler is None:  # legal_actions offered a kind no handler takes: a bug of the game's table
            raise RuleError("That move isn't allowed right now.")
        return handler(state, seat, action)

    def kinds(self) -> set[str]:
        """Every kind of action some moment handles."""
        return {kind for phase in self.phases.values() for kind in phase.handlers}


@dataclass(frozen=True)
class GameMeta:
    """What the platform knows of a game before it starts: names, player counts, rules summary, options."""
    key: str  # tower, sleeping, masterminds, rage, heist
    name: str
    min_players: int
    max_players: int
    blurb: str  # one line for the game list
    summary: str  # a concise rules summary for /game rules (under 3500 characters)
    options: tuple[Option, ...] = ()
    # The rules revision: raise it whenever a change makes a game stored before it replay from its seed and log to
    # a different state (a rule, the shape of a legal action, the state's layout). The platform stores each game's
    # revision when it opens and replays (``/game replay``, ``/game log``, ``db copy``'s check) only games of the
    # engine's current one; a stored game of an earlier revision still carries on from its stored state.
    revision: int = 1

    def check_players(self, count: int) -> None:
        """Every engine's setup starts here: the seat count must fit the game."""
        if not self.min_players <= count <= self.max_players:
            raise RuleError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {count}.")

    def option(self, key: str) -> Option:
        """The option called ``key`` (RuleError if the game has none)."""
        for opt in self.options:
            if opt.key == key:
                return opt
        raise RuleError(f"{self.name} has no option '{key}'.")

    def resolve_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every given value validated."""
        values = {opt.key: opt.default for opt in self.options}
        for key, value in (raw or {}).items():
            values[key] = self.option(key).parse(value)
        return values


if TYPE_CHECKING:  # (a TypeVar's default is for the type checker: an engine that names no view type gives dicts)
    ViewT = TypeVar("ViewT", default=dict[str, Any])
else:
    ViewT = TypeVar("ViewT")


class Engine(Generic[ViewT]):
    """Base class for game engines. Subclasses implement the ``_``-free hooks below.

    ``ViewT`` is the type ``view`` returns (a game's TypedDict of its view; plain dicts if it names none)."""

    meta: GameMeta

    # --- to implement -----------------------------------------------------------
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game for ``len(names)`` seats. ``options`` are already resolved."""
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        """Seats that may act now (several for a simultaneous choice); [] when over."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order; [] if none."""
        raise NotImplementedError

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Carry out an action already known to be legal; mutate ``state``."""
        raise NotImplementedError

    def view(self, state: State, viewer: int | None) -> ViewT:
        """What ``viewer`` may see (None = the public). Must be JSON-able.

        A seat's view carries its secrets under ``"private"`` (the platform DMs the
        seat when that part changes); the public view has no ``"private"`` key.
        """
        raise NotImplementedError

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over (then ``scores`` gives the result)."""
        raise NotImplementedError

    def scores(self, state: State) -> list[dict[str, Any]]:
        """Final result per seat: ``{"seat", "score", "rank", "won", "detail"}``."""
        raise NotImplementedError

    def describe_action(self, state: State, seat: int, action: Action) -> str:
        """A short label (at most 80 characters) for a button or select option."""
        raise NotImplementedError

    def private_text(self, view: dict[str, Any]) -> str:
        """Markdown for a seat's private view (its hand, secrets), for DM and /game hand."""
        raise NotImplementedError

    # --- optional hooks with sensible defaults --------------------------------
    def action_group(self, state: State, seat: int, action: Action) -> str:
        """Groups actions in the panel (one select menu per group)."""
        return action.get("type", "Moves").replace("_", " ").capitalize()

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot player's choice; ``rng`` is the bot's own, never the game's."""
        return rng.choice(self.legal_actions(state, seat))

    def timeout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """What happens when a seat's deadline passes: by default the bot plays it."""
        return self.bot_action(state, seat, rng)

    def turn_seats(self, state: State) -> list[int]:
        """Whose turn it is, for deciding when a turn passes (see :mod:`bot.turns`): by
        default the seats in ``to_act``. A game whose short windows let others act within
        one player's turn (e.g. "anyone may interrupt this roll") returns that player."""
        return self.to_act(state)

    def window_seconds(self, state: State, options: dict[str, Any]) -> int | None:
        """For a short real-time window (e.g. "anyone may interrupt this roll"):
        how many seconds the seats in ``to_act`` get before ``timeout_action``
        plays for them. None (the default) means the table's turn timer applies."""
        return None

    def status_line(self, state: State) -> str:
        """One public line: whose turn, what is being decided."""
        if self.is_terminal(state):
            return "Game over."
        names = state.get("names", [])
        waiting = [names[s] if s < len(names) else f"Seat {s + 1}" for s in self.to_act(state)]
        return "Waiting for " + ", ".join(waiting) if waiting else ""

    def balance_tally(self, state: State, trace: list[dict[str, Any]]) -> dict[str, Any]:
        """Facts about one finished game for the balance report (``python -m tools.balance``).

        ``trace`` has one entry per decision taken: ``{"seat", "action", "options"
        (how many legal actions there were), "acting" (how many seats could act)}``.
        Return any of these keys (all optional):

        - ``"end"``: how the game ended, a short label ("round limit", "vault opened").
        - ``"roles"``: each seat's role, for win share by role (e.g. "wizard", "hero").
        - ``"available"``: names of cards/secrets/mechanics some seat could have used this game.
        - ``"used"``: the names among those that were used at least once.
        - ``"goals"``: each secret goal dealt this game -> whether it was met.
        """
        return {}

    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> State | None:
        """For the search bot (:mod:`bot.search`): a full state consistent with ``view``,
        ``seat``'s own view -- what that seat cannot see dealt at random with ``rng``,
        the state's RNG reseeded from ``rng`` -- built from the view alone, never from
        the true state. None (the default) means the game, or this moment of it, cannot
        be searched: a hard bot then plays like a normal one.

        A game provides it as ``sample_state(engine, view, seat, rng)`` in its own
        ``sampler`` module next to the engine (``bot/games/<key>/sampler.py``)."""
        sample = self.sampler_function("sample_state")
        return None if sample is None else sample(self, view, seat, rng)

    def sampler_function(self, name: str) -> Any:
        """The function ``name`` of the game's ``sampler`` module next to the engine (the search bot's hooks:
        ``sample_state``, ``evaluate``, ``alike``), or None if the game has no such module or function."""
        return self.package_attr("sampler", name)

    def package_attr(self, module: str, name: str) -> Any:
        """``name`` from the module ``module`` of the game's package (next to the engine), or None if the game
        has no such module or name."""
        module_name = type(self).__module__.rpartition(".")[0] + "." + module
        try:
            found = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            return None
        return getattr(found, name, None)

    # --- teaching a newcomer: the game's own ``teach`` module (see bot/teach.py) --------------
    def how_to_play(self) -> HowToPlay | None:
        """The goal, winning, a turn and reading the board, in a few lines (None: the game has none yet)."""
        return self.package_attr("teach", "HOW_TO_PLAY")

    def glossary(self) -> dict[str, str]:
        """Every term of the game's own jargon, each explained in one plain sentence."""
        return dict(self.package_attr("teach", "GLOSSARY") or {})

    def action_help(self, state: State, seat: int, legal: list[Action]) -> dict[str, str]:
        """``{action type: one plain line}`` for every kind of option in ``legal`` (what it does, what it costs,
        what it can win, a preview where a number decides), for the move panel's "?"."""
        helper = self.package_attr("teach", "action_help")
        return {} if helper is None else dict(helper(state, seat, legal))

    def tutorial(self) -> Tutorial | None:
        """The game's interactive tutorial (None: the game has none yet)."""
        make = self.package_attr("teach", "tutorial")
        return None if make is None else make()

    def rating_sides(self, players: int) -> list[list[int]] | None:
        """For the skill ratings (:mod:`bot.ratings`): the seats that win or lose together, side by side, at a
        table of ``players``. Told by the seat count alone, since a finished game is rated again from its stored
        results. None (the default): every seat for itself, ranked by its final standing."""
        return None

    def remove_seat(self, state: State, seat: int) -> list[Event] | None:
        """A player left. Return events if the game can go on without any change
        (the platform then hands the seat to the bot), or None to end the game."""
        return []

    # --- the shared contract -----------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Validate and apply one action. Raises RuleError and leaves ``state``
        untouched when the move is not allowed.

        The action must be *exactly* one of ``legal_actions``: same keys, and values of
        the same JSON type (``True``, ``2.0``, ``"2"`` or ``[2]`` are not ``2``), so
        ``_apply`` only ever sees a move it offered itself."""
        if self.is_terminal(state):
            raise RuleError("This game is over.")
        if type(seat) is not int or seat not in self.to_act(state):
            raise RuleError(self.not_your_turn_message(state, seat))
        wanted = exact_form(action)
        legal = self.legal_actions(state, seat)
        # ``==`` first (cheap), then the exact form of the few legal actions it matched
        if (type(action) is not dict or wanted is NOT_JSON
                or not any(a == action and exact_form(a) == wanted for a in legal)):
            raise RuleError(self._explain_illegal(state, seat, action, legal))
        return self._apply(state, seat, action)

    def _explain_illegal(self, state: State, seat: int, action: Any, legal: list[Action]) -> str:
        """The game's own explanation, unless the action is malformed (not a plain JSON
        dict), a look-alike of a legal move (``2.0`` for ``2``: the game's explanation
        would then be about a move it allows, and the plain refusal is given) or holds a
        number no move has (infinite, NaN, huge: :func:`numbers_in_range`)."""
        generic = Engine.illegal_message(self, state, seat, action)
        if type(action) is not dict or exact_form(action) is NOT_JSON or action in legal:
            return generic
        if not numbers_in_range(action):  # (one check for every game: no explanation meets such a number)
            return OUT_OF_RANGE
        try:
            return self.illegal_message(state, seat, action) or generic
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError):
            return generic  # a value the explanation did not expect: the move is refused all the same

    def not_your_turn_message(self, state: State, seat: int) -> str:
        """What a player who acts out of turn is told: whose turn it is."""
        line = self.status_line(state)
        return "It's not your turn." + (f" {line}." if line and not line.endswith(".") else f" {line}" if line else "")

    def illegal_message(self, state: State, seat: int, action: Action) -> str:
        """Why ``action`` is refused, in a sentence a player can read (games say more than this default)."""
        return "That move isn't allowed right now."
