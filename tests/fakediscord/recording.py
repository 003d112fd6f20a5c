"""What tests read back: waiting for the bot, the public record (what anyone could see),
messages per channel and per DM, and finding components on a message."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable, Iterable, List, Optional, Tuple, Union

from .records import RecordedMessage


class RecordingMixin:
    """Reading what the bot did, and waiting for it."""

    # ---------------------------------------------------------- recording
    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every recorded change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise asyncio.TimeoutError(f"condition not met within {timeout}s")
            fut = loop.create_future()
            self._waiters.append(fut)
            try:
                await asyncio.wait_for(fut, min(remaining, 0.25))
            except asyncio.TimeoutError:
                pass

    async def settle(self, quiet: float = 0.05, timeout: float = 5) -> None:
        """Wait until no REST request is in flight and none arrived for ``quiet`` seconds
        (i.e. the bot looks idle)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle_for = time.monotonic() - self._last_activity
            if self._inflight == 0 and idle_for >= quiet:
                return
            if loop.time() > deadline:
                raise asyncio.TimeoutError(f"bot still busy after {timeout}s")
            await asyncio.sleep(max(0.005, quiet - idle_for) if self._inflight == 0 else 0.01)

    def _record_public(self, payload: Any, files: List[Tuple[str, bytes]]) -> None:
        self._public.append(payload)
        for name, data in files:
            self._public.append(name)
            self._public.append(data)

    def all_public_payloads(self) -> List[Any]:
        """Every JSON body (dict), filename (str) and file content (bytes) the bot ever sent to a
        guild channel, or as a non-ephemeral interaction response / follow-up / edit in a guild.
        (DMs, ephemeral messages, modals and autocomplete choices are private and not included.)"""
        return list(self._public)

    def public_mark(self) -> int:
        """A bookmark for :meth:`public_text` ``(since=...)``: how many public payloads so far."""
        return len(self._public)

    def public_text(self, since: int = 0) -> str:
        """:meth:`all_public_payloads` (from bookmark ``since``) flattened into one string
        (bytes decoded leniently)."""
        out = []
        for p in self._public[since:]:
            if isinstance(p, bytes):
                out.append(p.decode("utf-8", "replace"))
                out.append(p.decode("latin-1"))
            elif isinstance(p, str):
                out.append(p)
            else:
                out.append(json.dumps(p, ensure_ascii=False))
        return "\n".join(out)

    def channel_messages(self, channel_id: int, *, include_ephemeral: bool = True, include_deleted: bool = False) -> List[RecordedMessage]:
        return [
            m for m in self.messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted) and (include_ephemeral or not m.ephemeral)
        ]

    def public_messages(self, channel_id: int, *, threads: bool = True) -> List[RecordedMessage]:
        """What anyone reading the channel sees: its public messages and, unless
        ``threads=False``, those of the threads started in it, in the order they were sent."""
        ids = {channel_id} | ({t.id for t in self.threads(channel_id)} if threads else set())
        return sorted((m for cid in ids for m in self.channel_messages(cid, include_ephemeral=False)),
                      key=lambda m: m.id)

    def dms(self, user_id: int, *, include_deleted: bool = False) -> List[RecordedMessage]:
        """Messages the bot sent to ``user_id`` in their DM channel (including interaction responses there)."""
        cid = self.dm_channels.get(user_id)
        if cid is None:
            return []
        return [m for m in self.channel_messages(cid, include_deleted=include_deleted) if m.author_id == self.bot_user.id]

    def get_message(self, message_id: int) -> RecordedMessage:
        return self.messages[int(message_id)]

    # -------------------------------------------------------------- components
    @staticmethod
    def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
        for c in components or []:
            yield c
            if isinstance(c.get("components"), list):
                yield from RecordingMixin._walk_components(c["components"])
            for key in ("accessory", "component"):
                if isinstance(c.get(key), dict):
                    yield from RecordingMixin._walk_components([c[key]])

    def find_components(
        self, message: Union[RecordedMessage, dict, List[dict]], *, label: Optional[str] = None,
        custom_id: Optional[str] = None, custom_id_prefix: Optional[str] = None, type: Optional[int] = None,
        label_contains: Optional[str] = None,
    ) -> List[dict]:
        if isinstance(message, RecordedMessage):
            comps = message.components
        elif isinstance(message, dict):
            comps = message.get("components", [])
        else:
            comps = message
        out = []
        for c in self._walk_components(comps):
            if c.get("type") in (1, 17, 9, 18) and type is None and "custom_id" not in c:
                continue  # containers
            if label is not None and c.get("label") != label:
                continue
            if label_contains is not None and label_contains not in (c.get("label") or ""):
                continue
            if custom_id is not None and c.get("custom_id") != custom_id:
                continue
            if custom_id_prefix is not None and not str(c.get("custom_id", "")).startswith(custom_id_prefix):
                continue
            if type is not None and c.get("type") != type:
                continue
            out.append(c)
        return out

    def find_component(self, message: Union[RecordedMessage, dict, List[dict]], **kwargs: Any) -> dict:
        """First component matching (label=, custom_id=, custom_id_prefix=, type=, label_contains=).
        Raises LookupError listing what is there if none matches."""
        found = self.find_components(message, **kwargs)
        if not found:
            comps = message.components if isinstance(message, RecordedMessage) else message
            have = [
                (c.get("type"), c.get("label"), c.get("custom_id"))
                for c in self._walk_components(comps if isinstance(comps, list) else comps.get("components", []))
            ]
            raise LookupError(f"no component matching {kwargs}; message has {have}")
        return found[0]
