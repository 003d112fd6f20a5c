"""The driver: what tests call to act as users (slash commands, autocomplete, clicks, selects,
modals, plain messages, members joining and leaving)."""

from __future__ import annotations

import secrets
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from .records import (
    INTENT_DM_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUBCOMMAND,
    OPT_USER,
    InteractionRecord,
    RecordedMessage,
    _Channel,
)


class DriverMixin:
    """Acting as Discord users towards the bot."""

    async def remove_member(self, guild_id: int, user_id: int) -> None:
        """Remove a member and dispatch GUILD_MEMBER_REMOVE (to sessions with the members intent)."""
        self.guilds[guild_id].members.pop(user_id, None)
        await self.dispatch(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild_id), "user": self.users[user_id].payload()},
            intent=INTENT_GUILD_MEMBERS,
        )

    async def member_join(self, guild_id: int, user_id: int, permissions: Optional[int] = None, roles: Iterable[int] = ()) -> None:
        """Add a member and dispatch GUILD_MEMBER_ADD."""
        self.add_member(guild_id, user_id, permissions, roles)
        await self.dispatch(
            "GUILD_MEMBER_ADD", {**self._member_payload(guild_id, user_id), "guild_id": str(guild_id)},
            intent=INTENT_GUILD_MEMBERS,
        )

    async def send_user_message(self, user_id: int, channel_id: int, content: str) -> RecordedMessage:
        """A user posts a plain message (dispatches MESSAGE_CREATE)."""
        ch = self.channels[channel_id]
        m = self._new_message(channel_id, {"content": content}, [], kind="dm" if ch.type == 1 else "channel", author_id=user_id)
        data = self.message_payload(m)
        intent = INTENT_DM_MESSAGES if ch.type == 1 else INTENT_GUILD_MESSAGES
        if ch.guild_id is not None:
            data["member"] = self._member_payload(ch.guild_id, user_id, with_user=False)
        for s in self._sessions_on_shard(self._live_sessions(), data, "MESSAGE_CREATE"):
            if not s.intents & intent:
                continue
            d = dict(data)
            mentioned = f"<@{self.bot_user.id}>" in content or f"<@!{self.bot_user.id}>" in content
            if ch.type != 1 and not (s.intents & INTENT_MESSAGE_CONTENT) and not mentioned:
                d["content"] = ""
            await self._send(s, 0, d, "MESSAGE_CREATE")
        return m

    # ------------------------------------------------------- driving as users
    def _find_command(self, channel: _Channel, name: str) -> Tuple[dict, bool]:
        if channel.guild_id is not None:
            for c in self.guild_commands.get(channel.guild_id, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c, True
        for c in self.global_commands:
            if c["name"] == name and c.get("type", 1) == 1:
                return c, False
        synced = [c["name"] for c in self.global_commands] + [
            f"{c['name']} (guild {gid})" for gid, cs in self.guild_commands.items() for c in cs
        ]
        raise LookupError(f"slash command {name!r} not synced; synced commands: {synced}")

    def _resolve_channel(self, channel_id: Union[int, str], user_id: int) -> _Channel:
        if channel_id == "dm":
            channel_id = self.dm_channel_id(user_id)
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise LookupError(f"unknown channel {channel_id}")
        if ch.type == 1 and ch.recipient_id != user_id:
            raise ValueError(f"channel {channel_id} is the DM channel of user {ch.recipient_id}, not {user_id}")
        if ch.guild_id is not None and user_id not in self.guilds[ch.guild_id].members:
            raise ValueError(f"user {user_id} is not a member of guild {ch.guild_id}")
        return ch

    def _base_interaction(self, itype: int, user_id: int, ch: _Channel, data: dict) -> dict:
        iid = self.snowflake()
        p: Dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(ch.id),
            "channel": ch.payload(self),
            "token": "fake-itoken-" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 25 * 1024 * 1024,
        }
        if ch.guild_id is not None:
            g = self.guilds[ch.guild_id]
            perms = str(self.member_permissions(g.id, user_id))
            p["guild_id"] = str(g.id)
            p["guild"] = {"id": str(g.id), "locale": "en-US", "features": []}
            p["guild_locale"] = "en-US"
            p["member"] = self._member_payload(g.id, user_id, with_perms=True)
            p["channel"]["permissions"] = perms
            p["app_permissions"] = str(g.bot_permissions)
            p["authorizing_integration_owners"] = {"0": str(g.id)}
            p["context"] = 0
        else:
            p["user"] = self.users[user_id].payload()
            p["app_permissions"] = str(0x0000_0000_0006_4C40)
            p["authorizing_integration_owners"] = {"0": "0"}
            p["context"] = 1
        return p

    async def _send_interaction(self, payload: dict, source: Optional[RecordedMessage] = None) -> InteractionRecord:
        rec = InteractionRecord(self, payload, source)
        self.interactions[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        n = await self.dispatch("INTERACTION_CREATE", payload, latest_only=True)
        if n == 0:
            raise RuntimeError("no bot is connected to the fake gateway")
        return rec

    def _resolve_option_value(self, opt: dict, value: Any, resolved: dict, ch: _Channel, autocomplete: bool) -> Any:
        t = opt["type"]
        guild_id = ch.guild_id

        def _id(v: Any) -> int:
            return int(getattr(v, "id", v))

        if autocomplete and t in (OPT_STRING, OPT_INTEGER, OPT_NUMBER):
            return str(value)
        if t == OPT_STRING:
            value = str(value)
            # Discord's client sends at most 6000 characters (or the option's max_length).
            high = min(6000, opt.get("max_length") or 6000)
            if not (opt.get("min_length") or 0) <= len(value) <= high:
                raise ValueError(f"option {opt['name']!r} takes {opt.get('min_length') or 0}..{high} characters")
        elif t == OPT_INTEGER:
            if isinstance(value, bool) or int(value) != value:
                raise TypeError(f"option {opt['name']!r} needs an integer, got {value!r}")
            value = int(value)
        elif t == OPT_NUMBER:
            value = float(value)
        elif t == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {opt['name']!r} needs a bool, got {value!r}")
        elif t in (OPT_USER, OPT_MENTIONABLE) and (t == OPT_USER or _id(value) in self.users):
            uid = _id(value)
            if uid not in self.users:
                raise LookupError(f"unknown user {uid}")
            resolved.setdefault("users", {})[str(uid)] = self.users[uid].payload()
            if guild_id is not None and uid in self.guilds[guild_id].members:
                resolved.setdefault("members", {})[str(uid)] = self._member_payload(guild_id, uid, with_user=False, with_perms=True)
            value = str(uid)
        elif t in (OPT_ROLE, OPT_MENTIONABLE):
            rid = _id(value)
            if guild_id is None or rid not in self.guilds[guild_id].roles:
                raise LookupError(f"unknown role {rid}")
            resolved.setdefault("roles", {})[str(rid)] = self.guilds[guild_id].roles[rid].payload()
            value = str(rid)
        elif t == OPT_CHANNEL:
            cid = _id(value)
            c = self.channels.get(cid)
            if c is None:
                raise LookupError(f"unknown channel {cid}")
            if opt.get("channel_types") and c.type not in opt["channel_types"]:
                raise ValueError(f"channel {cid} type {c.type} not allowed for {opt['name']!r}")
            cp = c.payload(self)
            cp["permissions"] = str(self.member_permissions(guild_id, self.bot_user.id)) if guild_id else "0"
            resolved.setdefault("channels", {})[str(cid)] = cp
            value = str(cid)
        elif t == OPT_ATTACHMENT:
            filename, data = value
            att, _ = self._make_attachment(filename, data, {})
            resolved.setdefault("attachments", {})[att["id"]] = att
            value = att["id"]
        else:
            raise TypeError(f"unsupported option type {t}")
        if opt.get("choices") and not autocomplete:
            allowed = [c["value"] for c in opt["choices"]]
            if value not in allowed:
                raise ValueError(f"{value!r} is not a choice of option {opt['name']!r}: {allowed}")
        if t in (OPT_INTEGER, OPT_NUMBER) and not autocomplete:
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"{opt['name']!r}={value} < min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"{opt['name']!r}={value} > max_value {opt['max_value']}")
        return value

    def _build_command_data(
        self, ch: _Channel, path: str, options: Optional[dict], focused: Optional[str]
    ) -> dict:
        names = path.split()
        if not names:
            raise ValueError("empty command path")
        cmd, is_guild = self._find_command(ch, names[0])
        if is_guild is False and ch.type == 1 and cmd.get("contexts") is not None and 1 not in cmd["contexts"]:
            raise ValueError(f"command {names[0]!r} is not available in DMs (contexts={cmd['contexts']})")
        if ch.type == 1 and cmd.get("dm_permission") is False:
            raise ValueError(f"command {names[0]!r} is not available in DMs (dm_permission=false)")
        data: Dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if is_guild:
            data["guild_id"] = str(ch.guild_id)
        schema = cmd.get("options") or []
        container: List[dict] = []
        data["options"] = container
        for sub in names[1:]:
            opt = next((o for o in schema if o["name"] == sub and o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)), None)
            if opt is None:
                raise LookupError(f"no subcommand/group {sub!r} in {path!r}; have {[o['name'] for o in schema]}")
            new: List[dict] = []
            container.append({"name": sub, "type": opt["type"], "options": new})
            container = new
            schema = opt.get("options") or []
        if any(o["type"] in (OPT_SUBCOMMAND, OPT_GROUP) for o in schema):
            raise ValueError(f"{path!r} is a group; pick a subcommand: {[o['name'] for o in schema]}")
        options = dict(options or {})
        resolved: Dict[str, Any] = {}
        for o in schema:
            if o["name"] in options:
                is_focused = focused == o["name"]
                value = self._resolve_option_value(o, options.pop(o["name"]), resolved, ch, autocomplete=is_focused)
                entry = {"name": o["name"], "type": o["type"], "value": value}
                if is_focused:
                    entry["focused"] = True
                container.append(entry)
            elif o.get("required") and focused is None:
                raise ValueError(f"required option {o['name']!r} missing for {path!r}")
        if options:
            raise LookupError(f"unknown option(s) {list(options)} for {path!r}; have {[o['name'] for o in schema]}")
        if focused is not None and not any(e.get("focused") for e in container):
            raise ValueError(f"focused option {focused!r} must be given in options")
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user_id: int, channel_id: Union[int, str], command: str, options: Optional[dict] = None) -> InteractionRecord:
        """Invoke a synced slash command as ``user_id`` (channel may be ``"dm"`` for the user's DM)."""
        ch = self._resolve_channel(channel_id, user_id)
        if ch.is_thread and ch.archived:
            raise ValueError(f"thread {ch.id} is archived: Discord users cannot use slash commands in it")
        data = self._build_command_data(ch, command, options, None)
        return await self._send_interaction(self._base_interaction(2, user_id, ch, data))

    async def autocomplete(self, user_id: int, channel_id: Union[int, str], command: str, options: dict, focused: str,
                           timeout: float = 5) -> List[dict]:
        """Send an autocomplete interaction and return the bot's choices list."""
        ch = self._resolve_channel(channel_id, user_id)
        data = self._build_command_data(ch, command, options, focused)
        rec = await self._send_interaction(self._base_interaction(4, user_id, ch, data))
        resp = await rec.response(timeout)
        if resp["type"] != 8:
            raise AssertionError(f"autocomplete answered with callback type {resp['type']}")
        return list(resp.get("data", {}).get("choices", []))

    def post_as_bot(self, channel_id: int, payload: dict) -> RecordedMessage:
        """A message the bot posted earlier (say, an older version of it), put straight
        into the channel: to press buttons the current bot would never build."""
        m = self._new_message(channel_id, payload, [], kind="channel")
        return m

    def _message_obj(self, message: Union[RecordedMessage, int, InteractionRecord]) -> RecordedMessage:
        if isinstance(message, InteractionRecord):
            if message.original is None:
                raise ValueError(f"{message!r} produced no message")
            message = message.original
        if isinstance(message, int):
            message = self.messages[message]
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        return message

    async def click(self, user_id: int, message: Union[RecordedMessage, int, InteractionRecord], custom_id: str,
                    *, force: bool = False) -> InteractionRecord:
        """Press the button ``custom_id`` on a recorded message."""
        m = self._message_obj(message)
        comp = self.find_components(m, custom_id=custom_id, type=2)
        if not comp and not force:
            self.find_component(m, custom_id=custom_id, type=2)  # raises with details
        if comp and comp[0].get("disabled") and not force:
            raise ValueError(f"button {custom_id!r} is disabled")
        return await self._component_interaction(user_id, m, {"custom_id": custom_id, "component_type": 2})

    async def select(self, user_id: int, message: Union[RecordedMessage, int, InteractionRecord], custom_id: str,
                     values: List[Any], *, force: bool = False) -> InteractionRecord:
        """Pick ``values`` in the select menu ``custom_id`` (string select: option values; user/role/channel
        selects: ids)."""
        m = self._message_obj(message)
        comps = self.find_components(m, custom_id=custom_id)
        if not comps and not force:
            self.find_component(m, custom_id=custom_id)
        ctype = comps[0]["type"] if comps else 3
        if comps and not force:
            c = comps[0]
            if c.get("disabled"):
                raise ValueError(f"select {custom_id!r} is disabled")
            if ctype == 3:
                allowed = [o["value"] for o in c.get("options", [])]
                bad = [v for v in values if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} not among options {allowed} of {custom_id!r}")
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not (lo <= len(values) <= hi):
                raise ValueError(f"{len(values)} values given; select {custom_id!r} takes {lo}..{hi}")
        data: Dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "values": [str(getattr(v, 'id', v)) for v in values]}
        if ctype in (5, 6, 7, 8):
            resolved: Dict[str, Any] = {}
            ch = self.channels[m.channel_id]
            type_map = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_MENTIONABLE, 8: OPT_CHANNEL}
            for v in values:
                self._resolve_option_value({"name": custom_id, "type": type_map[ctype]}, v, resolved, ch, False)
            data["resolved"] = resolved
        return await self._component_interaction(user_id, m, data)

    async def _component_interaction(self, user_id: int, m: RecordedMessage, data: dict) -> InteractionRecord:
        ch = self._resolve_channel(m.channel_id, user_id)
        if m.ephemeral and m.interaction_id in self.interactions:
            owner = self.interactions[m.interaction_id].user_id
            if owner != user_id:
                raise ValueError(f"message {m.id} is ephemeral and only visible to user {owner}")
        payload = self._base_interaction(3, user_id, ch, data)
        payload["message"] = self.message_payload(m)
        return await self._send_interaction(payload, m)

    async def submit_modal(self, user_id: int, rec: InteractionRecord, values: Dict[str, Any]) -> InteractionRecord:
        """Submit the modal the bot opened in response to ``rec`` with ``{custom_id: value}``
        (text inputs take a str, selects a list of str)."""
        modal = rec.modal
        if modal is None:
            raise ValueError(f"{rec!r} did not respond with a modal")
        values = dict(values)

        def conv(c: dict) -> Optional[dict]:
            t = c.get("type")
            if t == 1:
                inner = [x for x in (conv(y) for y in c.get("components", [])) if x]
                return {"type": 1, "components": inner}
            if t == 18:
                inner = conv(c["component"]) if c.get("component") else None
                return {"type": 18, "component": inner} if inner else None
            cid = c.get("custom_id")
            if cid is None:
                return None
            if t == 4:
                v = values.pop(cid, c.get("value") or "")
                if c.get("required", True) and not v:
                    raise ValueError(f"text input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(v)}
            v = values.pop(cid, [])
            return {"type": t, "custom_id": cid, "values": [str(x) for x in v]}

        comps = [x for x in (conv(c) for c in modal.get("components", [])) if x]
        if values:
            raise LookupError(f"modal has no inputs {list(values)}")
        ch = self.channels[rec.channel_id]
        payload = self._base_interaction(5, user_id, ch, {"custom_id": modal["custom_id"], "components": comps})
        if rec.source_message is not None:
            payload["message"] = self.message_payload(rec.source_message)
        return await self._send_interaction(payload, rec.source_message)
