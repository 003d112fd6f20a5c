"""Misbehaving drawing functions, run in the drawing worker in place of
``rendering.render`` (picklable by name, so a spawned worker can import them)."""
from __future__ import annotations

import os
import time

import rendering


def hang(key, kind, view, *extra):
    """A frozen worker: never returns."""
    time.sleep(3600)


def die(key, kind, view, *extra):
    """The worker process dies while drawing."""
    os._exit(3)


def hang_boards(key, kind, view, *extra):
    """Public pictures freeze; a player's private picture draws normally."""
    if kind != "private":
        time.sleep(3600)
    return rendering.render(key, kind, view, *extra)


def die_on_boards(key, kind, view, *extra):
    if kind != "private":
        os._exit(3)
    return rendering.render(key, kind, view, *extra)
