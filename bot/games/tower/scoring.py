"""The end of the game: secret cards revealed, the scoring tiles awarded, totals and ranks."""
from __future__ import annotations

from typing import Any

from bot.engine import Event, State

from . import cards
from .board import player_name
from .cards import name


def final(state: State) -> dict[str, Any]:
    """The final scoring of every haul, face-down cards included (see ``cards.final_scores``)."""
    hauls = [list(state["hauls"][seat]) + ([state["secret"][seat]] if state["secret"][seat] is not None else [])
             for seat in range(state["n"])]
    return cards.final_scores(hauls, state["sand_target"], state["exits"])


def winners(state: State, result: dict[str, Any]) -> list[int]:
    """The seats ranked first (several on a full tie)."""
    return [seat for seat in range(state["n"]) if result["ranks"][seat] == 1]


def finish(state: State, events: list[Event]) -> None:
    """Every thief is out: reveal the secret cards, award the tiles and announce the winners."""
    state["phase"] = "over"
    state["queue"] = []
    for seat in range(state["n"]):
        if state["secret"][seat] is not None:
            events.append({"type": "reveal", "text": f"{player_name(state, seat)} reveals their face-down card: "
                                                     f"**{name(state['secret'][seat])}**."})
    result = final(state)
    for award in result["awards"]:
        who = player_name(state, award["seat"]) if award["seat"] is not None else "nobody (tie)"
        if award["seat"] is None and award["tile"] in ("first", "second", "last"):
            continue
        events.append({"type": "tile", "text": f"{award['label']} ({award['prestige']:+d}): {who}"
                                               + (f" [{award['note']}]" if award["values"] is not None else "")})
    best = winners(state, result)
    names = " and ".join(player_name(state, seat) for seat in best)
    events.append({"type": "end", "text": f"Game over! {names} win{'s' if len(best) == 1 else ''} with "
                                          f"{result['totals'][best[0]]} prestige."})


def scores(state: State) -> list[dict[str, Any]]:
    """Each player's total prestige (cards and scoring tiles), ranked, with the tiles in the detail."""
    result = final(state)
    out = []
    for seat in range(state["n"]):
        tiles = [cards.TILE_BY_KEY[key] for key in result["tiles"][seat]]
        tile_txt = ", ".join(f"{t['label']} {t['prestige']:+d}" for t in tiles) or "no tiles"
        card_prestige = result["stats"][seat]["card_prestige"]
        detail = f"{tile_txt}; cards {card_prestige:+d}; curses {result['stats'][seat]['curses']}"
        out.append({"seat": seat, "score": result["totals"][seat], "rank": result["ranks"][seat],
                    "won": result["ranks"][seat] == 1, "detail": detail})
    return out
