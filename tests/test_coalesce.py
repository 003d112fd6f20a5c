import asyncio

from bot.coalesce import Coalescer


async def test_a_burst_costs_two_runs_and_loses_nothing():
    seen: list[list[int]] = []

    async def work(key, items):
        await asyncio.sleep(0.02)
        seen.append(list(items))

    c = Coalescer(work)
    await asyncio.gather(*(c.submit("table", [i]) for i in range(10)))
    assert c.runs == 2  # the first item, then everything that queued meanwhile
    assert sorted(i for batch in seen for i in batch) == list(range(10))
    assert seen[0] == [0]


async def test_keys_are_independent_and_failures_do_not_wedge_a_key():
    calls = []

    async def work(key, items):
        calls.append(key)
        if items == ["boom"]:
            raise RuntimeError("render failed")

    c = Coalescer(work)
    await asyncio.gather(c.submit("a", [1]), c.submit("b", [2]))
    assert sorted(calls) == ["a", "b"]
    try:
        await c.submit("a", ["boom"])
    except RuntimeError:
        pass
    await c.submit("a", [3])  # the key works again
    assert calls[-1] == "a" and not c.busy("a")



async def test_idle_waits_for_the_last_run_without_polling(monkeypatch):
    """Issue 32: idle() woke every 5 ms to look (a busy wait); it now sleeps until the last run ends."""
    release = asyncio.Event()

    async def work(key, items):
        await release.wait()

    c = Coalescer(work)
    runs = [asyncio.create_task(c.submit(key, [1])) for key in ("a", "b")]
    await asyncio.sleep(0)  # both runs started
    wakes = 0
    real_sleep = asyncio.sleep

    async def counting_sleep(delay, *args):
        nonlocal wakes
        wakes += 1
        await real_sleep(delay, *args)

    monkeypatch.setattr(asyncio, "sleep", counting_sleep)
    waiter = asyncio.create_task(c.idle())
    for _ in range(20):
        await real_sleep(0.005)
    assert not waiter.done()
    release.set()
    await asyncio.gather(*runs)
    await asyncio.wait_for(waiter, 5)
    assert wakes == 0
