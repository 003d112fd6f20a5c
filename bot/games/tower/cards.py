"""Card and tile data for The Wizard's Tower (loaded once at import) and the pure
scoring rules. Cards are referred to by their integer ``id`` (index in CARDS)."""
from __future__ import annotations

import functools
import json
from typing import Any, Iterable, Mapping

from bot.engine import competition_ranks
from bot.paths import DATA_DIR

_DATA = json.loads((DATA_DIR / "tower" / "cards.json").read_text("utf-8"))

SUITS: list[str] = _DATA["suits"]
CARDS: list[dict[str, Any]] = _DATA["cards"]
TILES: list[dict[str, Any]] = _DATA["tiles"]
TILE_BY_KEY = {t["key"]: t for t in TILES}
BY_NAME = {c["name"]: c["id"] for c in CARDS}
N_CARDS = len(CARDS)

LIGHT = [c["id"] for c in CARDS if c["deck"] == "light"]
DARK_PLAIN = [c["id"] for c in CARDS if c["deck"] == "dark" and c["set"] is None]
SET_A = [c["id"] for c in CARDS if c["set"] == "A"]
SET_B = [c["id"] for c in CARDS if c["set"] == "B"]
SAND = BY_NAME["Sand of Illusion"]
AMULET = BY_NAME["Amulet of Nae"]

# Tiles left out of a two-player game.
TWO_PLAYER_OUT = ("second", "last", "fewest_curses")

assert N_CARDS == 57 and len(LIGHT) == 17 and len(DARK_PLAIN) == 24 and len(SET_A) == 8 and len(SET_B) == 8
assert len(TILES) == 13


def card(cid: int) -> dict[str, Any]:
    """The printed card with id ``cid``."""
    return CARDS[cid]


def name(cid: int) -> str:
    """The name of card ``cid``."""
    return CARDS[cid]["name"]


def suit_words(card: Mapping[str, Any]) -> str:
    """A card's suits in words: "Jewel+Tome", "any suit" (Wild), "no suit"."""
    if "Wild" in card["suits"]:
        return "any suit"
    return "+".join(card["suits"]) or "no suit"


def curse_words(count: int) -> str:
    """"1 curse", "2 curses", "-2 curses"."""
    return f"{count} curse" + ("" if abs(count) == 1 else "s")


def brief(card: Mapping[str, Any]) -> str:
    """A card's suits, value, curses and prestige in brackets: "(Jewel+Tome 6, 1 curse)", "(any suit 2, 1 curse)",
    "(value 0, 1 curse, +2 prestige)" (no suit named: the card counts in no suit). ``card`` is a printed card or
    a view's card (same fields)."""
    values = "/".join(str(v) for v in card["values"]) or "0"
    head = f"{suit_words(card)} {values}" if card["suits"] else f"value {values}"
    extras = [curse_words(card["curses"])] if card["curses"] else []
    if card["prestige"]:
        extras.append(f"{card['prestige']:+d} prestige")
    return "(" + ", ".join([head, *extras]) + ")"


def named(cid: int) -> str:
    """A card's name with its brief: "Ruby Slippers (Jewel 4)"."""
    return f"{CARDS[cid]['name']} {brief(CARDS[cid])}"


def curse_free(cid: int) -> bool:
    """'Without a curse': no curse icon at all (Radiant Hamsa's -2 icon counts as a curse icon)."""
    return CARDS[cid]["curses"] == 0


def sand_target_ok(cid: int) -> bool:
    """A card Sand of Illusion may go under: one showing a 3, 4 or 5."""
    return cid != SAND and any(v in (3, 4, 5) for v in CARDS[cid]["values"])


def suit_contribution(cid: int) -> dict[str, int]:
    """What card ``cid`` adds to each suit's total (a Wild card counts in every suit)."""
    printed = CARDS[cid]
    if not printed["suits"] or not printed["values"]:
        return {}
    value = printed["values"][0]
    suits = SUITS if "Wild" in printed["suits"] else printed["suits"]
    return {s: value for s in suits}


def haul_stats(cards: Iterable[int], sand_target: int | None = None) -> dict[str, Any]:
    """Totals for one haul (all its cards, face-down ones included).

    ``sand_target``: the card Sand of Illusion lies under (counted twice for suits
    and numbers) when both Sand and that card are in ``cards``. A new dict each call (worked out once per haul)."""
    suits, numbers, raw_curses, prestige = _haul_totals(tuple(cards), sand_target)
    return {"suits": dict(zip(SUITS, suits)), "numbers": dict(zip(("3", "4", "5"), numbers)),
            "raw_curses": raw_curses, "curses": max(0, raw_curses), "card_prestige": prestige}


@functools.lru_cache(maxsize=1 << 14)
def _haul_totals(cards: tuple[int, ...], sand_target: int | None) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``haul_stats``'s figures as tuples (suits in SUITS order, numbers 3, 4, 5, raw curses, card prestige)."""
    suits = {s: 0 for s in SUITS}
    numbers = {"3": 0, "4": 0, "5": 0}
    counted = list(cards)
    if sand_target is not None and SAND in cards and sand_target in cards:
        counted.append(sand_target)  # the duplicate: suits and numbers only
    for cid in counted:
        for s, v in suit_contribution(cid).items():
            suits[s] += v
        for v in CARDS[cid]["values"]:
            if str(v) in numbers:
                numbers[str(v)] += 1
    raw_curses = sum(CARDS[cid]["curses"] for cid in cards)
    prestige = sum(CARDS[cid]["prestige"] for cid in cards)
    return tuple(suits.values()), tuple(numbers.values()), raw_curses, prestige


def tile_metric(tile: dict[str, Any], stats: dict[str, Any]) -> int:
    """The figure of ``stats`` that the scoring tile compares: curses, a suit's total or a number's count."""
    if tile["metric"] == "curses":
        return stats["curses"]
    if tile["metric"] == "suit":
        return stats["suits"][tile["key"]]
    return stats["numbers"][str(tile["number"])]


def tiles_in_play(players: int) -> list[dict[str, Any]]:
    """The scoring tiles used with ``players`` players (a 2-player game leaves some out)."""
    return [t for t in TILES if not (players == 2 and t["key"] in TWO_PLAYER_OUT)]


def award_tiles(stats: list[dict[str, Any]], exits: list[int]) -> list[dict[str, Any]]:
    """The scoring tiles awarded one by one (rulebook order). A tie for a tile awards it to nobody."""
    n = len(stats)
    awards = []
    for tile in tiles_in_play(n):
        entry = {"tile": tile["key"], "label": tile["label"], "prestige": tile["prestige"], "seat": None,
                 "values": None, "note": ""}
        if tile["kind"] == "exit":
            if tile["key"] == "first" and exits:
                entry["seat"] = exits[0]
            elif tile["key"] == "second" and len(exits) >= 2:
                entry["seat"] = exits[1]
            elif tile["key"] == "last" and len(exits) == n:
                entry["seat"] = exits[-1]
            entry["note"] = "exit order"
        else:
            values = [tile_metric(tile, st) for st in stats]
            entry["values"] = values
            best = max(values) if tile["kind"] == "most" else min(values)
            leaders = [s for s, v in enumerate(values) if v == best]
            if len(leaders) == 1:
                entry["seat"] = leaders[0]
                entry["note"] = f"{best}"
            else:
                entry["note"] = f"tie at {best}: not awarded"
        awards.append(entry)
    return awards


def final_scores(hauls: list[list[int]], sand_target: int | None, exits: list[int],
                 head_start: list[int] | None = None) -> dict[str, Any]:
    """Everything final scoring needs: per-seat stats, tile awards, scores and ranks.

    ``head_start``: prestige each seat has before any tile or card (the tuned two-player game's second player).
    Ranking: most prestige, then fewest curses, then most scoring tiles; a full tie shares the rank."""
    stats = [haul_stats(h, sand_target) for h in hauls]
    awards = award_tiles(stats, exits)
    n = len(hauls)
    tiles_won: list[list[str]] = [[] for _ in range(n)]
    tile_points = [0] * n
    for a in awards:
        if a["seat"] is not None:
            tiles_won[a["seat"]].append(a["tile"])
            tile_points[a["seat"]] += a["prestige"]
    start = list(head_start or [0] * n)
    totals = [tile_points[s] + stats[s]["card_prestige"] + start[s] for s in range(n)]
    keys = [(-totals[s], stats[s]["curses"], -len(tiles_won[s])) for s in range(n)]
    ranks = competition_ranks(keys)
    return {"stats": stats, "awards": awards, "tiles": tiles_won, "tile_points": tile_points,
            "head_start": start, "totals": totals, "ranks": ranks}


# The bot's fast path: the same figures as ``haul_stats`` + ``tile_metric``, as vectors, cached by haul.

# The tiles scored on a haul's figures (every tile but the exit ones), in TILES order.
SCORING_TILES: list[dict[str, Any]] = [t for t in TILES if t["kind"] != "exit"]


def _card_figures(cid: int, duplicate: bool = False) -> tuple[int, ...]:
    """What card ``cid`` adds to each scoring tile's figure (curses raw), then its prestige; a Sand
    of Illusion duplicate adds suits and numbers only."""
    printed = CARDS[cid]
    suits = suit_contribution(cid)
    out = []
    for tile in SCORING_TILES:
        if tile["metric"] == "curses":
            out.append(0 if duplicate else printed["curses"])
        elif tile["metric"] == "suit":
            out.append(suits.get(tile["key"], 0))
        else:
            out.append(printed["values"].count(tile["number"]))
    out.append(0 if duplicate else printed["prestige"])
    return tuple(out)


_CARD_FIGURES = [_card_figures(c["id"]) for c in CARDS]
_DUPLICATE_FIGURES = [_card_figures(c["id"], duplicate=True) for c in CARDS]
_CURSE_FIGURES = [i for i, t in enumerate(SCORING_TILES) if t["metric"] == "curses"]
_NO_FIGURES = (0,) * (len(SCORING_TILES) + 1)


@functools.lru_cache(maxsize=1 << 15)
def haul_figures(cards: tuple[int, ...], sand_target: int | None = None) -> tuple[tuple[int, ...], int]:
    """One haul's figure for every scoring tile (``SCORING_TILES`` order: ``tile_metric`` of its
    ``haul_stats``) and its cards' prestige; cached, for the bot that scores the same hauls again and again."""
    figures = [_CARD_FIGURES[c] for c in cards]
    if sand_target is not None and SAND in cards and sand_target in cards:
        figures.append(_DUPLICATE_FIGURES[sand_target])
    sums = [sum(column) for column in zip(*figures)] if figures else list(_NO_FIGURES)
    for i in _CURSE_FIGURES:
        sums[i] = max(0, sums[i])
    return tuple(sums[:-1]), sums[-1]
