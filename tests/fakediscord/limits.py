"""Discord's documented limits on what a bot may send, checked the way Discord
checks them: a request that breaks one is answered ``400`` with error code
``50035`` ("Invalid Form Body") and an ``errors`` object that mirrors the
payload, e.g.::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

Sources: Discord developer docs, Message resource (content, embeds, attachments),
Embed limits, Component reference (action rows, buttons, string selects), Interaction
responses (autocomplete choices, modals). Lengths are counted in characters.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
ACTION_ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # label, value, description
PLACEHOLDER = 150
FILES = 10
ATTACHMENT_DESCRIPTION = 1024
CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45

BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
SELECT_TYPES = (3, 5, 6, 7, 8)
LINK, PREMIUM = 5, 6


class FormErrors:
    """Collects errors under their JSON path, in Discord's nested shape."""

    def __init__(self) -> None:
        self.tree: Dict[str, Any] = {}
        self.flat: List[str] = []

    def add(self, path: List[Any], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(str(p) for p in path)}: {message}")

    def length(self, path: List[Any], value: Any, high: int, low: int = 0) -> None:
        if value is None:
            if low:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        n = len(str(value))
        if low and n < low:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        elif n > high:
            if low:
                self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
            else:
                self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")

    def count(self, path: List[Any], items: Any, high: int, low: int = 0) -> None:
        n = len(items or [])
        if n > high or n < low:
            message = f"Must be between {low} and {high} in length." if low else f"Must be {high} or fewer in length."
            self.add(path, "BASE_TYPE_BAD_LENGTH" if low else "BASE_TYPE_MAX_LENGTH", message)

    def __bool__(self) -> bool:
        return bool(self.flat)


def _embed_chars(embed: dict) -> int:
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or []:
        n += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
    n += len(((embed.get("footer") or {}).get("text")) or "")
    n += len(((embed.get("author") or {}).get("name")) or "")
    return n


def check_embeds(errors: FormErrors, base: List[Any], embeds: Any) -> None:
    if not embeds:
        return
    errors.count(base + ["embeds"], embeds, EMBEDS)
    total = 0
    for i, e in enumerate(embeds):
        p = base + ["embeds", i]
        errors.length(p + ["title"], e.get("title"), EMBED_TITLE)
        errors.length(p + ["description"], e.get("description"), EMBED_DESCRIPTION)
        errors.count(p + ["fields"], e.get("fields"), EMBED_FIELDS)
        for j, f in enumerate(e.get("fields") or []):
            errors.length(p + ["fields", j, "name"], f.get("name"), FIELD_NAME, 1)
            errors.length(p + ["fields", j, "value"], f.get("value"), FIELD_VALUE, 1)
        if isinstance(e.get("footer"), dict):
            errors.length(p + ["footer", "text"], e["footer"].get("text"), FOOTER_TEXT)
        if isinstance(e.get("author"), dict):
            errors.length(p + ["author", "name"], e["author"].get("name"), AUTHOR_NAME)
        total += _embed_chars(e)
    if total > EMBED_TOTAL:
        errors.add(base + ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")


def check_components(errors: FormErrors, base: List[Any], components: Any) -> None:
    if not components:
        return
    errors.count(base + ["components"], components, ACTION_ROWS)
    seen: Dict[str, List[Any]] = {}
    for i, row in enumerate(components):
        p = base + ["components", i]
        if row.get("type") != 1:
            errors.add(p + ["type"], "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
            continue
        children = row.get("components") or []
        errors.count(p + ["components"], children, ROW_BUTTONS, 1)
        kinds = {c.get("type") for c in children}
        if kinds & set(SELECT_TYPES) and len(children) > 1:
            errors.add(p + ["components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "The specified component exceeds the maximum width")
        for j, c in enumerate(children):
            cp = p + ["components", j]
            t = c.get("type")
            if t == BUTTON:
                errors.length(cp + ["label"], c.get("label"), BUTTON_LABEL)
                if not c.get("label") and not c.get("emoji") and c.get("style") != PREMIUM:
                    errors.add(cp, "BUTTON_COMPONENT_INVALID", "A button needs a label or an emoji")
                if c.get("style") not in (LINK, PREMIUM):
                    errors.length(cp + ["custom_id"], c.get("custom_id"), CUSTOM_ID, 1)
            elif t in SELECT_TYPES:
                errors.length(cp + ["custom_id"], c.get("custom_id"), CUSTOM_ID, 1)
                errors.length(cp + ["placeholder"], c.get("placeholder"), PLACEHOLDER)
                lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                if not 0 <= lo <= 25:
                    errors.add(cp + ["min_values"], "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
                if not 1 <= hi <= 25:
                    errors.add(cp + ["max_values"], "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
                if t == STRING_SELECT:
                    options = c.get("options") or []
                    errors.count(cp + ["options"], options, SELECT_OPTIONS, 1)
                    if hi > len(options):
                        errors.add(cp + ["max_values"], "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
                                   "max_values must be less than or equal to the number of options")
                    values = set()
                    for k, o in enumerate(options):
                        op = cp + ["options", k]
                        errors.length(op + ["label"], o.get("label"), OPTION_TEXT, 1)
                        errors.length(op + ["value"], o.get("value"), OPTION_TEXT, 1)
                        errors.length(op + ["description"], o.get("description"), OPTION_TEXT)
                        if o.get("value") in values:
                            errors.add(op + ["value"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                                       "Select component option values must be unique")
                        values.add(o.get("value"))
            else:
                errors.add(cp + ["type"], "UNION_TYPE_CHOICES", f"Component type {t} is not allowed in a message")
            cid = c.get("custom_id")
            if cid is not None:
                seen.setdefault(cid, []).append(cp)
    for cid, paths in seen.items():
        for cp in paths[1:]:
            errors.add(cp + ["custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")


def check_message(payload: Optional[dict], files: int = 0, base: Optional[List[Any]] = None) -> FormErrors:
    """A message create/edit body (channel message, follow-up, webhook edit, or the
    ``data`` of an interaction response of type 4 or 7)."""
    errors = FormErrors()
    base = base or []
    payload = payload or {}
    errors.length(base + ["content"], payload.get("content"), CONTENT)
    check_embeds(errors, base, payload.get("embeds"))
    check_components(errors, base, payload.get("components"))
    attachments = payload.get("attachments") or []
    if files > FILES or len(attachments) > FILES:
        errors.add(base + ["attachments"], "BASE_TYPE_MAX_LENGTH", f"Must be {FILES} or fewer in length.")
    for i, a in enumerate(attachments):
        errors.length(base + ["attachments", i, "description"], a.get("description"), ATTACHMENT_DESCRIPTION)
    return errors


def check_choices(choices: Any) -> FormErrors:
    errors = FormErrors()
    base = ["data", "choices"]
    errors.count(base, choices, CHOICES)
    for i, c in enumerate(choices or []):
        errors.length(base + [i, "name"], c.get("name"), CHOICE_NAME, 1)
        if isinstance(c.get("value"), str):
            errors.length(base + [i, "value"], c.get("value"), CHOICE_VALUE)
    return errors


def check_modal(data: dict) -> FormErrors:
    errors = FormErrors()
    base = ["data"]
    errors.length(base + ["title"], data.get("title"), MODAL_TITLE, 1)
    errors.length(base + ["custom_id"], data.get("custom_id"), CUSTOM_ID, 1)
    rows = data.get("components") or []
    errors.count(base + ["components"], rows, 5, 1)
    for i, row in enumerate(rows):
        for j, c in enumerate(row.get("components") or ([row.get("component")] if row.get("component") else [])):
            p = base + ["components", i, "components", j]
            errors.length(p + ["custom_id"], c.get("custom_id"), CUSTOM_ID, 1)
            if c.get("type") == TEXT_INPUT and "label" in c:
                errors.length(p + ["label"], c.get("label"), TEXT_INPUT_LABEL, 1)
    return errors


def error_body(errors: FormErrors) -> dict:
    return {"code": 50035, "errors": errors.tree, "message": "Invalid Form Body"}
