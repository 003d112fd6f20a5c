"""An offline fake Discord (REST + gateway) on loopback for end-to-end bot tests.

The real discord.py client logs into it; see :class:`FakeDiscord`.
"""

from .server import (
    DiscordErrorCollector,
    FakeDiscord,
    InteractionRecord,
    RecordedMessage,
)

__all__ = [
    "DiscordErrorCollector",
    "FakeDiscord",
    "InteractionRecord",
    "RecordedMessage",
]
