"""The fake Discord throttles like Discord (tests/fakediscord/ratelimits.py): the global limit per bot token with
the interaction endpoints exempt, per-route buckets by top-level resource with their headers, 429 answers with the
documented body and headers, shared limits, invalid requests counted up to the IP ban, and what an interaction
token may create and edit (its original response and its own follow-ups, for 15 minutes)."""
from __future__ import annotations

import aiohttp

from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RateLimits

GUILD, CHANNEL, OTHER, USER = 1, 10, 11, 50
BOT = {"Authorization": "Bot fake-token"}


def world(fake: FakeDiscord) -> None:
    fake.add_user(USER, "ann")
    fake.add_guild(GUILD, owner_id=USER)
    fake.add_channel(GUILD, CHANNEL, "one")
    fake.add_channel(GUILD, OTHER, "two")
    fake.add_member(GUILD, USER)


async def post(session, fake, path, body=None, headers=BOT, method="POST"):
    async with session.request(method, f"{fake.base_url}/api/v10/{path}", json=body or {"content": "hi"},
                               headers=headers) as response:
        data = await response.json(content_type=None) if response.status != 204 else None
        return response.status, dict(response.headers), data


async def test_channel_messages_have_a_bucket_per_channel_with_its_headers_and_a_user_429_past_it(fake_discord):
    fake = fake_discord
    world(fake)
    fake.expect_rate_limits = True
    async with aiohttp.ClientSession() as session:
        answers = [await post(session, fake, f"channels/{CHANNEL}/messages") for _ in range(6)]
        other = await post(session, fake, f"channels/{OTHER}/messages")
    assert [a[0] for a in answers] == [200] * 5 + [429]
    first, last_ok, limited = answers[0][1], answers[4][1], answers[5]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert last_ok["X-RateLimit-Remaining"] == "0" and 0 < float(last_ok["X-RateLimit-Reset-After"]) <= 5
    assert first["X-RateLimit-Bucket"] == last_ok["X-RateLimit-Bucket"]
    status, headers, body = limited
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and int(headers["Retry-After"]) >= 1
    assert body["global"] is False and 0 < body["retry_after"] <= 5 and body["message"]
    assert other[0] == 200, "another channel is another bucket"
    assert fake.rate_limited == [{"method": "POST", "path": f"channels/{CHANNEL}/messages", "scope": "user",
                                  "retry_after": body["retry_after"]}]
    assert fake.throttle.invalid_count() == 1


async def test_the_global_limit_counts_every_route_of_the_token_but_not_the_interaction_endpoints(fake_discord):
    fake = fake_discord
    world(fake)
    fake.throttle.limits.global_limit = 8
    fake.throttle.limits.routes.clear()
    fake.expect_rate_limits = True
    async with aiohttp.ClientSession() as session:
        codes = [(await post(session, fake, f"channels/{CHANNEL + n % 2}/messages"))[0] for n in range(8)]
        status, headers, body = await post(session, fake, "users/@me/channels", {"recipient_id": USER})
        # Interaction endpoints are not bound to it: a follow-up still goes (an unknown token: 404, not 429).
        followup = await post(session, fake, f"webhooks/{fake.application_id}/some-token")
        # Another bot token has its own global limit.
        other = await post(session, fake, f"channels/{CHANNEL}/messages", headers={"Authorization": "Bot other"})
    assert codes == [200] * 8
    assert status == 429 and headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true"
    assert body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert followup[0] == 404 and other[0] == 200
    assert fake.throttle.global_peak() == 8


async def test_a_shared_limit_is_not_an_invalid_request_and_a_ban_follows_too_many(fake_discord):
    fake = fake_discord
    world(fake)
    fake.expect_rate_limits = True
    fake.throttle.limit_resource(f"channels/{CHANNEL}", 30)
    fake.throttle.limits.invalid_limit = 3
    async with aiohttp.ClientSession() as session:
        status, headers, body = await post(session, fake, f"channels/{CHANNEL}/messages")
        assert status == 429 and headers["X-RateLimit-Scope"] == "shared" and body["global"] is False
        assert fake.throttle.invalid_count() == 0
        for _ in range(3):  # 403s: the bot can't send there
            fake.deny_bot(OTHER)
            assert (await post(session, fake, f"channels/{OTHER}/messages"))[0] == 403
        async with session.get(f"{fake.base_url}/api/v10/users/@me", headers=BOT) as response:
            assert response.status == 429 and "Via" not in response.headers  # banned: Cloudflare answers
            assert "1015" in await response.text()


async def test_an_interaction_token_edits_only_its_own_messages_for_fifteen_minutes(fake_discord):
    fake = fake_discord
    world(fake)
    fake.add_channel(GUILD, 12, "three")
    first = fake.post_as_bot(CHANNEL, {"content": "board", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Play", "custom_id": "play"}]}]})
    other = fake.post_as_bot(CHANNEL, {"content": "someone else's"})
    rec = await _interaction(fake, first)
    app = fake.application_id
    async with aiohttp.ClientSession() as session:
        # Before the callback the token can do nothing; a deferred update makes the clicked message "@original".
        assert (await post(session, fake, f"webhooks/{app}/{rec.token}", headers={}))[0] == 404
        await post(session, fake, f"interactions/{rec.id}/{rec.token}/callback", {"type": 6}, headers={})
        status, _, followup = await post(session, fake, f"webhooks/{app}/{rec.token}", {"content": "new board"},
                                         headers={})
        assert status == 200
        edit = {"content": "edited"}
        for target, expected in (("@original", 200), (followup["id"], 200), (str(other.id), 404)):
            assert (await post(session, fake, f"webhooks/{app}/{rec.token}/messages/{target}", edit, headers={},
                               method="PATCH"))[0] == expected, target
        assert first.content == "edited" and other.content == "someone else's"
        rec.created_at -= 15 * 60 + 1  # 15 minutes later the token is gone
        status, _, body = await post(session, fake, f"webhooks/{app}/{rec.token}/messages/@original", edit,
                                     headers={}, method="PATCH")
        assert status == 401 and body["code"] == 50027


async def _interaction(fake, message):
    from tests.fakediscord.records import InteractionRecord

    payload = fake._base_interaction(3, USER, fake.channels[message.channel_id], {"custom_id": "play",
                                                                                  "component_type": 2})
    payload["message"] = fake.message_payload(message)
    rec = InteractionRecord(fake, payload, message)
    fake.interactions[rec.id] = rec
    fake._interactions_by_token[rec.token] = rec
    return rec


def test_the_defaults_are_discords_global_limit_and_the_commonly_observed_buckets():
    limits = RateLimits()
    assert (limits.global_limit, limits.global_window) == (50, 1.0)
    assert limits.routes["create message"] == (5, 5.0) and limits.routes["edit message"] == (5, 5.0)
    assert limits.invalid_limit == 10_000 and limits.invalid_window == 600.0
