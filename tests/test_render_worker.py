"""The drawing worker process (rendering.render_async)."""
import asyncio

from bot.workers import ProcessWorkers


async def test_a_dead_drawing_process_is_replaced():
    import os
    import signal

    import rendering

    if not isinstance(rendering.render_executor(), ProcessWorkers):
        return
    assert await rendering.render_async("no-such-game", "board", {}) is None  # starts the worker
    for process in rendering.render_executor().processes:
        os.kill(process.pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    assert await rendering.render_async("no-such-game", "board", {}) is None


def test_drawing_workers_default_to_one_per_core_but_one(monkeypatch):
    """Issue 16: at most (cores - 1) drawing processes by default, and at least one;
    HEISTCORD_RENDER_WORKERS (Config.render_workers) still decides when it is set (0: a thread in the bot's process)."""
    import rendering

    monkeypatch.setattr(rendering, "RENDER_WORKERS", None)
    for cores, workers in ((1, 1), (2, 1), (4, 3), (8, 7)):
        monkeypatch.setattr(rendering, "_cores", lambda cores=cores: cores)
        assert rendering._workers() == workers
    monkeypatch.setattr(rendering, "RENDER_WORKERS", 0)
    assert rendering._workers() == 0
    monkeypatch.setattr(rendering, "RENDER_WORKERS", 2)
    assert rendering._workers() == 2
