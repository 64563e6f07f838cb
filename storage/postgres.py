"""PostgreSQL through an asyncpg pool: several bot processes may share one database.

Statements are the stores' own SQL with `?` rewritten to `$1..$n`. Transactions run at READ
COMMITTED: a version-guarded `UPDATE … WHERE id = $1 AND version = $2` waits for a concurrent
writer's row lock and then sees the new version, so the second writer changes nothing and is
refused as stale. Migrations run under a transaction-scoped advisory lock, so starters racing on a
new database apply each migration once.

Notifications (LISTEN/NOTIFY) tell other processes of a committed change: `notify` inside a
transaction is delivered on commit only, and so is a `pg_notify` a single statement SELECTs
(`chained_notify`: a move's save, its log and its announcement in one round trip). Listening holds
ONE connection of its own (pooled ones never LISTEN), re-opened when it is lost.

Round trips are what a statement costs here, so none is spent on nothing: a connection goes back
to the pool without asyncpg's reset query (no session state is ever set on one: see `_Pooled`),
and a statement sent alone is its own transaction, without BEGIN and COMMIT.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.database import Conflict, Database, DatabaseProblem, Executor, Row, newer_schema
from storage.schema import statements

log = logging.getLogger(__name__)

T = TypeVar("T")
_Connection = asyncpg.Connection | PoolConnectionProxy

MIGRATION_LOCK = 0x5375736869  # pg_advisory_xact_lock key of migrations ("Sushi")
CONNECT_TIMEOUT = 10  # seconds
RECONNECT_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0)  # then every 2 s: a listener back soon, no hammering
_AFFECTED = re.compile(r"(\d+)$")
# The pool's size: each shard's events run on this process's one event loop, and a statement holds a
# connection for its one round trip (a transaction, rare, for its length), so a few per shard are
# plenty; capped so that several processes, each with its listening connection, stay well within
# PostgreSQL's default max_connections (100): four processes of 20 + 1 take 84.
POOL_BASE, POOL_PER_SHARD, POOL_CAP = 4, 2, 20


def pool_size(shards: int = 1) -> int:
    """The most connections a process running `shards` shards keeps: 4 + 2 × shards, at most 20
    (unsharded, one shard: 6)."""
    return min(POOL_CAP, POOL_BASE + POOL_PER_SHARD * max(1, shards))


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as asyncpg's `$1..$n` (the stores' SQL holds no `?` inside strings)."""
    count = 0

    def next_number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", next_number, sql)


def redacted(url: str) -> str:
    """The URL as it may be printed or logged: without its password."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[-1]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return "(DATABASE_URL, unreadable)"


def _affected(status: str) -> int:
    """Rows changed, from asyncpg's command tag ('UPDATE 1', 'INSERT 0 3', 'DELETE 0')."""
    found = _AFFECTED.search(status or "")
    return int(found.group(1)) if found else 0


class _Pooled(asyncpg.Connection):
    """A pooled connection released without a reset query (asyncpg's default costs a round trip at
    every release: `SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL;`). Nothing
    here sets what it resets: no session settings, advisory locks only transaction-scoped, no cursor
    outside a transaction, no LISTEN (the listener has a connection of its own). An open transaction
    is still rolled back on release (asyncpg does that apart from the query)."""

    def get_reset_query(self) -> str:
        return ""


class _On(Executor):
    """Statements on one connection (inside its transaction)."""

    def __init__(self, connection: _Connection) -> None:
        self._connection = connection

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            return cast(Row | None, await self._connection.fetchrow(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:  # INSERT … RETURNING
            raise Conflict(str(error)) from error

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return cast(list[Row], await self._connection.fetch(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:  # INSERT … RETURNING
            raise Conflict(str(error)) from error

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _affected(await self._connection.execute(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:
            raise Conflict(str(error)) from error

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        try:
            await self._connection.executemany(numbered(sql), rows)
        except asyncpg.UniqueViolationError as error:
            raise Conflict(str(error)) from error

    async def notify(self, channel: str, payload: str) -> None:
        await self._connection.execute("SELECT pg_notify($1, $2)", channel, payload)


class PostgresDatabase(Database):
    migrations_package = "storage.migrations.postgres"
    shared = True
    skip_locked = " FOR UPDATE SKIP LOCKED"
    chained_notify = "pg_notify(?, ?)"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.where = redacted(url)  # named in messages, never with its password
        self._url = url  # the listening connection is opened (and re-opened) outside the pool
        self._callbacks: dict[str, list[Callable[[str], None]]] = {}
        self._gap_callbacks: list[Callable[[], None]] = []  # told after a reconnect
        self._listener: asyncpg.Connection | None = None
        self._listening = asyncio.Lock()  # one listening connection, however many listen at once
        self._reconnect: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, max_size: int | None = None) -> PostgresDatabase:
        """Connect a pool of at most `max_size` connections (`pool_size()` by default) to the URL
        and migrate; raises `DatabaseProblem` (one paragraph, no password) for a URL that cannot be
        used or a server that cannot be reached."""
        where = redacted(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max_size or pool_size(),
                timeout=CONNECT_TIMEOUT,
                # No idle-connection reaper: it arms and cancels a timer at every release (every
                # query), and a few connections at most may as well stay open.
                max_inactive_connection_lifetime=0,
                connection_class=_Pooled,
            )
        except BaseException as error:
            problem = _explain(where, error)
            if problem is None:
                raise
            raise DatabaseProblem(problem) from None  # the driver's text may quote the URL
        database = cls(pool, url)
        try:
            await database.migrate()
        except BaseException:
            await database.close()
            raise
        return database

    async def _close(self) -> None:
        self._closed = True
        self._stop_reconnecting()
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                await asyncio.wait_for(listener.close(), timeout=5)
            except (TimeoutError, OSError, asyncpg.InterfaceError):
                listener.terminate()
        try:
            await asyncio.wait_for(self.pool.close(), timeout=10)
        except TimeoutError:
            self.pool.terminate()

    def terminate(self) -> None:
        """Drop every connection at once, as a process that dies would (for tests): no clean close,
        no reconnecting afterwards."""
        self._closed = True
        self._stop_reconnecting()
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.terminate()
        self.pool.terminate()

    # ------------------------------------------------------------ notifications

    async def notify(self, channel: str, payload: str) -> None:
        async with self.pool.acquire() as connection:
            await _On(connection).notify(channel, payload)

    async def listen(
        self, channel: str, callback: Callable[[str], None], on_gap: Callable[[], None] | None = None
    ) -> bool:
        if self._closed:
            raise RuntimeError("listen on a closed database")
        if on_gap is not None:
            self._gap_callbacks.append(on_gap)
        async with self._listening:
            known = channel in self._callbacks
            self._callbacks.setdefault(channel, []).append(callback)
            try:
                if self._listener is None:
                    if self._reconnect is None:  # not listening yet (a reconnect re-LISTENs all)
                        self._listener = await self._connect_listener()
                elif not known:
                    await self._listener.add_listener(channel, self._dispatch)
            except BaseException:
                self._callbacks[channel].remove(callback)
                if not self._callbacks[channel]:
                    del self._callbacks[channel]
                raise
        return True

    async def _connect_listener(self) -> asyncpg.Connection:
        """A new listening connection, LISTENing on every channel a callback waits on."""
        connection = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
        try:
            for channel in self._callbacks:
                await connection.add_listener(channel, self._dispatch)
        except BaseException:
            connection.terminate()
            raise
        connection.add_termination_listener(self._lost)
        return connection

    def _dispatch(self, _connection: object, _pid: int, channel: str, payload: str) -> None:
        for callback in list(self._callbacks.get(channel, ())):
            try:
                callback(payload)
            except Exception:  # one listener's bug must not silence the others
                log.exception("a listener of %s failed on %r", channel, payload)

    def _lost(self, connection: object) -> None:
        """The termination listener: a lost (not closed) listening connection is re-opened."""
        if self._closed or connection is not self._listener:
            return
        self._listener = None
        log.warning(
            "the listening connection to PostgreSQL at %s was lost; reconnecting (notifications "
            "sent meanwhile are missed)",
            self.where,
        )
        self._reconnect = asyncio.get_running_loop().create_task(self._reconnecting())

    async def _reconnecting(self) -> None:
        attempt = 0
        try:
            while not self._closed:
                await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1
                async with self._listening:
                    try:
                        connection = await self._connect_listener()
                    except Exception as error:  # warned once already; the server may be restarting
                        log.debug("reconnecting the listener failed: %s", type(error).__name__)
                        continue
                    if self._closed:
                        connection.terminate()
                        return
                    self._listener = connection
                log.info("listening to PostgreSQL at %s again (after %d attempts)", self.where, attempt)
                for on_gap in list(self._gap_callbacks):  # what was sent meanwhile is lost: say so
                    try:
                        on_gap()
                    except Exception:
                        log.exception("a listener failed to catch up after a reconnect")
                return
        finally:
            self._reconnect = None

    def _stop_reconnecting(self) -> None:
        if self._reconnect is not None:
            self._reconnect.cancel()
            self._reconnect = None

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self.pool.acquire() as connection:
            return await _On(connection).fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.pool.acquire() as connection:
            return await _On(connection).fetch_all(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.pool.acquire() as connection:
            return await _On(connection).execute(sql, params)

    async def execute_returning(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # Sent alone: PostgreSQL runs one statement as its own transaction, no BEGIN or COMMIT sent.
        async with self.pool.acquire() as connection:
            return await _On(connection).fetch_all(sql, params)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.atomic(lambda executor: executor.execute_many(sql, rows))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self.pool.acquire() as connection, connection.transaction():
            yield _On(connection)

    async def atomic(self, body: Callable[[Executor], Awaitable[T]]) -> T:
        async with self.transaction() as executor:
            return await body(executor)

    def json_text(self, expression: str, key: str) -> str:
        return f"(({expression})::jsonb ->> '{key}')"

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self) -> int:
        """Apply the migrations newer than the database, in one transaction that holds the
        migration lock: a second starter waits for it, then finds nothing left to do."""
        known = self.migrations()
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (number INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            current = await _version(connection)
            if current > len(known):
                raise newer_schema(self.where, current, len(known))
            for number, name, sql in known:
                if number <= current:
                    continue
                for statement in statements(sql):
                    await connection.execute(statement)
                await connection.execute(
                    "INSERT INTO schema_version (number, name) VALUES ($1, $2)", number, name
                )
                log.info("applied migration postgres/%s", name)
                current = number
        return current


async def _version(connection: _Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_version") or 0)


def _explain(where: str, error: BaseException) -> str | None:
    """Why the server at `where` cannot be used, as one paragraph; None for an error to pass on."""
    fix = "Check DATABASE_URL (see .env.example)."
    if isinstance(error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {where} refused the user or password in DATABASE_URL. {fix}"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return (
            f"PostgreSQL at {where} has no such database. Create it (createdb, or CREATE DATABASE) "
            f"or name another. {fix}"
        )
    if isinstance(error, asyncpg.PostgresError):
        return f"PostgreSQL at {where} refused the connection ({type(error).__name__}). {fix}"
    if isinstance(error, OSError | TimeoutError):
        reason = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
        return (
            f"PostgreSQL at {where} cannot be reached ({reason}). Is the server running and is the "
            f"host and port right? {fix}"
        )
    if isinstance(error, ValueError | asyncpg.InterfaceError):
        return f"DATABASE_URL ({where}) is not a usable PostgreSQL URL. {fix}"
    return None
