"""The drawing worker process (rendering.render_async)."""
import asyncio


async def test_a_dead_drawing_process_is_replaced():
    import os
    import signal

    import rendering

    if not isinstance(rendering.render_executor(), rendering.ProcessPoolExecutor):
        return
    assert await rendering.render_async("no-such-game", "board", {}) is None  # starts the worker
    for pid in list(rendering.render_executor()._processes):
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    assert await rendering.render_async("no-such-game", "board", {}) is None
