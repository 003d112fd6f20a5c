"""The end of the game: secret cards revealed, the scoring tiles awarded, totals and ranks."""
from __future__ import annotations

from typing import Any

from bot.engine import Event, State

from . import cards
from .board import player_name
from .cards import brief, name


def final(state: State) -> dict[str, Any]:
    """The final scoring of every haul, face-down cards included (see ``cards.final_scores``)."""
    hauls = [list(state["hauls"][seat]) + ([state["secret"][seat]] if state["secret"][seat] is not None else [])
             for seat in range(state["n"])]
    return cards.final_scores(hauls, state["sand_target"], state["exits"], head_start(state))


def head_start(state: State) -> list[int]:
    """Each seat's prestige before any tile or card (a game stored before the head start existed has none)."""
    return list(state.get("head_start") or [0] * state["n"])


def winners(state: State, result: dict[str, Any]) -> list[int]:
    """The seats ranked first (several on a full tie)."""
    return [seat for seat in range(state["n"]) if result["ranks"][seat] == 1]


def finish(state: State, events: list[Event]) -> None:
    """Every thief is out: reveal the secret cards, award the tiles and announce the winners."""
    state["phase"] = "over"
    state["queue"] = []
    for seat in range(state["n"]):
        if state["secret"][seat] is not None:
            secret = state["secret"][seat]
            events.append({"type": "reveal", "text": f"{player_name(state, seat)} reveals their face-down card: "
                                                     f"**{name(secret)}** {brief(cards.CARDS[secret])}."})
    result = final(state)
    for award in result["awards"]:
        if award["seat"] is None and award["tile"] in ("first", "second", "last"):
            continue
        text = f"{award['label']} ({award['prestige']:+d} prestige): "
        if award["values"] is None:
            text += player_name(state, award["seat"])
        elif award["seat"] is None:
            text += f"nobody, a tie at {max(award['values']) if award['tile'] != 'fewest_curses' else min(award['values'])}"
        else:
            text += f"{player_name(state, award['seat'])} with {award['values'][award['seat']]}"
        events.append({"type": "tile", "text": text})
    for seat, bonus in enumerate(result["head_start"]):
        if bonus:
            events.append({"type": "tile", "text": f"Head start for playing second ({bonus:+d} prestige): "
                                                   f"{player_name(state, seat)}"})
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
        start = result["head_start"][seat]
        detail = (f"{tile_txt}; cards {card_prestige:+d}" + (f"; head start {start:+d}" if start else "")
                  + f"; curses {result['stats'][seat]['curses']}")
        out.append({"seat": seat, "score": result["totals"][seat], "rank": result["ranks"][seat],
                    "won": result["ranks"][seat] == 1, "detail": detail})
    return out
