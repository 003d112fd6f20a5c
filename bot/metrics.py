"""What an operator watches: moves, how long a click waits for its reply and for its board, Discord's requests by
kind, 429s by scope, the global budget's use and its queues.

Always counted (cheaply, in this process) for ``/gameadmin status`` and the log; exported for Prometheus when
``HEISTCORD_METRICS_PORT`` is set (off by default; needs the ``prometheus-client`` package:
``pip install heistcord[metrics]``). Every process of a bot serves its own endpoint: give each its own port.

    heistcord_moves_total                        moves played (by people and bots)
    heistcord_click_to_reply_seconds             a click on a move -> its private reply sent (histogram)
    heistcord_click_to_board_seconds             a click on a move -> the board showing it posted (histogram)
    heistcord_requests_total{kind}               REST requests: kind="global" (counted against Discord's global
                                                 limit) or "interaction" (an interaction's own endpoints)
    heistcord_global_requests_total{route}       the global-limited ones by route ("PATCH channels/{id}/messages/{id}")
    heistcord_rate_limited_total{scope}          429 answers by scope (global, user, shared)
    heistcord_budget_in_use_ratio                share of this process's global budget used over the last 10 s
    heistcord_budget_wait_seconds_total          time requests waited for the global budget
    heistcord_queued_jobs{priority}              jobs waiting for the budget now (board, dm, tidy)
    heistcord_sender_coalesced_total             jobs folded into a newer one of the same message
    heistcord_drawing_queue                      pictures waiting for the drawing worker
"""
from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.sender import Sender

log = logging.getLogger("heistcord.metrics")

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
RECENT = 1000  # latencies kept for /gameadmin status


class Metrics:
    """The counts of one bot process, and its Prometheus endpoint when asked for."""

    def __init__(self, sender: Sender) -> None:
        self.sender = sender
        self.moves = 0
        self.replies: deque[float] = deque(maxlen=RECENT)  # seconds, click -> reply
        self.boards: deque[float] = deque(maxlen=RECENT)  # seconds, click -> board
        self._reply_histogram: Any = None
        self._board_histogram: Any = None
        self._server: Any = None
        self.port: int | None = None

    # --- counting -------------------------------------------------------------------------
    def moved(self, count: int = 1) -> None:
        """Moves were played."""
        self.moves += count

    def replied(self, clicked_at: float) -> None:
        """A move's reply went out; ``clicked_at`` is the click's time (``time.time()`` scale)."""
        seconds = max(0.0, time.time() - clicked_at)
        self.replies.append(seconds)
        if self._reply_histogram is not None:
            self._reply_histogram.observe(seconds)

    def board_posted(self, clicked_at: float) -> None:
        """The board showing a click's move was posted."""
        seconds = max(0.0, time.time() - clicked_at)
        self.boards.append(seconds)
        if self._board_histogram is not None:
            self._board_histogram.observe(seconds)

    # --- Prometheus -------------------------------------------------------------------------
    def serve(self, port: int, addr: str = "0.0.0.0") -> None:
        """Serve ``/metrics`` on ``port`` (a thread of prometheus-client's). RuntimeError if it isn't installed."""
        try:
            from prometheus_client import CollectorRegistry, Histogram, start_http_server
        except ImportError:
            raise RuntimeError("HEISTCORD_METRICS_PORT needs the prometheus-client package:"
                               " pip install 'heistcord[metrics]'") from None
        registry = CollectorRegistry()
        self._reply_histogram = Histogram("heistcord_click_to_reply_seconds", "A click on a move to its private reply",
                                          buckets=LATENCY_BUCKETS, registry=registry)
        self._board_histogram = Histogram("heistcord_click_to_board_seconds",
                                          "A click on a move to the board showing it", buckets=LATENCY_BUCKETS,
                                          registry=registry)
        for seconds in self.replies:  # what was measured before the endpoint started
            self._reply_histogram.observe(seconds)
        for seconds in self.boards:
            self._board_histogram.observe(seconds)
        registry.register(_Collector(self))
        self._server, _ = start_http_server(port, addr=addr, registry=registry)
        self.port = self._server.server_port
        log.info("metrics for Prometheus on port %s (/metrics)", self.port)

    def close(self) -> None:
        """Stop the endpoint."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


class _Collector:
    """Reads the sender's counts at each scrape (nothing is counted twice)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        import rendering
        from bot.sender import PRIORITY_NAMES

        sender = self.metrics.sender
        stats = sender.stats
        moves = CounterMetricFamily("heistcord_moves", "Moves played")
        moves.add_metric([], self.metrics.moves)
        yield moves
        requests = CounterMetricFamily("heistcord_requests", "REST requests to Discord", labels=["kind"])
        for kind in ("global", "interaction"):
            requests.add_metric([kind], stats.requests[kind])
        yield requests
        routes = CounterMetricFamily("heistcord_global_requests", "Global-limited requests by route", labels=["route"])
        for route, n in list(stats.routes.items()):
            routes.add_metric([route], n)
        yield routes
        limited = CounterMetricFamily("heistcord_rate_limited", "429 answers by scope", labels=["scope"])
        for scope in ("global", "user", "shared"):
            limited.add_metric([scope], stats.rate_limited[scope])
        yield limited
        in_use = GaugeMetricFamily("heistcord_budget_in_use_ratio", "Share of the global budget used, last 10 s")
        in_use.add_metric([], sender.budget.in_use())
        yield in_use
        waited = CounterMetricFamily("heistcord_budget_wait_seconds", "Time requests waited for the global budget")
        waited.add_metric([], stats.waited)
        yield waited
        queued = GaugeMetricFamily("heistcord_queued_jobs", "Jobs waiting for the budget", labels=["priority"])
        now = sender.budget.queued()
        for name in PRIORITY_NAMES.values():
            queued.add_metric([name], now[name])
        yield queued
        coalesced = CounterMetricFamily("heistcord_sender_coalesced", "Jobs folded into a newer one")
        coalesced.add_metric([], stats.coalesced)
        yield coalesced
        drawing = GaugeMetricFamily("heistcord_drawing_queue", "Pictures waiting for the drawing worker")
        gate = getattr(rendering, "_gate", None)  # (read from this thread: the gate is the event loop's)
        drawing.add_metric([], gate.queued if gate is not None else 0)
        yield drawing
