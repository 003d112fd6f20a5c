"""HEIST: words for players (the rules summary, the status line, a seat's DM, move labels, refusals)."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import Action, State

from . import cards, rules
from .board import ROUNDS, skill, to_act, total
from .cards import OBSTACLE, RESOURCE, SKILL_NAME
from .rules import RuleSet
from .viewtypes import HeistView


def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _runs(counts: list[int]) -> str:
    """Player counts as ranges: [1, 2] -> "1-2", [3] -> "3"."""
    return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])


def job_length_text(rule_set: RuleSet) -> str:
    """How many obstacles each job stacks, by player count ("3 obstacles at 1-2 players, 5 at 3, ...")."""
    full = len(cards.JOBS[0]["obstacles"])
    groups: list[tuple[int, list[int]]] = []
    for players in range(1, len(rule_set.job_length)):
        length = rule_set.job_length[players]
        if groups and groups[-1][0] == length:
            groups[-1][1].append(players)
        else:
            groups.append((length, [players]))
    if len(groups) == 1:
        return f"{'all ' if groups[0][0] == full else ''}{groups[0][0]} obstacles at every player count"
    parts = []
    for index, (length, counts) in enumerate(groups):
        amount = f"all {length}" if length == full else str(length)
        parts.append(f"{amount} obstacles at {_runs(counts)} players" if index == 0 else f"{amount} at {_runs(counts)}")
    return _and(parts)


def head_start_text(rule_set: RuleSet) -> str:
    """Which player counts give the start player a head start ("at 5 and 6 players the start player ...")."""
    by_amount: dict[int, list[int]] = {}
    for players in range(1, len(rule_set.head_start)):
        if rule_set.head_start[players]:
            by_amount.setdefault(rule_set.head_start[players], []).append(players)
    if not by_amount:
        return "no head start"
    return "; ".join(f"at {_and([str(n) for n in counts])} players the start player gets a {amount}-cheese head start"
                     for amount, counts in by_amount.items())


def start_ties_text(rule_set: RuleSet) -> str:
    """Where the start player wins a tie on cheese ("at 3 players the start player wins ties on cheese")."""
    counts = [str(n) for n in range(1, len(rule_set.start_wins_ties)) if rule_set.start_wins_ties[n]]
    if not counts:
        return "no tie-break for the start player"
    return f"at {_and(counts)} players the start player wins ties on cheese"


def round_order_text(rule_set: RuleSet) -> str:
    """Who opens each round."""
    if rule_set.start_moves_left:
        return "each round is opened by the player left of the previous round's first player"
    return "the start player opens every round"


def printed_secrets_text(rule_set: RuleSet) -> str:
    """The secrets a rule set reads as printed, e.g. "Master Thief, Silver Tongue and Safecracker let ties count"."""
    tied = [cards.SECRET[key]["name"] for key, change in rule_set.secret_overrides.items() if change.get("ties")]
    return f"{_and(tied)} let ties count at 2 players" if tied else "the secrets as in tuned"


def summary() -> str:
    """The rules summary for /game rules, made from the card data and the two rule sets' numbers."""
    tuned, printed = rules.TUNED, rules.RULEBOOK
    faces = ", ".join(cards.faces_label(colour) for colour in cards.COLOURS)
    return f"""**HEIST**: 1-6 thieves pull jobs together, but only one gets the biggest take. **The most cheese wins**; \
the game ends after round {ROUNDS} (or when every job is empty).
**Setup**: each player gets an identity (skills Agility, Charm, Dexterity), a hidden secret goal and \
{cards.HAND_SIZE} resource cards (assists and tricks). Four jobs (A-D) stack their obstacles in number order: \
{job_length_text(tuned)}; the last one in play is the job's **finale**, which is Mandatory. \
Only the top obstacle of each job can be faced.
**Your turn**
1. **Choose** the top obstacle of a job (one that says "or": pick which skill you test). Your pawn moves there. \
Your skill = identity + upgrade cards (several skills listed: add them).
2. **Get help**: every other player secretly commits one assist card or nothing; all are revealed together. \
A helper whose pawn is at another job also discards one card to walk over. Assist effects on the bag happen now.
3. **Draw {cards.DRAW_TOKENS} tokens** from the bag; each lands on a random face ({faces}).
4. **Tricks**: only you play tricks from your hand (flip, redraw, ignore a token, +2...). Then **Resolve**.
5. total = skill + assists + tokens + tricks. **Success** if total >= target: the obstacle and its cheese go to \
your score pile, its success effect applies, assists with cheese go to their owners' score piles and assists with \
an upgrade go on their owners' identities. **Failure**: the failure effect applies, the obstacle goes back to the \
box unless it is **Mandatory** (then it stays for the next thief), assists are discarded, played tricks with \
cheese go to your score pile, and you may put one trick (played or from your hand) on your identity for +1 skill.
6. Refill your hand to {cards.HAND_SIZE}.
**Round end**: the heat track's tokens for this round go into the bag and all drawn tokens return to it; \
{round_order_text(tuned)}.
**Scoring**: cheese on the obstacles, assists and tricks in your score pile; +1 per obstacle in your pile from a \
completed job (its finale overcome); your secret's cheese if met (bag secrets use the final bag). A tie on cheese \
goes to the most obstacles, then is shared ({start_ties_text(tuned)}). {head_start_text(tuned).capitalize()}. \
Secret thresholds depend on the player count \
(your secret shows this game's numbers).
**Solo**: no assists; reach {cards.SOLO_TARGET} cheese to pull off the heist \
(rating: {", ".join(f"{floor} {name}" for floor, name in cards.SOLO_RATINGS)}).
**Rules: rulebook** plays the printed rules instead: {job_length_text(printed)}, {round_order_text(printed)}, \
{head_start_text(printed)}, {start_ties_text(printed)}, and {printed_secrets_text(printed)}.
"""


SUMMARY = summary()


def status_line(state: State) -> str:
    """One public line: the round, whose turn, what is being decided."""
    names = state["names"]
    phase = state["phase"]
    if phase == "over":
        final = state["final"] or []
        if state["n"] == 1 and final:
            row = final[0]
            return (f"Game over: {names[0]} scores {row['score']} against a target of {cards.SOLO_TARGET} "
                    f"({row['rating']}): {'the heist is pulled off' if row['won'] else 'not enough'}.")
        winners = " and ".join(names[row["seat"]] for row in final if row["won"])
        return f"Game over: {winners} win{'s' if ' and ' not in winners else ''}."
    active = names[state["active"]]
    head = f"Round {state['round']}/{ROUNDS}"
    if phase == "choose":
        return f"{head}: {active} chooses an obstacle."
    obstacle = OBSTACLE[state["test"]["obstacle"]]
    if phase == "assist":
        waiting = ", ".join(names[seat] for seat in to_act(state))
        return f"{head}: {active} faces {obstacle['name']}; waiting for assists from {waiting}."
    if phase == "tricks":
        numbers = total(state)
        return (f"{head}: {active} faces {obstacle['name']} ({numbers['total']} vs {numbers['target']}) "
                f"and may play tricks.")
    return f"{head}: {active} failed {obstacle['name']} and may upgrade a skill with a trick."


def private_text(view: HeistView) -> str:
    """Markdown for a seat's DM: its secret and how far along it is, identity and skills, location and hand."""
    private = view["private"]
    secret = private["secret"]
    me = view["players"][private["seat"]]
    met = "met if the game ended now" if secret["met_now"] else "not met yet"
    lines = [f"**Your secret goal: {secret['name']}** ({secret['cheese']} cheese at the end if met): {secret['text']}"
             f" _Progress: {secret['progress']} ({met})._",
             f"**You are the {me['identity']}**: " + ", ".join(
                 f"{SKILL_NAME[name]} {value}" for name, value in me["skills"].items()) +
             f"; your pawn is {('at job ' + me['location']) if me['location'] else 'in the hideout (no job yet)'}.",
             f"**Your hand ({len(private['hand'])}):**"]
    for card in private["hand"]:
        lines.append(f"- **{card['name']}** ({card['kind']}): {card['text']}")
    if "picking" in private:
        lines.append(f"You picked {cards.card_name(private['picking'])} to assist with: now choose a card to "
                     f"discard to walk to the job.")
    if "commit" in private:
        lines.append(f"Committed to this test: {private['commit']}.")
    return "\n".join(lines)


def _describe_choose(state: State, seat: int, action: Action) -> str:
    obstacle = OBSTACLE[state["jobs"][action["job"]][0]]
    option = obstacle["test"][action["option"]]
    skill_sum = sum(skill(state, seat, name) for name in option["skills"])
    named = "+".join(SKILL_NAME[name] for name in option["skills"])
    if len(obstacle["test"]) > 1:
        others = " or ".join("+".join(SKILL_NAME[name] for name in other["skills"])
                             for index, other in enumerate(obstacle["test"]) if index != action["option"])
        how = f" by {named} (or {others})"
    else:
        how = f" ({named})"
    return (f"{obstacle['id']} {obstacle['name']}{how}: need {option['target']}, you have {skill_sum} · "
            f"{obstacle['cheese']} cheese")


def _describe_assist(state: State, seat: int, action: Action) -> str:
    text = f"{cards.card_name(action['card'])}: {cards.assist_short(action['card'])}"
    away = " (+ pay a card to walk)"
    if state["locations"][seat] != state["test"]["job"] and len(text + away) <= 80:
        text += away  # (the help line and the next step say it when it doesn't fit)
    return text


def _describe_pay(state: State, seat: int, action: Action) -> str:
    picked = state["test"]["picking"][str(seat)]
    return (f"Discard {cards.card_name(action['card'])} to walk to job {state['test']['job']} "
            f"and assist with {cards.card_name(picked)}")


def _describe_no_assist(state: State, seat: int, action: Action) -> str:
    test = state["test"]
    if test and str(seat) in test.get("picking", {}):
        return "No assist after all (keep your cards)"
    return "No assist"


def _describe_trick(state: State, seat: int, action: Action) -> str:
    card = RESOURCE[action["card"]]
    if "token" in action:
        token = state["test"]["tokens"][action["token"]]
        verb = {"flip": "flip", "redraw": "put back and redraw", "ignore": "ignore"}[card["effect"]["do"]]
        return f"{card['name']}: {verb} token {action['token'] + 1} ({cards.token_label(token)})"
    return f"{card['name']}: {cards.TRICK_EFFECT_TEXT[card['effect']['do']].format(n=card['effect'].get('n', 1))}"


def _describe_resolve(state: State, seat: int, action: Action) -> str:
    numbers = total(state)
    return (f"Resolve now: total {numbers['total']}, need {numbers['target']}: "
            f"{'a success' if numbers['success'] else 'a failure'}")


def _describe_upgrade(state: State, seat: int, action: Action) -> str:
    card = RESOURCE[action["card"]]
    where = "the one you played" if action["card"] in state["test"]["leftover"] else "from your hand"
    return f"Put {card['name']} ({where}) on your identity: +1 {SKILL_NAME[card['upgrade']]} for good"


DESCRIBE: dict[str, Callable[[State, int, Action], str]] = {
    "choose": _describe_choose,
    "assist": _describe_assist,
    "pay": _describe_pay,
    "no_assist": _describe_no_assist,
    "trick": _describe_trick,
    "resolve": _describe_resolve,
    "upgrade": _describe_upgrade,
    "no_upgrade": lambda state, seat, action: "No upgrade (keep your tricks)",
}


def describe_action(state: State, seat: int, action: Action) -> str:
    """A button label for a move (at most 80 characters)."""
    kind = action["type"]
    describe = DESCRIBE.get(kind)
    text = describe(state, seat, action) if describe else kind
    return text if len(text) <= 80 else text[:79] + "…"


GROUPS = {"choose": "Obstacles", "assist": "Assist", "pay": "Pay to walk over", "no_assist": "Assist", "trick": "Tricks",
          "resolve": "Resolve", "upgrade": "Upgrade", "no_upgrade": "Upgrade"}


def action_group(action: Action) -> str:
    """The panel's group (select menu) for a move."""
    return GROUPS.get(action["type"], "Moves")


# The phase each kind of move belongs to, and why it is refused in any other phase.
PHASE_OF = {"choose": "choose", "assist": "assist", "pay": "assist", "no_assist": "assist", "trick": "tricks",
            "resolve": "tricks", "upgrade": "upgrade", "no_upgrade": "upgrade"}
WRONG_PHASE = {"choose": "You can only choose an obstacle at the start of your turn.",
               "assist": "Assists are committed only while the active player waits for help.",
               "tricks": "Tricks are played only after the tokens are drawn, by the active player.",
               "upgrade": "Upgrades are only taken after a failed test."}


def _refuse_choose(state: State, seat: int, action: dict[str, Any], hand: list[str]) -> str:
    letter = action.get("job")
    if letter not in state["jobs"]:
        return "There is no such job: choose A, B, C or D."
    if not state["jobs"][letter]:
        return f"{cards.JOB[letter]['name']} has no obstacle left."
    return "Choose the top obstacle of a job (and one of its listed skills)."


def _refuse_assist(state: State, seat: int, action: dict[str, Any], hand: list[str]) -> str:
    card = action.get("card")
    if card not in hand:
        return "That card isn't in your hand."
    if not cards.is_assist(card):
        return "Only an assist card can be committed to help; tricks are for the active player."
    if state["locations"][seat] == state["test"]["job"] and "pay" in action:
        return "You are already at this job: no card needs to be discarded."
    if str(seat) in state["test"].get("picking", {}):
        return "You have picked your assist card: now choose the card to discard, or no assist."
    if len(hand) < 2:
        return "Your pawn is at another job and you have no other card to discard to walk there."
    return "That assist can't be committed."


def _refuse_pay(state: State, seat: int, action: dict[str, Any], hand: list[str]) -> str:
    picked = state["test"].get("picking", {}).get(str(seat))
    if picked is None:
        return "Pick the assist card first; then the card to discard to walk to the job."
    if action.get("card") == picked:
        return "Pay with another card from your hand, not the assist you picked."
    return "That card isn't in your hand."


def _refuse_trick(state: State, seat: int, action: dict[str, Any], hand: list[str]) -> str:
    card = action.get("card")
    if card not in hand:
        return "That card isn't in your hand."
    if not cards.is_trick(card):
        return "That is an assist card: only tricks can be played on your own test."
    return "That trick needs a drawn token that still counts (give its number)."


REFUSALS: dict[str, Callable[[State, int, dict[str, Any], list[str]], str]] = {
    "choose": _refuse_choose,
    "assist": _refuse_assist,
    "pay": _refuse_pay,
    "trick": _refuse_trick,
    "upgrade": lambda state, seat, action, hand: ("Only a trick with a failure upgrade, played this test or from your "
                                                  "hand, can upgrade you."),
}


def illegal_message(state: State, seat: int, action: Any) -> str:
    """Why a move is refused, in a sentence the player can read."""
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str):
        return "That isn't a HEIST move."
    action = {key: value for key, value in action.items() if isinstance(value, (str, int))}  # odd values match nothing
    want = PHASE_OF.get(kind)
    if want is None:
        return "That isn't a HEIST move."
    if want != state["phase"]:
        return WRONG_PHASE[want]
    hand = state["hands"][seat]
    refuse = REFUSALS.get(kind)
    return refuse(state, seat, action, hand) if refuse else "That move isn't allowed right now."
