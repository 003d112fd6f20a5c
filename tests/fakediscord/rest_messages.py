"""REST routes for channel messages (create, read, history, edit, delete) and the shared
message bookkeeping: content and attachments, recording public payloads, MESSAGE_* events."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from . import limits as _limits
from .records import (
    EPHEMERAL,
    INTENT_DM_MESSAGES,
    INTENT_GUILD_MESSAGES,
    LOADING,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    InteractionRecord,
    RecordedMessage,
    _now_iso,
)
from .rest import _error, _json_response, _no_content


class MessageRoutesMixin:
    """Channel message routes and message bookkeeping."""

    # -- messages
    def _apply_content(self, m: RecordedMessage, payload: dict, files: List[Tuple[int, str, bytes]], *, editing: bool) -> None:
        payload = payload or {}
        if "content" in payload:
            m.content = payload["content"] or ""
        if "embeds" in payload:
            m.embeds = list(payload["embeds"] or [])
        elif "embed" in payload:
            m.embeds = [payload["embed"]] if payload["embed"] else []
        if "components" in payload:
            m.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = m.flags & (EPHEMERAL) if editing else 0
            m.flags = (int(payload["flags"]) & ~LOADING) | keep
        by_index = {idx: (name, data) for idx, name, data in files}
        new_atts: List[Tuple[dict, Tuple[str, bytes]]] = []
        existing = {int(a["id"]): (a, f) for a, f in zip(m.attachments, m.files)}
        if "attachments" in payload and payload["attachments"] is not None:
            for a in payload["attachments"]:
                aid = int(a["id"])
                if aid in by_index:  # new upload, referenced by its files[n] index
                    name, data = by_index.pop(aid)
                    new_atts.append(self._make_attachment(a.get("filename") or name, data, a))
                elif aid in existing:  # kept existing attachment (snowflake id)
                    new_atts.append(existing[aid])
            for idx, (name, data) in sorted(by_index.items()):  # files not mentioned in attachments
                new_atts.append(self._make_attachment(name, data, {}))
        else:
            new_atts = list(existing.values()) if editing else []
            for idx, (name, data) in sorted(by_index.items()):
                new_atts.append(self._make_attachment(name, data, {}))
        m.attachments = [a for a, _ in new_atts]
        m.files = [f for _, f in new_atts]
        record = dict(payload)
        if files:
            record["_files"] = [(n, b) for _, n, b in files]
        m.history.append(record)
        if editing:
            m.edited = True
            m.edited_timestamp = _now_iso()

    def _make_attachment(self, filename: str, data: bytes, meta: dict) -> Tuple[dict, Tuple[str, bytes]]:
        aid = self.snowflake()
        self._attachment_blobs[aid] = (filename, data)
        url = f"{self.base_url}/attachments/{aid}/{filename}"
        a = {
            "id": str(aid),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
        }
        if meta.get("description"):
            a["description"] = meta["description"]
        if filename.lower().endswith(".png"):
            a["content_type"] = "image/png"
        return a, (filename, data)

    def _new_message(self, channel_id: int, payload: dict, files, *, kind: str, author_id: Optional[int] = None,
                     interaction: Optional[InteractionRecord] = None, msg_type: int = 0) -> RecordedMessage:
        ch = self.channels[channel_id]
        m = RecordedMessage(
            id=self.snowflake(), channel_id=channel_id, guild_id=ch.guild_id,
            author_id=self.bot_user.id if author_id is None else author_id, kind=kind, type=msg_type,
        )
        if interaction is not None:
            m.interaction_id = interaction.id
            m.webhook_id = self.application_id
            m.application_id = self.application_id
        self._apply_content(m, payload, files, editing=False)
        self.messages[m.id] = m
        self._tell("message", m)
        return m

    def _record_if_public(self, m: RecordedMessage, payload: Any, files) -> None:
        if m.guild_id is not None and not m.ephemeral:
            self._record_public(payload, [(n, b) for _, n, b in files])

    async def _dispatch_message(self, event: str, m: RecordedMessage) -> None:
        if not self.dispatch_message_events or m.ephemeral:
            return
        intent = INTENT_DM_MESSAGES if m.guild_id is None else INTENT_GUILD_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict = {"id": str(m.id), "channel_id": str(m.channel_id)}
            if m.guild_id is not None:
                data["guild_id"] = str(m.guild_id)
        else:
            data = self.message_payload(m)
            if m.guild_id is not None and m.author_id in self.guilds[m.guild_id].members:
                data["member"] = self._member_payload(m.guild_id, m.author_id, with_user=False)
        await self.dispatch(event, data, intent=intent)

    async def _r_post_message(self, request, body, files, cid):
        cid = int(cid)
        ch = self.channels.get(cid)
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        if cid in self.bot_denied:
            code = self.bot_denied[cid]
            return _error(403, code, "Missing Permissions" if code == 50013 else "Missing Access")
        if ch.type == 1:
            user = self.users[ch.recipient_id]
            if user.dms_closed:
                self.blocked_dms.append((user.id, body))
                return _error(403, 50007, "Cannot send messages to this user")
        if not body.get("content") and not body.get("embeds") and not files and not body.get("components") \
                and not body.get("sticker_ids") and not body.get("poll"):
            return _error(400, 50006, "Cannot send an empty message")
        if ch.is_thread:
            if not self.bot_can(ch.guild_id, SEND_MESSAGES_IN_THREADS):
                return _error(403, 50013, "Missing Permissions")
            if self._locked_to_bot(ch):
                return _error(403, 160005, "Thread is locked")
            if ch.archived:  # "Sending a message will automatically unarchive the thread, unless ... locked"
                if ch.locked:
                    return _error(400, 50083, "Thread is archived")
                await self._unarchive(ch)
        m = self._new_message(cid, body, files, kind="dm" if ch.type == 1 else "channel")
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE", m)
        return _json_response(self.message_payload(m))

    async def _r_history(self, request, body, files, cid):
        cid = int(cid)
        if cid not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.channel_messages(cid, include_ephemeral=False)]
        before = request.query.get("before")
        after = request.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
        msgs.sort(key=lambda m: m.id, reverse=True)
        return _json_response([self.message_payload(m) for m in msgs[:limit]])

    def _locked_to_bot(self, ch) -> bool:
        """A thread a moderator locked (and left open): only members who may Manage Threads post or edit there."""
        return ch.is_thread and ch.locked and not ch.archived and not self.bot_can(ch.guild_id, MANAGE_THREADS)

    def _in_archived_thread(self, m: RecordedMessage) -> bool:
        ch = self.channels.get(m.channel_id)
        return ch is not None and ch.is_thread and ch.archived

    def _channel_message(self, cid: str, mid: str) -> Optional[RecordedMessage]:
        m = self.messages.get(int(mid))
        if m is None or m.deleted or m.channel_id != int(cid) or m.ephemeral:
            return None
        return m

    async def _r_get_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        return _json_response(self.message_payload(m)) if m else _error(404, 10008, "Unknown Message")

    async def _r_edit_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        if m is None:
            return _error(404, 10008, "Unknown Message")
        if m.author_id != self.bot_user.id:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        if m.channel_id in self.bot_denied:
            code = self.bot_denied[m.channel_id]
            return _error(403, code, "Missing Permissions" if code == 50013 else "Missing Access")
        if self._locked_to_bot(self.channels[m.channel_id]):
            return _error(403, 160005, "Thread is locked")
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        if self._in_archived_thread(m):  # "Users cannot edit messages ... in archived threads"
            return _error(400, 50083, "Thread is archived")
        self._apply_content(m, body or {}, files, editing=True)
        self._tell("edit", m)
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_UPDATE", m)
        return _json_response(self.message_payload(m))

    async def _r_delete_message(self, request, body, files, cid, mid):
        if int(cid) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        m = self._channel_message(cid, mid)
        if m is None:
            return _error(404, 10008, "Unknown Message")
        m.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", m)
        return _no_content()
