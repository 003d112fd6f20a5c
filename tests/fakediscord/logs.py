"""Collecting discord.py's error log lines so a test can fail on them."""

from __future__ import annotations

import logging
from typing import Any, Iterable, List

# ---------------------------------------------------------------------------
# Log collection
# ---------------------------------------------------------------------------


class DiscordErrorCollector(logging.Handler):
    """Collects ERROR (and worse) records from the ``discord`` loggers (or others given).

    Use as a context manager or ``install()``/``uninstall()``; ``assert_clean()`` fails with the
    formatted records."""

    def __init__(self, logger_names: Iterable[str] = ("discord",), level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.logger_names = tuple(logger_names)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> "DiscordErrorCollector":
        for n in self.logger_names:
            logging.getLogger(n).addHandler(self)
        return self

    def uninstall(self) -> None:
        for n in self.logger_names:
            logging.getLogger(n).removeHandler(self)

    def __enter__(self) -> "DiscordErrorCollector":
        return self.install()

    def __exit__(self, *exc: Any) -> None:
        self.uninstall()

    def clear(self) -> None:
        self.records.clear()

    def format_all(self) -> str:
        fmt = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return "\n\n".join(fmt.format(r) for r in self.records)

    def assert_clean(self) -> None:
        if self.records:
            raise AssertionError(f"{len(self.records)} error log record(s) from discord:\n{self.format_all()}")
