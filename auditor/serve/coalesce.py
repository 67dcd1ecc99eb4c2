"""Run a table stage once for every request that reached it in the same event-loop turn.

The stages are vectorized: classifying or comparing one row costs nearly what a hundred rows
cost. When many requests are in flight, those that reach a stage together (a batch of lookups
answers many at once) are handed to it as one table, and each gets its own row back. A table
that fails is run again row by row, so only the request whose row failed gets the error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["Coalescer"]

T = TypeVar("T")
R = TypeVar("R")


class Coalescer(Generic[T, R]):
    """`await submit(item)` → `(await run(items))[i]`, with `run` called once per loop turn."""

    def __init__(self, run: Callable[[Sequence[T]], Awaitable[Sequence[R]]]) -> None:
        self._run = run
        self._items: list[tuple[T, asyncio.Future[R]]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.calls = 0
        """How often `run` was called (for tests and the benchmark)."""

    async def submit(self, item: T) -> R:
        """The result for `item`, computed together with every item submitted this turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        if not self._items:
            loop.call_soon(self._flush)
        self._items.append((item, future))
        return await future

    def _flush(self) -> None:
        items, self._items = self._items, []
        self.calls += 1
        task = asyncio.get_running_loop().create_task(self._settle(items))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, items: list[tuple[T, asyncio.Future[R]]]) -> None:
        try:
            results = await self._once([item for item, _ in items])
        except Exception as exc:
            if len(items) == 1:
                if not items[0][1].done():
                    items[0][1].set_exception(exc)
                return
            # One request's bad row must not fail the others that shared its turn: each alone.
            for one in items:
                await self._settle([one])
            return
        for (_, future), result in zip(items, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def _once(self, items: list[T]) -> Sequence[R]:
        results = await self._run(items)
        if len(results) != len(items):
            raise RuntimeError(f"{len(items)} items gave {len(results)} results")
        return results
