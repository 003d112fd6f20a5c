"""Which store the settings choose: SQLite (the embedded default) or PostgreSQL, an optional extra
(``pip install 'heistcord[postgres]'``) imported only when ``HEISTCORD_DATABASE_URL`` asks for it."""
from __future__ import annotations

from typing import Any

from bot.storage import Storage, StorageError

NO_POSTGRES = ("HEISTCORD_DATABASE_URL is set, but PostgreSQL support isn't installed: install it with"
               " pip install 'heistcord[postgres]' (or unset HEISTCORD_DATABASE_URL to use SQLite).")


def postgres_module() -> Any:
    """``bot.storage_pg``, or StorageError saying how to install the extra if asyncpg is missing."""
    try:
        import bot.storage_pg as storage_pg
    except ModuleNotFoundError as exc:
        if exc.name != "asyncpg":
            raise
        raise StorageError(NO_POSTGRES) from None
    return storage_pg


def make_storage(db_path: str, database_url: str | None = None, **kwargs: Any) -> Storage:
    """The backend the settings choose: PostgreSQL when ``database_url`` is set, else SQLite."""
    if database_url:
        pg_storage: Storage = postgres_module().PgStorage(database_url, **kwargs)
        return pg_storage
    return Storage(db_path, **kwargs)
