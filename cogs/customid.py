"""The one encoder/parser for what the bot reads back from Discord: button and
select ``custom_id``s, select option values, and the ``version:index`` value of a
typed move. Parsing is strict (ASCII digits only, bounded lengths, known kinds),
so a damaged or forged id is refused with a sentence instead of a traceback.

Custom ids (at most 100 characters):
  ``hc:<kind>:<game>`` for join, leave, bot, start, play, hand, end, cancel, dm, help (a panel's "?");
  ``hc:act:<game>:<version>:<index>`` (a move button) and
  ``hc:sel:<game>:<version>:<menu>`` (a select menu whose option values are move indexes);
  ``hc:<kind>:<game key>`` for howto, rules (the full rules doc) and learn (start the tutorial), which need
  a game but no table;
  a tutorial run's buttons, numbered by the run: ``hc:thelp:<run>``, ``hc:tagain:<run>``, ``hc:tquit:<run>``,
  and with the step they were drawn for, ``hc:tact:<run>:<step>:<index>``, ``hc:tsel:<run>:<step>:<menu>``,
  ``hc:tnext:<run>:<step>:0``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bot.tables import TableError
from cogs.limits import CUSTOM_ID

PREFIX = "hc:"
SIMPLE = frozenset({"join", "leave", "bot", "start", "play", "hand", "end", "cancel", "dm", "help",
                    "thelp", "tagain", "tquit"})
WITH_MOVE = frozenset({"act", "sel", "tact", "tsel", "tnext"})
KEYED = frozenset({"howto", "rules", "learn"})
MAX_ID = 2**63 - 1  # SQLite's INTEGER
MAX_VERSION = 10**9
MAX_INDEX = 10**4

_NUMBER = r"(0|[1-9][0-9]{0,18})"
_PATTERN = re.compile(rf"hc:(?P<kind>[a-z]{{1,10}}):(?P<game>{_NUMBER})(?::(?P<version>{_NUMBER}):(?P<n>{_NUMBER}))?")
_KEYED = re.compile(r"hc:(?P<kind>[a-z]{1,10}):(?P<key>[a-z][a-z0-9_]{0,31})")
_MOVE = re.compile(rf"(?P<version>{_NUMBER}):(?P<index>{_NUMBER})")
_INDEX = re.compile(_NUMBER)

DAMAGED = ("That button is from an older version of the bot, or its message was damaged."
           " Open a fresh panel with **Play** or `/game play`.")


class BadInputError(TableError):
    """A custom id, select value or typed move that the bot didn't make."""


@dataclass(frozen=True)
class CustomId:
    """A parsed custom id: its kind, game (or tutorial run) and, for a move, the state version (or tutorial step)
    and the move or menu number; for a kind that names a game rather than a table, the game's key."""
    kind: str
    game_id: int
    version: int | None = None
    n: int | None = None
    key: str = ""


NOT_A_MOVE = "That isn't one of your moves right now. Pick one from the list as you type."


def _bounded(text: str, high: int, message: str = DAMAGED) -> int:
    value = int(text)  # the patterns admit ASCII digits only, at most 19 of them
    if value > high:
        raise BadInputError(message)
    return value


def encode(kind: str, game_id: int, version: int | None = None, n: int | None = None) -> str:
    """The custom id of a button or select (ValueError for an unknown kind or a too long id)."""
    if kind in WITH_MOVE:
        if version is None or n is None:
            raise ValueError(f"custom id kind {kind!r} needs a version and a number")
        text = f"{PREFIX}{kind}:{int(game_id)}:{int(version)}:{int(n)}"
    elif kind in SIMPLE and version is None and n is None:
        text = f"{PREFIX}{kind}:{int(game_id)}"
    else:
        raise ValueError(f"unknown custom id kind {kind!r}")
    if len(text) > CUSTOM_ID:
        raise ValueError(f"custom id {text[:20]}... is longer than {CUSTOM_ID} characters")
    return text


def encode_key(kind: str, key: str) -> str:
    """The custom id of a button about a game rather than a table (``howto``, ``rules``, ``learn``)."""
    text = f"{PREFIX}{kind}:{key}"
    if kind not in KEYED or _KEYED.fullmatch(text) is None:
        raise ValueError(f"no custom id of kind {kind!r} for the game {key!r}")
    return text


def parse(custom_id: str) -> CustomId:
    """The parts of one of our custom ids, or :class:`BadInputError`."""
    keyed = _KEYED.fullmatch(custom_id or "") if len(custom_id or "") <= CUSTOM_ID else None
    if keyed is not None:
        if keyed["kind"] not in KEYED:
            raise BadInputError(DAMAGED)
        return CustomId(keyed["kind"], 0, key=keyed["key"])
    match = _PATTERN.fullmatch(custom_id or "") if len(custom_id or "") <= CUSTOM_ID else None
    if match is None:
        raise BadInputError(DAMAGED)
    kind = match["kind"]
    has_move = match["version"] is not None
    if not ((kind in WITH_MOVE and has_move) or (kind in SIMPLE and not has_move)):
        raise BadInputError(DAMAGED)
    game_id = _bounded(match["game"], MAX_ID)
    if not has_move:
        return CustomId(kind, game_id)
    return CustomId(kind, game_id, _bounded(match["version"], MAX_VERSION), _bounded(match["n"], MAX_INDEX))


def kind_of(custom_id: str) -> str | None:
    """The kind (``"play"``, ``"act"``, ...) of one of our custom ids, or None for any other id."""
    try:
        return parse(custom_id).kind
    except BadInputError:
        return None


def encode_index(index: int) -> str:
    """A select option's value for the move ``index``."""
    return str(int(index))


def parse_index(value: str) -> int:
    """A select option value (a move index)."""
    if not isinstance(value, str) or _INDEX.fullmatch(value) is None:
        raise BadInputError(DAMAGED)
    return _bounded(value, MAX_INDEX)


def encode_move(version: int, index: int) -> str:
    """The value of a typed-move autocomplete choice."""
    return f"{int(version)}:{int(index)}"


def parse_move(text: str) -> tuple[int, int] | None:
    """``(version, index)`` if ``text`` is an autocomplete value, else None (it is then a label to match)."""
    match = _MOVE.fullmatch(text.strip()) if len(text) <= 40 else None
    if match is None:
        return None
    return _bounded(match["version"], MAX_VERSION, NOT_A_MOVE), _bounded(match["index"], MAX_INDEX, NOT_A_MOVE)
