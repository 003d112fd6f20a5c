"""Discord's rate limits, as the fake enforces them (sources in this package's README, § Rate limits).

- **Global limit**: every request a bot makes with its token counts, whatever the route, except the
  interaction endpoints (the callback and the ``/webhooks/{application_id}/{token}`` routes of an
  interaction token). At most :attr:`RateLimits.global_limit` of them in any
  :attr:`RateLimits.global_window` seconds (a sliding window: the strictest reading of "50 requests per
  second"), counted per bot token across every connection and process. Past it: ``429`` with
  ``"global": true``, ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``.
- **Per-route buckets**: a route's bucket is counted per top-level resource of its path (the channel,
  the guild, or the webhook id and token). A bucket opens at its first request and resets ``per``
  seconds later; every answer on a bucketed route carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset``, ``-Reset-After`` and ``-Bucket``. Past it: ``429`` with ``X-RateLimit-Scope: user``.
- **Shared limits**: a test may say a resource is busy (:meth:`Throttle.limit_resource`): its requests
  get ``429`` with ``X-RateLimit-Scope: shared``, which does not count as an invalid request.
- **Invalid requests**: 401, 403 and 429 answers (but 429s of the ``shared`` scope) are counted over
  ten minutes; at :attr:`RateLimits.invalid_limit` the bot's IP is "banned": every later request gets a
  ``429`` without ``Via`` and a text body, as from Cloudflare.

Every 429 is recorded (``FakeDiscord.rate_limited``): a test fails on any it did not provoke.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List, Optional, Tuple

# (method, path pattern, name): the routes with a bucket of their own. The path is after /api/v10/.
# Each pattern's first group is the top-level resource the bucket is counted for (None: one bucket).
ROUTES: List[Tuple[str, "re.Pattern[str]", str]] = [
    (m, re.compile(p), name) for m, p, name in [
        ("POST", r"channels/(\d+)/messages", "create message"),
        ("PATCH", r"channels/(\d+)/messages/\d+", "edit message"),
        ("DELETE", r"channels/(\d+)/messages/\d+", "delete message"),
        ("POST", r"webhooks/(\d+/[^/]+)", "interaction follow-up"),
        ("PATCH", r"webhooks/(\d+/[^/]+)/messages/[^/]+", "interaction message edit"),
        ("DELETE", r"webhooks/(\d+/[^/]+)/messages/[^/]+", "interaction message delete"),
        ("POST", r"users/@me/channels", "create DM"),
        ("POST", r"channels/(\d+)/messages/\d+/threads", "start thread"),
        ("PUT", r"channels/(\d+)/thread-members/\d+", "add thread member"),
        ("PATCH", r"channels/(\d+)", "edit channel"),
        ("PUT", r"applications/\d+/commands", "sync global commands"),
        ("PUT", r"applications/\d+/guilds/(\d+)/commands", "sync guild commands"),
    ]
]

INTERACTION_CALLBACK = re.compile(r"interactions/\d+/[^/]+/callback")
INTERACTION_WEBHOOK = re.compile(r"webhooks/(\d+)/[^/]+(/messages/[^/]+)?")


@dataclass
class RateLimits:
    """How hard the fake throttles. The defaults are Discord's documented global limit and, per route,
    the values bots commonly observe in Discord's headers (see the README for which is which)."""

    global_limit: int = 50
    global_window: float = 1.0
    #: route name -> (requests, per seconds); a route of ``ROUTES`` not listed here has no bucket of its own
    #: (only the global limit): no value for it is commonly observed.
    routes: Dict[str, Tuple[int, float]] = field(default_factory=lambda: {
        "create message": (5, 5.0),
        "edit message": (5, 5.0),
        "delete message": (5, 1.0),
        "interaction follow-up": (5, 2.0),
        "interaction message edit": (5, 2.0),
        "interaction message delete": (5, 2.0),
    })
    invalid_limit: int = 10_000
    invalid_window: float = 600.0
    enabled: bool = True


class _Bucket:
    __slots__ = ("limit", "per", "opened", "used")

    def __init__(self, limit: int, per: float) -> None:
        self.limit, self.per, self.opened, self.used = limit, per, 0.0, 0


def is_interaction_endpoint(path: str, application_id: int) -> bool:
    """The interaction endpoints are not bound to the global limit (Receiving and Responding § Endpoints)."""
    if INTERACTION_CALLBACK.fullmatch(path):
        return True
    m = INTERACTION_WEBHOOK.fullmatch(path)
    return bool(m and int(m.group(1)) == application_id)


class Throttle:
    """The fake's rate limiter: :meth:`check` before a request is handled, :meth:`headers` for its answer."""

    def __init__(self, limits: RateLimits, application_id: int) -> None:
        self.limits = limits
        self.application_id = application_id
        self._global: Dict[str, Deque[float]] = {}  # bot token -> times of its counted requests
        self._buckets: Dict[Tuple[str, str, str], _Bucket] = {}  # (token, route, resource) -> bucket
        self._shared: Dict[str, float] = {}  # resource key ("channels/123") -> busy until
        self._invalid: Dict[str, Deque[float]] = {}  # token -> times of invalid requests
        self.banned: Dict[str, float] = {}
        self._forced: List[List[Any]] = []  # [method, compiled path pattern, times left, scope, retry_after]
        #: every request counted against the global limit: (time, bot token, method, path)
        self.global_counted: List[Tuple[float, str, str, str]] = []
        self.clock = time.monotonic

    # -- classification
    @staticmethod
    def route_of(method: str, path: str) -> Optional[Tuple[str, str]]:
        """``(route name, top-level resource)`` of a bucketed route, or None."""
        for m, pattern, name in ROUTES:
            if m == method:
                match = pattern.fullmatch(path)
                if match:
                    return name, (match.group(1) if match.groups() else "")
        return None

    def counts_globally(self, path: str) -> bool:
        return not is_interaction_endpoint(path, self.application_id)

    # -- test hooks
    def limit_resource(self, resource: str, seconds: float) -> None:
        """Discord says a resource (e.g. ``"channels/123"``) is busy for everyone for ``seconds``:
        its requests are answered 429 with ``X-RateLimit-Scope: shared``."""
        self._shared[resource] = self.clock() + seconds

    def force(self, method: str, path: str, times: int, *, scope: str = "global", retry_after: float = 0.05) -> None:
        """The next ``times`` requests ``method path`` (a regular expression over the path after ``/api/v10/``)
        are answered 429 of ``scope``, as when other work of the bot's (another process, say) spent the budget:
        to see what the bot does when Discord says "slow down" more than its HTTP client retries."""
        self._forced.append([method, re.compile(path), times, scope, retry_after])

    # -- checking
    def check(self, token: str, method: str, path: str) -> Optional[Tuple[int, Dict[str, str], Any]]:
        """None if the request may go on, else the answer ``(status, headers, body)``: a 429."""
        if not self.limits.enabled:
            return None
        now = self.clock()
        if token in self.banned:
            return 429, {"Content-Type": "text/plain"}, "error code: 1015"  # Cloudflare's ban page
        for forced in self._forced:
            if forced[2] > 0 and forced[0] == method and forced[1].fullmatch(path):
                forced[2] -= 1
                scope, retry = forced[3], forced[4]
                headers = {**self._retry_headers(retry), "X-RateLimit-Scope": scope}
                if scope == "global":
                    headers["X-RateLimit-Global"] = "true"
                return 429, headers, {"message": "You are being rate limited.", "retry_after": retry,
                                      "global": scope == "global"}
        for resource, until in list(self._shared.items()):
            if until <= now:
                del self._shared[resource]
            elif path == resource or path.startswith(resource + "/"):
                retry = until - now
                return 429, {**self._retry_headers(retry), "X-RateLimit-Scope": "shared"}, {
                    "message": "The resource is being rate limited.", "retry_after": round(retry, 3),
                    "global": False}
        if self.counts_globally(path):
            window = self._global.setdefault(token, deque())
            while window and window[0] <= now - self.limits.global_window:
                window.popleft()
            if len(window) >= self.limits.global_limit:
                retry = window[0] + self.limits.global_window - now
                headers = {**self._retry_headers(retry), "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return 429, headers, {"message": "You are being rate limited.", "retry_after": round(retry, 3),
                                      "global": True}
        route = self.route_of(method, path)
        if route is not None and route[0] in self.limits.routes:
            bucket = self._bucket(token, *route, now)
            if bucket.used >= bucket.limit:
                retry = bucket.opened + bucket.per - now
                headers = {**self._bucket_headers(route[0], bucket, now), **self._retry_headers(retry),
                           "X-RateLimit-Scope": "user"}
                return 429, headers, {"message": "You are being rate limited.", "retry_after": round(retry, 3),
                                      "global": False}
            bucket.used += 1
        if self.counts_globally(path):
            self._global[token].append(now)
            self.global_counted.append((now, token, method, path))
        return None

    def headers(self, token: str, method: str, path: str) -> Dict[str, str]:
        """The rate-limit headers of an answer on a bucketed route (none on the others)."""
        route = self.route_of(method, path)
        if not self.limits.enabled or route is None or route[0] not in self.limits.routes:
            return {}
        now = self.clock()
        return self._bucket_headers(route[0], self._bucket(token, *route, now), now)

    def invalid(self, token: str, status: int, scope: Optional[str]) -> None:
        """Count an answer: 401, 403 and 429 (not ``shared``) are invalid requests."""
        if status not in (401, 403, 429) or scope == "shared" or token in self.banned:
            return
        now = self.clock()
        window = self._invalid.setdefault(token, deque())
        window.append(now)
        while window and window[0] <= now - self.limits.invalid_window:
            window.popleft()
        if len(window) >= self.limits.invalid_limit:
            self.banned[token] = now

    def invalid_count(self, token: Optional[str] = None) -> int:
        """Invalid requests in the last ten minutes (of one token, or all)."""
        now = self.clock()
        windows = [self._invalid.get(token, deque())] if token else list(self._invalid.values())
        return sum(1 for w in windows for t in w if t > now - self.limits.invalid_window)

    def global_peak(self, window: Optional[float] = None, token: str = "Bot fake-token") -> int:
        """The most requests of one bot token counted against the global limit in any ``window`` seconds so far."""
        window = self.limits.global_window if window is None else window
        times = [t for t, who, _, _ in self.global_counted if who == token]
        best, start = 0, 0
        for end, t in enumerate(times):
            while times[start] <= t - window:
                start += 1
            best = max(best, end - start + 1)
        return best

    # -- helpers
    def _bucket(self, token: str, name: str, resource: str, now: float) -> _Bucket:
        key = (token, name, resource)
        bucket = self._buckets.get(key)
        if bucket is None:
            limit, per = self.limits.routes[name]
            bucket = self._buckets[key] = _Bucket(limit, per)
        if bucket.used == 0 or now >= bucket.opened + bucket.per:
            bucket.opened, bucket.used = now, 0
        return bucket

    @staticmethod
    def _bucket_headers(name: str, bucket: _Bucket, now: float) -> Dict[str, str]:
        reset_after = max(0.0, bucket.opened + bucket.per - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.md5(name.encode()).hexdigest(),
        }

    @staticmethod
    def _retry_headers(retry: float) -> Dict[str, str]:
        # Discord's answers pass through its proxy, which adds ``Via`` (discord.py takes a 429 without it for a
        # Cloudflare ban and gives up); ``Retry-After`` is in whole seconds, the body's ``retry_after`` exact.
        return {"Retry-After": str(max(1, int(retry + 0.999))), "Via": "1.1 google"}
