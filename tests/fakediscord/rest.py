"""The REST front door: the route table, body parsing, request recording, 404s for what is
not implemented, Discord's 400 answer for a body over a documented limit, and the simple GETs."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any, Callable, List, Tuple

from aiohttp import web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from . import limits as _limits

# The logger keeps the name it had when the fake was one module.
_log = logging.getLogger(__name__.rpartition(".")[0] + ".server")



def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py checks ``content-type == 'application/json'`` exactly (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"code": code, "message": message}, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


class RestMixin:
    """Routing REST requests to the handlers of the other REST modules."""

    # ------------------------------------------------------------------ REST
    def _build_routes(self) -> List[Tuple[str, "re.Pattern[str]", Callable]]:
        r = [
            ("GET", r"users/@me", self._r_me),
            ("GET", r"users/(\d+)", self._r_get_user),
            ("POST", r"users/@me/channels", self._r_create_dm),
            ("GET", r"oauth2/applications/@me", self._r_app),
            ("GET", r"applications/@me", self._r_app),
            ("GET", r"gateway/bot", self._r_gateway_bot),
            ("GET", r"gateway", self._r_gateway),
            ("PUT", r"applications/(\d+)/commands", self._r_put_global_commands),
            ("GET", r"applications/(\d+)/commands", self._r_get_global_commands),
            ("PUT", r"applications/(\d+)/guilds/(\d+)/commands", self._r_put_guild_commands),
            ("GET", r"applications/(\d+)/guilds/(\d+)/commands", self._r_get_guild_commands),
            ("GET", r"channels/(\d+)", self._r_get_channel),
            ("POST", r"channels/(\d+)/messages", self._r_post_message),
            ("GET", r"channels/(\d+)/messages", self._r_history),
            ("GET", r"channels/(\d+)/messages/(\d+)", self._r_get_message),
            ("PATCH", r"channels/(\d+)/messages/(\d+)", self._r_edit_message),
            ("DELETE", r"channels/(\d+)/messages/(\d+)", self._r_delete_message),
            ("POST", r"channels/(\d+)/typing", self._r_typing),
            ("POST", r"channels/(\d+)/messages/(\d+)/threads", self._r_start_thread),
            ("PUT", r"channels/(\d+)/thread-members/(\d+)", self._r_add_thread_member),
            ("PATCH", r"channels/(\d+)", self._r_edit_channel),
            ("GET", r"guilds/(\d+)", self._r_get_guild),
            ("GET", r"guilds/(\d+)/channels", self._r_get_guild_channels),
            ("GET", r"guilds/(\d+)/roles", self._r_get_roles),
            ("GET", r"guilds/(\d+)/members/(\d+)", self._r_get_member),
            ("POST", r"interactions/(\d+)/([^/]+)/callback", self._r_callback),
            ("POST", r"webhooks/(\d+)/([^/]+)", self._r_followup),
            ("GET", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_get),
            ("PATCH", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_edit),
            ("DELETE", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._r_webhook_delete),
        ]
        return [(m, re.compile(p + r"/?"), f) for m, p, f in r]

    async def _unknown_handler(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path, None))
        self._notify()
        return _error(404, 0, "404: Not Found")

    async def _attachment_handler(self, request: web.Request) -> web.Response:
        blob = self._attachment_blobs.get(int(request.match_info["id"]))
        if blob is None:
            return _error(404, 0, "404: Not Found")
        return web.Response(body=blob[1], headers={"Content-Type": "application/octet-stream"})

    async def _read_body(self, request: web.Request) -> Tuple[Any, List[Tuple[int, str, bytes]]]:
        """Returns (json payload or None, [(file_index, filename, bytes)])."""
        ctype = request.headers.get("Content-Type", "")
        files: List[Tuple[int, str, bytes]] = []
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                # aiohttp's own parser, run once for the part's name and file name (``part.name`` and
                # ``part.filename`` each parse the header again; each parse costs ~0.3 ms under load)
                _, params = parse_content_disposition(part.headers.get("Content-Disposition"))
                name = content_disposition_filename(params, "name") or ""
                data = await part.read()
                if name == "payload_json":
                    payload = json.loads(data.decode())
                else:
                    m = re.match(r"files\[(\d+)\]", name)
                    idx = int(m.group(1)) if m else len(files)
                    files.append((idx, content_disposition_filename(params, "filename") or name, bytes(data)))
            return payload, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode("utf-8", "replace"), []

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        path = request.match_info["tail"]
        self._inflight += 1
        self._last_activity = time.monotonic()
        try:
            return await self._rest_dispatch(request, path)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
            self._notify()

    async def _rest_dispatch(self, request: web.Request, path: str) -> web.StreamResponse:
        try:
            body, files = await self._read_body(request)
        except Exception as exc:  # pragma: no cover - defensive
            return _error(400, 50109, f"bad body: {exc}")
        path = path.rstrip("/")
        token = request.headers.get("Authorization", "")
        record = {"method": request.method, "path": path, "query": dict(request.query), "json": body,
                  "files": [(n, b) for _, n, b in files], "global": self.throttle.counts_globally(path)}
        self.requests.append(record)
        limited = self.throttle.check(token, request.method, path)
        if limited is not None:
            status, headers, data = limited
            record["status"] = status
            self._rate_limited(request.method, path, headers, data)
            self.throttle.invalid(token, status, headers.get("X-RateLimit-Scope"))
            if isinstance(data, str):
                return web.Response(text=data, status=status, headers=headers)
            response = _json_response(data, status)
            response.headers.update(headers)
            return response
        response = await self._route(request, path, body, files)
        record["status"] = response.status
        self.throttle.invalid(token, response.status, None)
        response.headers.update(self.throttle.headers(token, request.method, path))
        return response

    def _rate_limited(self, method: str, path: str, headers: dict, data: Any) -> None:
        entry = {"method": method, "path": path, "scope": headers.get("X-RateLimit-Scope", "ban"),
                 "retry_after": data.get("retry_after") if isinstance(data, dict) else None}
        self.rate_limited.append(entry)
        if not self.expect_rate_limits:
            _log.warning("fake Discord answered 429 (%s) to %s %s", entry["scope"], method, path)

    async def _route(self, request: web.Request, path: str, body: Any, files: list) -> web.StreamResponse:
        for method, pattern, func in self._routes:
            if method != request.method:
                continue
            m = pattern.fullmatch(path)
            if m:
                try:
                    resp = await func(request, body, files, *m.groups())
                finally:
                    self._notify()
                return resp
        self.unhandled.append((request.method, "/" + path, body))
        self._notify()
        return _error(404, 0, "404: Not Found")

    def _invalid(self, request: web.Request, errors: "_limits.FormErrors") -> web.Response:
        """Discord's answer to a body that breaks a documented limit."""
        self.rejected.append({"method": request.method, "path": request.path, "errors": list(errors.flat)})
        _log.warning("fake Discord refused %s %s: %s", request.method, request.path, "; ".join(errors.flat))
        return _json_response(_limits.error_body(errors), 400)

    # -- simple GETs
    async def _r_me(self, request, body, files):
        if self.valid_token is not None and request.headers.get("Authorization") != f"Bot {self.valid_token}":
            return _error(401, 0, "401: Unauthorized")  # (discord.py's login: LoginFailure)
        return _json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0,
                               "email": None, "locale": "en-US"})

    async def _r_get_user(self, request, body, files, uid):
        u = self.users.get(int(uid))
        return _json_response(u.payload()) if u else _error(404, 10013, "Unknown User")

    async def _r_app(self, request, body, files):
        return _json_response(self._app_payload())

    async def _r_gateway_bot(self, request, body, files):
        return _json_response({"url": self.gateway_url.rstrip("/"), "shards": self.recommended_shard_count(), "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def _r_gateway(self, request, body, files):
        return _json_response({"url": self.gateway_url.rstrip("/")})
