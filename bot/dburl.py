"""A database URL's parts that are safe to show: the password hidden in logs, messages and errors."""
from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit, urlunsplit


def is_postgres_url(url: str | None) -> bool:
    """Whether ``url`` names a PostgreSQL database (postgresql:// or postgres://)."""
    return url is not None and url.split(":", 1)[0] in ("postgresql", "postgres")


_SECRET_PARAM = re.compile(r"(?i)((?:^|&)(?:password|sslpassword)=)[^&]*")


def redact(url: str) -> str:
    """The URL without its password (in its user part or its query string), for logs and messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not even a URL's shape: show none of it
        return "(the URL in HEISTCORD_DATABASE_URL)"
    netloc = parts.netloc if password is None else parts.netloc.replace(f":{password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc, query=_SECRET_PARAM.sub(r"\1***", parts.query)))


def scrub(text: str, url: str) -> str:
    """``text`` (an error's message) with every password of ``url`` hidden."""
    secrets = [m.group(0).split("=", 1)[1] for m in _SECRET_PARAM.finditer(urlsplit(url).query)]
    with contextlib.suppress(ValueError):
        secrets.append(urlsplit(url).password or "")
    for secret in filter(None, secrets):
        text = text.replace(secret, "***")
    return text
