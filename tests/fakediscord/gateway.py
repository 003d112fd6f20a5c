"""The websocket gateway: sessions, IDENTIFY/READY/GUILD_CREATE, heartbeats, member chunks,
sharding, and dispatching events to connected bots."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any, Dict, List, Optional, Tuple

from aiohttp import WSMsgType, web

from .records import PRIVILEGED_INTENTS, _Guild, _Session


class GatewayMixin:
    """The gateway side of the fake: sessions and event dispatch."""

    # ---------------------------------------------------------------- gateway
    def _live_sessions(self) -> List[_Session]:
        return [s for s in self._sessions if s.identified and not s.ws.closed]

    @property
    def connected(self) -> bool:
        return bool(self._live_sessions())

    async def _send(self, s: _Session, op: int, d: Any, t: Optional[str] = None) -> bool:
        async with s.lock:
            if s.ws.closed:
                return False
            msg: Dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
            if op == 0:
                s.seq += 1
                msg["s"] = s.seq
            try:
                await s.ws.send_str(json.dumps(msg))
            except (ConnectionError, RuntimeError):
                return False
            return True

    async def dispatch(self, event: str, data: dict, *, intent: int = 0, latest_only: bool = False) -> int:
        """Send a DISPATCH event to connected bot sessions (those whose intents include ``intent``,
        on the event's guild's shard). Returns the number of sessions it was sent to."""
        self._last_activity = time.monotonic()
        sessions = self._sessions_on_shard(self._live_sessions(), data, event)
        if latest_only:
            sessions = sessions[-1:]
        n = 0
        for s in sessions:
            if intent and not (s.intents & intent):
                continue
            if await self._send(s, 0, data, event):
                n += 1
        return n

    # ---------------------------------------------------------------- sharding
    # Discord's sharding: IDENTIFY may carry ``shard: [shard_id, num_shards]``; a session then
    # gets only the guilds with ``(guild_id >> 22) % num_shards == shard_id`` (in READY, as
    # GUILD_CREATE, and their events), and DMs only on shard 0. An invalid shard closes the
    # connection with 4010; a session that would hold more than 2,500 guilds with 4011
    # (sharding required). GET /gateway/bot recommends about one shard per 1,000 guilds.
    MAX_GUILDS_PER_SESSION = 2500
    GUILDS_PER_RECOMMENDED_SHARD = 1000
    #: a test may set the shard count that GET /gateway/bot recommends
    recommended_shards: Optional[int] = None

    @staticmethod
    def shard_for(guild_id: int, num_shards: int) -> int:
        return (int(guild_id) >> 22) % num_shards

    def recommended_shard_count(self) -> int:
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self.guilds) // self.GUILDS_PER_RECOMMENDED_SHARD))

    def session_has_guild(self, s: _Session, guild_id: Optional[int]) -> bool:
        """Whether events of ``guild_id`` (None: a DM) go to session ``s``."""
        shard_id, num_shards = s.shard
        return shard_id == 0 if guild_id is None else self.shard_for(guild_id, num_shards) == shard_id

    def session_guilds(self, s: _Session) -> List[_Guild]:
        """The guilds on session ``s``'s shard."""
        return [g for g in self.guilds.values() if self.session_has_guild(s, g.id)]

    def _sessions_on_shard(self, sessions: List[_Session], data: Any, event: str = "") -> List[_Session]:
        """The sessions that get an event: its guild's shard; DMs and other events shard 0."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        if guild_id is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            guild_id = data.get("id")
        return [s for s in sessions if self.session_has_guild(s, None if guild_id is None else int(guild_id))]

    def _identify_shard_refusal(self, d: dict) -> Optional[Tuple[int, str]]:
        """(close code, reason) when IDENTIFY's shard is not acceptable, else None."""
        shard = d.get("shard", [0, 1])
        if not (isinstance(shard, list) and len(shard) == 2 and all(type(x) is int for x in shard)
                and 0 <= shard[0] < shard[1]):
            return 4010, "Invalid shard."
        held = sum(1 for gid in self.guilds if self.shard_for(gid, shard[1]) == shard[0])
        if held > self.MAX_GUILDS_PER_SESSION:
            return 4011, "Sharding required."
        return None

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        s = _Session(ws)
        self._sessions.append(s)
        await self._send(s, 10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_received.append(payload)
                op, d = payload.get("op"), payload.get("d")
                if op == 1:
                    await self._send(s, 11, None)
                elif op == 2:
                    await self._identify(s, d)
                elif op == 6:
                    # No resume support: invalidate -> the client re-IDENTIFYs.
                    await self._send(s, 9, False)
                elif op == 8:
                    await self._request_members(s, d)
                # op 3 presence, 4 voice: ignored
        finally:
            self._notify()
        return ws

    async def _identify(self, s: _Session, d: dict) -> None:
        if self.valid_token is not None and d.get("token") != self.valid_token:
            await s.ws.close(code=4004, message=b"Authentication failed.")
            return
        if int(d.get("intents") or 0) & PRIVILEGED_INTENTS & ~self.portal_intents:
            await s.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        refusal = self._identify_shard_refusal(d)
        if refusal is not None:
            await s.ws.close(code=refusal[0], message=refusal[1].encode())
            return
        s.shard = tuple(d.get("shard", [0, 1]))  # type: ignore[assignment]
        s.intents = int(d.get("intents", 0))
        s.session_id = secrets.token_hex(16)
        s.identified = True
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.session_guilds(s)],
            "session_id": s.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "session_type": "normal",
            "auth_session_id_hash": "",
            "_trace": ["fakediscord"],
        }
        if d.get("shard"):
            ready["shard"] = d["shard"]
        await self._send(s, 0, ready, "READY")
        for g in self.session_guilds(s):
            await self._send(s, 0, self._guild_payload(g, s.intents), "GUILD_CREATE")
        self._tell("ready", s)
        self._notify()

    async def _request_members(self, s: _Session, d: dict) -> None:
        gid = int(d["guild_id"])
        g = self.guilds.get(gid)
        if g is None:
            return
        user_ids = d.get("user_ids")
        not_found: List[str] = []
        if user_ids:
            if not isinstance(user_ids, list):
                user_ids = [user_ids]
            ids = []
            for u in user_ids:
                (ids if int(u) in g.members else not_found).append(int(u))
            not_found = [str(x) for x in not_found]
        else:
            query = (d.get("query") or "").lower()
            ids = [uid for uid in g.members if self.users[uid].name.lower().startswith(query)]
            if d.get("limit"):
                ids = ids[: int(d["limit"])]
        chunk = {
            "guild_id": str(gid),
            "members": [self._member_payload(gid, uid) for uid in ids],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await self._send(s, 0, chunk, "GUILD_MEMBERS_CHUNK")
