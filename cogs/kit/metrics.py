"""What the bot counts while it runs, in Prometheus's terms (prometheus-client), for `/metrics`.

Opt-in: the bot carries a `Metrics` only when HTTP_PORT is set (bot.py), and every hook here does
nothing for a bot without one (`metrics_of`), so an unwatched bot pays nothing. Each bot has its own
registry: a test process runs many bots, and each counts its own.

Where the figures come from:

- interactions: the bot stamps each one as it arrives (`received`, from the gateway's dispatch);
  `answered` takes the moment its first answer reached Discord (the callback request, seen by the
  HTTP trace) for the answer latency; `outcome` counts it once: applied (the default, counted when
  its handling ended or, for a handler that says nothing, `SETTLED` seconds after it came), refused,
  stale (a board or control outdated by the time it was pressed) or failed (an error of ours, or an
  answer too late for Discord);
- Discord requests by route and status: the aiohttp trace on discord.py's session (`http_trace`),
  ids and tokens taken out of the path, so a route is a handful of label values;
- games finished and the database's write latency of a move: the table machinery tells;
- tables open and each shard's gateway latency are read when scraped (`readings`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Literal

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

Outcome = Literal["applied", "refused", "stale", "failed"]
SETTLED = 15.0
"""Seconds after which an interaction nobody gave an outcome counts as applied: Discord wants its
answer within 3 s, and a failure is answered (and counted) on the way."""
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

_ID = re.compile(r"^\d+$")
_TOKENED = ("interactions", "webhooks")  # /interactions/<id>/<token>/…, /webhooks/<app id>/<token>/…


def route_of(path: str) -> str:
    """A request's path as a route: the API version dropped, ids as {id}, interaction and webhook
    tokens as {token} (15-minute credentials: never a label)."""
    parts = [part for part in path.split("/") if part]
    if len(parts) >= 2 and parts[0] == "api" and parts[1].startswith("v"):
        parts = parts[2:]
    shaped: list[str] = []
    for index, part in enumerate(parts):
        if index >= 2 and parts[index - 2] in _TOKENED and _ID.match(parts[index - 1]):
            shaped.append("{token}")
        elif _ID.match(part):
            shaped.append("{id}")
        else:
            shaped.append(part)
    return "/" + "/".join(shaped)


_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def kind_of(interaction: discord.Interaction) -> str:
    """slash, button, select, modal, autocomplete (or the type's name for anything newer)."""
    kind = interaction.type
    if kind is discord.InteractionType.application_command:
        return "slash"
    if kind is discord.InteractionType.component:
        data = interaction.data or {}
        return "button" if data.get("component_type") == discord.ComponentType.button.value else "select"
    if kind is discord.InteractionType.modal_submit:
        return "modal"
    if kind is discord.InteractionType.autocomplete:
        return "autocomplete"
    return kind.name


@dataclass(slots=True)
class _Pending:
    kind: str
    received: float
    counted: bool = False
    answered: bool = False


Readings = Callable[[], Iterable[Metric]]


class _Readings(Collector):
    """The figures read when scraped, from the sources the bot and its cogs registered."""

    def __init__(self) -> None:
        self.sources: list[Readings] = []

    def collect(self) -> Iterable[Metric]:
        for source in self.sources:
            yield from source()


class Metrics:
    """One bot's figures and the registry `/metrics` writes out."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=False)
        self.interactions = Counter(
            "sushibar_interactions",
            "Interactions handled, by kind (slash, button, select, modal, autocomplete) and outcome "
            "(applied, refused, stale, failed)",
            ["kind", "outcome"],
            registry=registry,
        )
        self.answer_seconds = Histogram(
            "sushibar_answer_seconds",
            "Seconds from an interaction's arrival to its first answer reaching Discord, by kind",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.discord_requests = Counter(
            "sushibar_discord_requests",
            "Requests to Discord's HTTP API, by method, route (ids and tokens left out) and status "
            "(429: rate limited; error: no answer)",
            ["method", "route", "status"],
            registry=registry,
        )
        self.games_finished = Counter(
            "sushibar_games_finished", "Games played to their end, by game", ["game"], registry=registry
        )
        self.database_write_seconds = Histogram(
            "sushibar_database_write_seconds",
            "Seconds a move's commit took (state, action log and results in one transaction)",
            buckets=WRITE_BUCKETS,
            registry=registry,
        )
        self._readings = _Readings()
        registry.register(self._readings)
        self._pending: dict[int, _Pending] = {}  # by interaction id, oldest first

    # ------------------------------------------------------------ interactions

    def received(self, interaction: discord.Interaction) -> None:
        self._settle(time.perf_counter())
        self._pending[interaction.id] = _Pending(kind_of(interaction), time.perf_counter())

    def answered(self, interaction_id: int) -> None:
        pending = self._pending.get(interaction_id)
        if pending is None or pending.answered:
            return
        pending.answered = True
        self.answer_seconds.labels(pending.kind).observe(time.perf_counter() - pending.received)
        if pending.counted:
            del self._pending[interaction_id]

    def outcome(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Count the interaction with this outcome; only the first outcome given counts."""
        pending = self._pending.get(interaction.id)
        if pending is None:  # arrived before metrics were on, or counted already and answered
            return
        if not pending.counted:
            pending.counted = True
            self.interactions.labels(pending.kind, outcome).inc()
        if pending.answered:
            del self._pending[interaction.id]

    def _settle(self, moment: float) -> None:
        """Interactions older than SETTLED: counted as applied if nobody said otherwise, forgotten."""
        while self._pending:
            interaction_id, pending = next(iter(self._pending.items()))
            if moment - pending.received < SETTLED:
                return
            del self._pending[interaction_id]
            if not pending.counted:
                self.interactions.labels(pending.kind, "applied").inc()

    # ------------------------------------------------------------ scraping

    def read(self, source: Readings) -> None:
        """Add figures read at every scrape (a source yields prometheus_client metric families)."""
        self._readings.sources.append(source)

    def exposition(self) -> bytes:
        """Every figure in Prometheus's text format."""
        self._settle(time.perf_counter())
        return generate_latest(self.registry)

    # ------------------------------------------------------------ Discord's HTTP API

    def http_trace(self) -> aiohttp.TraceConfig:
        """The trace for discord.py's HTTP session (`discord.Client(http_trace=...)`): every request
        counted by route and status, and an interaction's callback timed as its answer."""
        trace = aiohttp.TraceConfig()

        async def ended(
            _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            self._request(params.method, params.url.path, str(params.response.status))
            if params.method == "POST" and params.response.status < 400:
                found = _CALLBACK.search(params.url.path)
                if found:
                    self.answered(int(found.group(1)))

        async def failed(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestExceptionParams,
        ) -> None:
            self._request(params.method, params.url.path, "error")

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    def _request(self, method: str, path: str, status: str) -> None:
        if path.startswith("/api/") or path.startswith("/interactions/"):  # not the gateway's socket
            self.discord_requests.labels(method, route_of(path), status).inc()


def metrics_of(client: object) -> Metrics | None:
    """The client's metrics; None when it carries none (HTTP_PORT unset, or no Sushi Bar)."""
    metrics = getattr(client, "metrics", None)
    return metrics if isinstance(metrics, Metrics) else None


def count_outcome(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Count how an interaction ended, if its bot keeps metrics."""
    metrics = metrics_of(interaction.client)
    if metrics is not None:
        metrics.outcome(interaction, outcome)


def gauge(name: str, documentation: str, label: str, values: Mapping[str, float]) -> GaugeMetricFamily:
    """A gauge family of one label, for a `Metrics.read` source."""
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for key, value in sorted(values.items()):
        family.add_metric([key], value)
    return family
