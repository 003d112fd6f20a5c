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

