"""A whole game as one animated image: ``/game replay id`` without a move.

One frame per turn (see :mod:`bot.turns`), drawn from public views only by the
game's own board renderer, and the final scoreboard as the last frame. The GIF is
kept under Discord's upload limit by scaling the frames down and, if that is not
enough, keeping fewer turns (evenly spread; the first and last frames always stay).
"""
from __future__ import annotations

import io
from typing import Any

from PIL import Image

from rendering.common import INK, font, new_canvas

# Discord's default upload limit is 10 MiB per message for a bot in a server without
# boosts; stay well under it so the message's text and headers fit too.
UPLOAD_BUDGET = 8 * 1024 * 1024
FRAME_WIDTHS = (800, 640, 520)
FRAME_MS = 1200
LAST_FRAME_MS = 6000
MAX_FRAMES = 150


def _caption(image: Image.Image, text: str) -> Image.Image:
    """The frame with a caption strip (e.g. "after move 12 of 80") under it."""
    strip = 44
    canvas, draw = new_canvas(image.width, image.height + strip)
    canvas.paste(image.convert("RGB"), (0, 0))
    draw.text((16, image.height + 10), text, font=font(22, bold=True), fill=INK)
    return canvas


def _scaled(image: Image.Image, width: int) -> Image.Image:
    if image.width <= width:
        return image
    return image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.LANCZOS)


def _encode(frames: list[Image.Image]) -> bytes:
    size = (max(f.width for f in frames), max(f.height for f in frames))
    palette_frames = []
    for frame in frames:
        if frame.size != size:  # the final scoreboard may be shorter than a board
            canvas, _ = new_canvas(*size)
            canvas.paste(frame.convert("RGB"), (0, 0))
            frame = canvas
        palette_frames.append(frame.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE))
    buffer = io.BytesIO()
    durations = [FRAME_MS] * (len(palette_frames) - 1) + [LAST_FRAME_MS]
    palette_frames[0].save(buffer, format="GIF", save_all=True, append_images=palette_frames[1:],
                           duration=durations, loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def _spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items evenly spread over ``items``, keeping the first and the last."""
    if len(items) <= count:
        return items
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def animate(frames: list[tuple[Image.Image, str]], budget: int = UPLOAD_BUDGET) -> bytes:
    """GIF bytes of ``(image, caption)`` frames, under ``budget`` bytes."""
    if not frames:
        raise ValueError("nothing to animate")
    chosen = _spread(frames, MAX_FRAMES)
    while True:
        for width in FRAME_WIDTHS:
            data = _encode([_caption(_scaled(image, width), text) for image, text in chosen])
            if len(data) <= budget:
                return data
        if len(chosen) <= 2:
            return data
        chosen = _spread(chosen, max(2, len(chosen) * 2 // 3))


def render_replay(module: Any, snapshots: list[tuple[int, dict[str, Any]]], total: int,
                  scores: list[dict[str, Any]] | None) -> bytes | None:
    """The animated replay of a game from its turn snapshots ``(moves made, public view)``
    drawn by the game's renderer ``module``; the final scoreboard closes it when the
    game finished. None if the game has no board renderer."""
    board = getattr(module, "render_board", None)
    if board is None:
        return None
    frames = [(board(view), "start" if moves == 0 else f"after move {moves} of {total}")
              for moves, view in snapshots]
    final = getattr(module, "render_final", None)
    if scores is not None and final is not None:
        frames.append((final(snapshots[-1][1], scores), "final scores"))
    return animate(frames)
