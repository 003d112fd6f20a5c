"""Wizard's Rage: one wizard (seat 0) against 2-4 heroes (seats 1..4).

This module is the face of the game: ``RageEngine`` keeps the engine contract and hands each concern to
its own module of plain functions over the JSON state, and the phases are a table of handlers (``PHASES``):

  constants.py   numbers of the rules, the empty tile
  board.py       grid geometry and shared lookups (tiles, tokens, cards, heroes), damage, the wizard's win
  loot.py        loot, keys and dropped items reaching the heroes
  opening.py     a new game (``new_state``) and the opening phases (tower, door, keys, opening hand)
  wizard.py      the wizard's turn (rage, draws, cards, spells), ending with the heroes' phase starting
  heroes.py      the heroes' turn (moves to commit, items, gifts)
  resolution.py  resolving the committed moves (flips, traps, combat, end of round)
  views.py       what each seat may see
  texts.py       rules summary, status line, descriptions, refusals

Imports run one way: heroes -> resolution -> wizard -> views, texts, loot -> board (no module imports one above it).

State layout (plain JSON):
  tiles[i]      one dict per grid square i = row * size + col (see constants.new_tile)
  tokens        {"<id>": {"kind": monster|trap|blank, "up": bool, "card": key, "level": int, "count": int}}
                (a monster token is the card's whole gang: ``count`` monsters of ``level``, ``damage`` each)
  wcards/lcards card id -> card key, for the wizard deck and the loot deck
  wizard        deck / hand / discard (wizard card ids), mana (the wheel), spent (this turn)
  loot          deck / discard (loot card ids)
  heroes[seat]  None for the wizard seat; else pos, hp, alive, hand, equip, keys, ...
  commits       {"<seat>": action} hidden simultaneous hero moves
  pending       the wizard's open multi-step decision (placing tokens, spell target, rage)
"""
from __future__ import annotations

import random
from typing import Any

from bot.engine import RULES_OPTION, Engine, GameMeta, Option, Phase, PhaseTable

from . import board, cards, opening, texts, views
from . import heroes as hero_turn
from . import wizard as wizard_turn
from .constants import (
    AMBUSH_LEVEL,
    AUTO_ROUNDS,
    DIR_NAMES,
    DIRS,
    FREE_LIMIT,
    GRID,
    HERO_HP,
    SCOUT_RANGE,
    SPRINT_STEPS,
    START_MANA_BONUS,
    TRAP_DAMAGE,
    TRAP_SAVE,
    new_tile,
)
from .heroes import HERO_FREE_ACTIONS
from .texts import SUMMARY
from .viewtypes import RageView
from .wizard import WIZARD_ACTIONS

__all__ = ["AMBUSH_LEVEL", "AUTO_ROUNDS", "DIRS", "DIR_NAMES", "FREE_LIMIT", "GRID", "ENGINE", "HERO_HP", "PHASES",
           "RageEngine", "SCOUT_RANGE", "SPRINT_STEPS", "START_MANA_BONUS", "SUMMARY", "TRAP_DAMAGE", "TRAP_SAVE",
           "new_tile"]


PHASES = PhaseTable({
    "tower": Phase(opening._tower_options, {"tower": opening._apply_tower}),
    "entrance": Phase(opening._entrance_options, {"entrance": opening._apply_entrance}),
    "keys": Phase(opening._key_options, {"hide_key": opening._apply_hide_key}),
    "keep": Phase(opening._keep_phase_options, {"keep": opening._apply_keep}),
    "wizard": Phase(wizard_turn._wizard_phase_options, dict.fromkeys(WIZARD_ACTIONS, wizard_turn._apply_wizard_phase)),
    "heroes": Phase(hero_turn._hero_actions, dict.fromkeys(("move", "stay", "sprint", "march", "go", "back",
                                                            *HERO_FREE_ACTIONS), hero_turn._apply_hero)),
})


class RageEngine(Engine[RageView]):
    """Wizard's Rage: one wizard against 2-4 heroes racing to find three keys and storm the tower."""
    meta = GameMeta(
        key="rage",
        name="Wizard's Rage",
        min_players=3,
        max_players=5,
        blurb="One wizard against 2-4 heroes: find three keys, storm the tower before the world crumbles.",
        summary=SUMMARY,
        revision=2,  # 2: the rules option (tuned or rulebook), teaching, this session's rule changes
        options=(
            RULES_OPTION,
            Option("lone_hero", "Last-hero boost", False,
                   "When only one hero is alive, that hero rolls two d20 in combat and adds them (playtest suggestion)."),
            Option("round_limit", "Round limit (0 = automatic: 16 rounds at 3-4 players, 15 at 5; rulebook 30)", 0,
                   "After this many rounds the world collapses and the wizard wins (0 = automatic: 16 / 16 / 15 "
                   "rounds for 3 / 4 / 5 players; 30 with rules: rulebook, where it only stops a stalled table).",
                   minimum=0, maximum=60),
        ),
    )

    # ------------------------------------------------------------------ contract
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict:
        """A new game: the grid of face-down rooms, heroes in the corners, both decks shuffled, the wizard to set up."""
        self.meta.check_players(len(names))
        return opening.new_state(names, self.meta.resolve_options(options), seed)

    def to_act(self, state: dict) -> list[int]:
        """The wizard alone, except in the heroes' phase: every living hero who hasn't committed a move yet."""
        return board.seats_to_act(state)

    def is_terminal(self, state: dict) -> bool:
        """Over once the heroes take the tower, every hero has fallen, or the round limit collapses the world."""
        return state["phase"] == "over"

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        """The current phase's actions for ``seat`` (none when it isn't theirs to act)."""
        if seat not in self.to_act(state):
            return []
        return PHASES.legal_actions(state, seat)

    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        events = PHASES.apply(state, seat, action)
        events.extend(_wizard_autoplay(state))
        public = [e["text"] for e in events if "to" not in e]
        if public:  # what just happened, for the board and its description
            state["recent"] = [t if len(t) <= 240 else t[:239] + "…" for t in public[-4:]]
        return events

    def rating_sides(self, players: int) -> list[list[int]]:
        """The wizard (seat 0) against the heroes as one side."""
        return [[0], list(range(1, players))]

    def scores(self, state: dict) -> list[dict]:
        """A team game: the winning side's seats score 1 and rank first, the other side 0."""
        winner = state["winner"]
        out = []
        for s in range(state["n"]):
            if s == 0:
                won = winner == "wizard"
                detail = f"Wizard - Mana Wheel {state['wizard']['mana']}"
            else:
                hero = state["heroes"][s]
                won = winner == "heroes"
                detail = f"Hero - {'alive, ' + str(hero['hp']) + ' HP' if hero['alive'] else 'fallen'}"
            out.append({"seat": s, "score": 1 if won else 0, "rank": 1 if won else 2, "won": won, "detail": detail})
        return out

    # ------------------------------------------------------------------ balance report
    def balance_tally(self, state: dict, trace: list[dict]) -> dict:
        """Roles, how the game ended, and which cards and mechanics were available / used.
        A card is available once it reached a hand; Wizard's Rage has no secret goals."""
        held = state.get("held", {"w": [], "l": []})
        available = {cards.WIZARD_DEFS[k]["name"] for k in held["w"]}
        available |= {cards.LOOT_DEFS[k]["name"] for k in held["l"] if cards.LOOT_DEFS[k]["kind"] == "consumable"}
        if not board.rulebook(state):
            available.add("quick march")
        if board.scout_range(state):
            available.add("scouting")
        if state["keys_found"]:
            available.add("rage")
        if state["n"] > 2:
            available.add("give")
        used: set[str] = set()
        for step in trace:
            a = step["action"]
            typ = a.get("type")
            if typ == "play":
                used.add(cards.WIZARD_DEFS[state["wcards"][a["card"]]]["name"])
            elif typ in ("use", "banish", "sprint"):
                used.add(cards.LOOT_DEFS[state["lcards"][a["card"]]]["name"])
            if typ == "march":
                used.add("quick march")
            elif typ == "remove":
                used.add("rage")
            elif typ in ("give", "give_key"):
                used.add("give")
        if state.get("scouted"):
            used.add("scouting")
        used |= {cards.WIZARD_DEFS[k]["name"] for k in state.get("acted", [])}  # instants act when drawn
        return {"end": state.get("end") or "unfinished", "roles": ["wizard"] + ["hero"] * (state["n"] - 1),
                "available": sorted(available), "used": sorted(used & available), "goals": {}}

    # ------------------------------------------------------------------ views and words
    def view(self, state: dict, viewer: int | None) -> RageView:
        """The public board (``viewer`` None), plus ``private`` for a seat."""
        return views.view(state, viewer)

    def status_line(self, state: dict) -> str:
        """One public line: the round, whose move, what is being decided."""
        return texts.status_line(state)

    def describe_action(self, state: dict, seat: int, action: dict) -> str:
        """A move in words for the move list and the log."""
        return texts.describe_action(state, seat, action)

    def action_group(self, state: dict, seat: int, action: dict) -> str:
        """The heading a move is listed under in the move panel."""
        return texts.action_group(state, seat, action)

    def illegal_message(self, state: dict, seat: int, action: dict) -> str:
        """Why a move is refused, in a sentence the player can read."""
        return texts.illegal_message(state, seat, action)

    def private_text(self, view: dict[str, Any]) -> str:
        """Markdown for a seat's DM: the wizard's hand and hidden keys, or a hero's cards."""
        return texts.private_text(view)

    # ------------------------------------------------------------------ bot
    def bot_action(self, state: dict, seat: int, rng: random.Random) -> dict:
        """The wizard's or a hero's bot move, from that seat's view only."""
        from .bot_player import choose
        return choose(self, state, seat, rng)


ENGINE = RageEngine()


def _wizard_autoplay(state: dict) -> list[dict]:
    """Decisions the wizard doesn't have to make: a spell with one possible target is cast on it, and
    a turn with nothing left to play or discard ends by itself (no empty decision for the wizard)."""
    events: list[dict] = []
    pending = state["pending"]
    if state["phase"] == "wizard" and pending and pending["kind"] == "target" and len(wizard_turn._wizard_actions(state)) == 1:
        events.extend(wizard_turn._apply_wizard(state, wizard_turn._wizard_actions(state)[0]))
    if state["phase"] == "wizard" and not state["pending"] and \
            wizard_turn._wizard_actions(state) == [{"type": "end_turn"}]:
        events.append(board._event("end", "The wizard ends the turn. Heroes, commit your moves!"))
        events.extend(wizard_turn._start_hero_phase(state))
    return events
