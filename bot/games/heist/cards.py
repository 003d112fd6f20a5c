"""HEIST card and token data (loaded once at import) and the card texts.

Resource cards are referred to by string ids: ``a01``..``a44`` (assists) and
``t01``..``t34`` (tricks); obstacles by their printed number (``A1``..``D7``);
identities and secrets by their key.
"""
from __future__ import annotations

import json
from typing import Any

from bot.paths import DATA_DIR

_DATA = json.loads((DATA_DIR / "heist" / "cards.json").read_text("utf-8"))

SKILLS: list[str] = _DATA["skills"]  # agility, charm, dexterity
SKILL_NAME = {s: s.capitalize() for s in SKILLS}
SKILL_SHORT = {"agility": "AGI", "charm": "CHA", "dexterity": "DEX"}
TOKENS: dict[str, dict[str, Any]] = _DATA["tokens"]
COLOURS: list[str] = list(TOKENS)  # blue, green, yellow, orange, red, purple
TOKEN_TOTAL = {c: TOKENS[c]["count"] for c in COLOURS}
START_BAG: dict[str, int] = _DATA["start_bag"]
PER_EXTRA_PLAYER: dict[str, int] = _DATA["per_extra_player"]
HEAT_TRACK: list[str] = _DATA["heat_track"]
HAND_SIZE: int = _DATA["hand_size"]
DRAW_TOKENS: int = _DATA["draw_tokens"]
RULE_SETS: dict[str, dict[str, Any]] = _DATA["rule_sets"]  # tuned and rulebook numbers (see rules.py)
SOLO_TARGET: int = _DATA["solo"]["target"]
SOLO_RATINGS: list[tuple[int, str]] = [(int(a), str(b)) for a, b in _DATA["solo"]["ratings"]]


def solo_rating(score: int) -> str:
    """The solo rating for a final score (the highest band reached)."""
    return [name for floor, name in SOLO_RATINGS if score >= floor][-1]

IDENTITIES: list[dict[str, Any]] = _DATA["identities"]
IDENTITY = {i["id"]: i for i in IDENTITIES}
SECRETS: list[dict[str, Any]] = _DATA["secrets"]
SECRET = {s["id"]: s for s in SECRETS}
JOBS: list[dict[str, Any]] = _DATA["jobs"]
JOB = {j["letter"]: j for j in JOBS}
LETTERS = [j["letter"] for j in JOBS]
OBSTACLE: dict[str, dict[str, Any]] = {}
for _job in JOBS:
    for _ob in _job["obstacles"]:
        _ob["job"] = _job["letter"]
        OBSTACLE[_ob["id"]] = _ob


def _expand(kind: str, prefix: str) -> dict[str, dict[str, Any]]:
    """One entry per printed copy of each card of ``kind``, with ids ``prefix`` + a two-digit number."""
    cards: dict[str, dict[str, Any]] = {}
    number = 0
    for proto in _DATA[kind]:
        for _ in range(proto["copies"]):
            number += 1
            card = {key: value for key, value in proto.items() if key != "copies"}
            card["id"] = f"{prefix}{number:02d}"
            cards[card["id"]] = card
    return cards


ASSISTS = _expand("assists", "a")
TRICKS = _expand("tricks", "t")
RESOURCE: dict[str, dict[str, Any]] = {**ASSISTS, **TRICKS}
RESOURCE_IDS = sorted(RESOURCE)

assert len(IDENTITIES) == 7 and len(SECRETS) == 15 and len(JOBS) == 4
assert len(OBSTACLE) == 28 and len(ASSISTS) == 44 and len(TRICKS) == 34
assert sum(TOKEN_TOTAL.values()) == 50


def secret_check(secret_id: str, players: int, rulebook: bool = False) -> dict[str, Any]:
    """A secret's condition at this player count (a list value is read by player count); with ``rulebook``, as
    printed where the rulebook prints it (``rule_sets.rulebook.secret_overrides``)."""
    check = dict(SECRET[secret_id]["check"])
    if rulebook:
        check.update(RULE_SETS["rulebook"]["secret_overrides"].get(secret_id, {}))
    return {k: (v[players] if isinstance(v, list) and k not in ("plus", "minus") else v) for k, v in check.items()}


def secret_text(secret_id: str, players: int, rulebook: bool = False) -> str:
    """The secret's condition in words, with this player count's numbers (and this rules set's)."""
    check = secret_check(secret_id, players, rulebook)
    n = check.get("n")
    extra: dict[str, Any] = {"s": "" if n == 1 else "s", "are": "is" if n == 1 else "are",
                             "were": "was" if n == 1 else "were", "noties": ""}
    if players == 1 and "solo_text" in SECRET[secret_id]:  # nobody to compare against: a minimum instead
        return SECRET[secret_id]["solo_text"].format(**check)
    if check["kind"] == "most_obstacles":
        extra["cmp"] = "at least as many obstacles as" if check["ties"] else "more obstacles than"
        extra["noties"] = "" if check["ties"] else " (no ties)"
    if check["kind"] == "top_skill":
        extra["cmp"] = "at least as high as" if check["ties"] else "higher than"
        extra["noties"] = "" if check["ties"] else " (no ties)"
    if check["kind"] == "same_job":
        extra["most_text"] = ", and more from it than from all other jobs together" if check.get("most") else ""
    if check["kind"] == "all_skills":
        least = int(check["n"])
        two = int(check.get("two", least))
        extra["two_text"] = f", and two of them at least {two}" if two > least else ""
    if check["kind"] == "bag_diff":
        plus, minus = check["plus_text"], check["minus_text"]
        extra["diff"] = (f"at least as many {plus} as {minus}" if n == 0 else f"more {plus} than {minus}" if n == 1
                         else f"at least {n} more {plus} than {minus}")
    return SECRET[secret_id]["text"].format(**check, **extra)


def token_value(token: dict[str, Any]) -> int:
    """What a drawn token adds to a test: the value of the face it landed on."""
    return TOKENS[token["colour"]]["faces"][token["face"]]


def token_label(token: dict[str, Any]) -> str:
    """A drawn token in words, e.g. "red -4"."""
    value = token_value(token)
    return f"{token['colour']} {value:+d}"


def faces_label(colour: str) -> str:
    """A token colour with both its faces, e.g. "red -2/-4"."""
    front, back = TOKENS[colour]["faces"]
    return f"{colour} {front:+d}/{back:+d}"


def test_label(option: dict[str, Any]) -> str:
    """'Agility 5' or 'Agility+Dexterity 8'."""
    return "+".join(SKILL_NAME[s] for s in option["skills"]) + f" {option['target']}"


def obstacle_test_text(obstacle: dict[str, Any]) -> str:
    """An obstacle's skill tests, e.g. "Dexterity 8 or Charm 8"."""
    return " or ".join(test_label(option) for option in obstacle["test"])


def effect_text(effect: dict[str, Any]) -> str:
    """A printed effect in words, e.g. "add 1 red token to the bag"."""
    do, n = effect["do"], effect.get("n", 1)
    if do == "add":
        return f"add {n} {effect['colour']} token{'s' if n > 1 else ''} to the bag"
    if do == "remove":
        return f"remove {n} {effect['colour']} token{'s' if n > 1 else ''} from the bag"
    if do == "draw":
        return f"draw {n} card{'s' if n > 1 else ''}"
    if do == "active_draw":
        return f"the active player draws {n} card{'s' if n > 1 else ''}"
    if do == "discard_random":
        return f"discard {n} random card{'s' if n > 1 else ''}"
    return do


def effects_text(effects: list[dict[str, Any]]) -> str:
    """Several printed effects in words, separated by semicolons."""
    return "; ".join(effect_text(effect) for effect in effects)


def obstacle_text(obstacle: dict[str, Any]) -> str:
    """An obstacle's full card in one line: tests, cheese, Mandatory, success and failure effects."""
    parts = [f"{obstacle['id']} {obstacle['name']}: {obstacle_test_text(obstacle)}, {obstacle['cheese']} cheese"]
    if obstacle["mandatory"]:
        parts.append("Mandatory")
    if obstacle["success"]:
        parts.append("success: " + effects_text(obstacle["success"]))
    if obstacle["failure"]:
        parts.append("failure: " + effects_text(obstacle["failure"]))
    return "; ".join(parts)


TRICK_EFFECT_TEXT = {
    "flip": "flip 1 drawn token",
    "flip_all": "flip every drawn token",
    "redraw": "put 1 drawn token back in the bag and draw another",
    "bonus": "+{n} to the test",
    "extra": "draw 1 more token",
    "ignore": "ignore 1 drawn token",
    "lucky": "draw 1 more token, then the lowest token is ignored",
    "double": "the highest token counts twice",
    "clean_exit": "if the test fails, ignore the obstacle's failure effect",
    "favour": "+1 to the test for each assist card committed",
}


def card_text(card_id: str) -> str:
    """One-line rules text of a resource card."""
    card = RESOURCE[card_id]
    bits: list[str] = []
    if card["kind"] == "assist":
        if card["modifier"]:
            bits.append(f"{card['modifier']:+d} to the test")
        if card["effects"]:
            bits.append(effects_text(card["effects"]))
        if card["special"] == "backup":
            bits.append("if the test fails, it returns to your hand")
        if card["special"] == "double_cross":
            bits.append(f"scores {card['cheese']} cheese only if the test FAILS")
        elif card["cheese"]:
            bits.append(f"{card['cheese']} cheese on success")
        if card["upgrade"]:
            bits.append(f"success: +1 {SKILL_NAME[card['upgrade']]}")
    else:
        effect = card["effect"]
        bits.append(TRICK_EFFECT_TEXT[effect["do"]].format(n=effect.get("n", 1)))
        if card["cheese"]:
            bits.append(f"{card['cheese']} cheese on failure")
        if card["upgrade"]:
            bits.append(f"failure: +1 {SKILL_NAME[card['upgrade']]}")
    return "; ".join(bits)


def _short_effect(effect: dict[str, Any]) -> str:
    """A printed effect in a few words for a button, e.g. "a red token out of the bag"."""
    do, n = effect["do"], effect.get("n", 1)
    colour = effect.get("colour", "")
    tokens = f"{('an' if colour[:1] in 'aeiou' else 'a') if n == 1 else n} {colour} token{'s' if n > 1 else ''}"
    if do == "add":
        return f"{tokens} into the bag"
    if do == "remove":
        return f"{tokens} out of the bag"
    if do == "active_draw":
        return f"they draw {'a card' if n == 1 else f'{n} cards'}"
    return effect_text(effect)


def assist_short(card_id: str) -> str:
    """What an assist does and pays, in a few words for a button: "+2; 1 cheese to you if it works"."""
    card = RESOURCE[card_id]
    bits = [f"{card['modifier']:+d}"] if card["modifier"] else []
    bits += [_short_effect(effect) for effect in card["effects"]]
    if card["special"] == "double_cross":
        bits.append(f"{card['cheese']} cheese to you only if it fails")
    elif card["special"] == "backup":
        bits.append("back to your hand if it fails")
    elif card["cheese"]:
        bits.append(f"{card['cheese']} cheese to you if it works")
    if card["upgrade"]:
        bits.append(f"+1 {SKILL_NAME[card['upgrade']]} to you if it works")
    return "; ".join(bits) or "no effect"


def card_name(card_id: str) -> str:
    """A resource card's printed name."""
    return str(RESOURCE[card_id]["name"])


def card_label(card_id: str) -> str:
    """A resource card's name, kind and rules text, e.g. "Lookout (Assist): +2 to the test"."""
    kind = "Assist" if RESOURCE[card_id]["kind"] == "assist" else "Trick"
    return f"{card_name(card_id)} ({kind}): {card_text(card_id)}"


_SIGNATURE = {card_id: json.dumps({key: value for key, value in card.items() if key != "id"}, sort_keys=True)
              for card_id, card in RESOURCE.items()}


def card_signature(card_id: str) -> str:
    """Cards with the same signature are identical in play (used to dedupe choices)."""
    return _SIGNATURE[card_id]


def is_assist(card_id: str) -> bool:
    """Whether a resource card is an assist (committed to help another player)."""
    return bool(RESOURCE[card_id]["kind"] == "assist")


def is_trick(card_id: str) -> bool:
    """Whether a resource card is a trick (played by the active player on their own test)."""
    return bool(RESOURCE[card_id]["kind"] == "trick")
