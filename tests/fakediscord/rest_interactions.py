"""REST routes for interaction callbacks (with the 3-second deadline and the one-response rule)
and the interaction webhook: follow-ups and edits or deletes of the original response."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, Optional

from . import limits as _limits
from .records import EPHEMERAL, LOADING, InteractionRecord, RecordedMessage
from .rest import _error, _json_response, _no_content


class InteractionRoutesMixin:
    """Interaction callback and webhook routes."""

    # -- interactions
    async def _r_callback(self, request, body, files, iid, token):
        rec = self.interactions.get(int(iid))
        if rec is None or rec.token != token:
            return _error(404, 10062, "Unknown interaction")
        if rec.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if asyncio.get_running_loop().time() - rec.created_at > self.initial_response_deadline:
            self.expired.append(rec)
            return _error(404, 10062, "Unknown interaction")
        body = body or {}
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        if cb_type in (4, 7):
            errors = _limits.check_message(data, len(files), ["data"])
        elif cb_type == 8:
            errors = _limits.check_choices(data.get("choices"))
        elif cb_type == 9:
            errors = _limits.check_modal(data)
        else:
            errors = _limits.FormErrors()
        if errors:
            return self._invalid(request, errors)
        recorded = dict(body)
        if files:
            recorded["data"] = {**data, "_files": [(n, b) for _, n, b in files]}
        resource: Dict[str, Any] = {"type": cb_type}
        msg: Optional[RecordedMessage] = None
        if cb_type == 1:
            pass
        elif cb_type == 4:
            msg = self._new_message(rec.channel_id, data, files, kind="interaction", interaction=rec,
                                    msg_type=20 if rec.type == 2 else 0)
            rec.original = msg
            self._record_if_public(msg, data, files)
        elif cb_type == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(rec.channel_id, {"content": ""}, [], kind="interaction", interaction=rec,
                                    msg_type=20 if rec.type == 2 else 0)
            msg.flags = flags
            rec.original = msg
        elif cb_type in (6, 7):
            if rec.source_message is None:
                return _error(400, 50035, "Invalid Form Body (no message to update)")
            rec.original = rec.source_message
            if cb_type == 7:
                msg = rec.source_message
                self._apply_content(msg, data, files, editing=True)
                self._record_if_public(msg, data, files)
        elif cb_type == 8:
            if rec.type != 4:
                return _error(400, 50035, "Invalid Form Body (autocomplete response to non-autocomplete)")
        elif cb_type == 9:
            if rec.type == 5:
                return _error(400, 50035, "Invalid Form Body (modal in response to modal)")
        else:
            return _error(400, 50035, f"Invalid Form Body (callback type {cb_type})")
        rec.callback = recorded
        if not rec._response_fut.done():
            rec._response_fut.set_result(recorded)
        self._tell("callback", rec)
        if msg is not None:
            resource["message"] = self.message_payload(msg)
            await self._dispatch_message("MESSAGE_UPDATE" if cb_type == 7 else "MESSAGE_CREATE", msg)
        out = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "activity_instance_id": None,
                "response_message_id": str(rec.original.id) if rec.original else None,
                "response_message_loading": cb_type == 5,
                "response_message_ephemeral": bool(rec.original and rec.original.ephemeral),
            },
            "resource": resource,
        }
        return _json_response(out)

    def _rec_by_token(self, app_id: str, token: str) -> Optional[InteractionRecord]:
        if int(app_id) != self.application_id:
            return None
        return self._interactions_by_token.get(token)

    def _token_expired(self, rec: Optional[InteractionRecord]) -> bool:
        """Interaction tokens are valid for 15 minutes (Receiving and Responding § Followup Messages)."""
        return rec is not None and asyncio.get_running_loop().time() - rec.created_at > self.interaction_token_lifetime

    async def _r_followup(self, request, body, files, app_id, token):
        rec = self._rec_by_token(app_id, token)
        if rec is None:
            return _error(404, 10015, "Unknown Webhook")
        if self._token_expired(rec):
            return _error(401, 50027, "Invalid Webhook Token")
        if rec.callback is None:
            return _error(404, 10015, "Unknown Webhook")  # Discord: token valid only after the callback
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        ch = self.channels.get(rec.channel_id)
        if ch is not None and ch.is_thread and ch.archived:  # a message sent unarchives the thread, unless locked
            if ch.locked:
                return _error(400, 50083, "Thread is archived")
            await self._unarchive(ch)
        orig = rec.original
        if orig is not None and orig.loading and rec.callback["type"] == 5:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message.
            self._apply_content(orig, {k: v for k, v in body.items() if k != "flags"}, files, editing=True)
            orig.flags &= ~LOADING
            m = orig
        else:
            m = self._new_message(rec.channel_id, body, files, kind="followup", interaction=rec)
        rec.followups.append(m)
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE", m)
        return _json_response(self.message_payload(m))

    def _webhook_target(self, rec: InteractionRecord, mid: str) -> Optional[RecordedMessage]:
        if mid == "@original":
            m = rec.original
        else:
            m = self.messages.get(int(mid))
            if m is not None and m is not rec.original and m.interaction_id != rec.id:
                m = None
        if m is None or m.deleted:
            return None
        return m

    async def _r_webhook_get(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        if self._token_expired(rec):
            return _error(401, 50027, "Invalid Webhook Token")
        m = self._webhook_target(rec, mid) if rec else None
        return _json_response(self.message_payload(m)) if m else _error(404, 10008, "Unknown Message")

    async def _r_webhook_edit(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        if self._token_expired(rec):
            return _error(401, 50027, "Invalid Webhook Token")
        m = self._webhook_target(rec, mid) if rec else None
        if m is None:
            return _error(404, 10008, "Unknown Message")
        body = body or {}
        errors = _limits.check_message(body, len(files))
        if errors:
            return self._invalid(request, errors)
        if self._in_archived_thread(m):  # "Users cannot edit messages ... in archived threads"
            return _error(400, 50083, "Thread is archived")
        was_loading = m.loading
        self._apply_content(m, body, files, editing=True)
        m.flags &= ~LOADING
        rec.edits.append({"message_id": m.id, "original": mid == "@original" or m is rec.original,
                          "payload": body, "files": [(n, b) for _, n, b in files]})
        self._tell("edit", m)
        self._record_if_public(m, body, files)
        await self._dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", m)
        return _json_response(self.message_payload(m))

    async def _r_webhook_delete(self, request, body, files, app_id, token, mid):
        rec = self._rec_by_token(app_id, token)
        if self._token_expired(rec):
            return _error(401, 50027, "Invalid Webhook Token")
        m = self._webhook_target(rec, mid) if rec else None
        if m is None:
            return _error(404, 10008, "Unknown Message")
        m.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", m)
        return _no_content()
