"""What ``/metrics`` tells a monitoring system, in the Prometheus text format (``prometheus_client``).

One registry per hub (so several apps in one test process never share counters):

- ``farmtable_decisions_total``: decisions and undos this process stored (``rate()`` gives decisions/s);
- ``farmtable_tables_in_memory``, ``farmtable_sockets``, ``farmtable_ai_leases_held``: gauges read when scraped;
- ``farmtable_push_latency_seconds``: from the moment this process knows of a change (it stored it, or a
  notification told it) to the update being written to a WebSocket;
- ``farmtable_notifications_total`` and ``farmtable_notify_delay_seconds``: table changes announced by
  PostgreSQL ``NOTIFY`` (all processes, this one included) and, for other processes' changes, the delay
  from their commit to this process reading it (the sender's clock: meaningful on one machine or with NTP);
- ``farmtable_cache_refreshes_total``, ``farmtable_version_conflicts_total``: how often a table in memory
  was brought up to the stored one, and how often a write found another process had written first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from farmtable.server.hub import Hub

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text exposition format."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The counters, gauges and histograms of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.decisions = Counter("farmtable_decisions", "Decisions and undos stored by this process.", registry=r)
        self.notifications = Counter(
            "farmtable_notifications", "Table changes announced on the PostgreSQL channel.", registry=r
        )
        self.refreshes = Counter(
            "farmtable_cache_refreshes", "Tables in memory brought up to the stored version.", registry=r
        )
        self.conflicts = Counter(
            "farmtable_version_conflicts", "Writes that found another process had written first.", registry=r
        )
        self.push_latency = Histogram(
            "farmtable_push_latency_seconds",
            "From knowing of a change to writing the update to a WebSocket.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.notify_delay = Histogram(
            "farmtable_notify_delay_seconds",
            "From another process's commit to this process reading its notification.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        tables = Gauge("farmtable_tables_in_memory", "Tables held in memory by this process.", registry=r)
        tables.set_function(lambda: len(hub.tables))
        sockets = Gauge("farmtable_sockets", "Open WebSockets on this process.", registry=r)
        sockets.set_function(lambda: sum(hub.sockets.values()))
        leases = Gauge("farmtable_ai_leases_held", "Tables whose AI seats this process runs now.", registry=r)
        leases.set_function(lambda: len(hub.leases))

    def text(self) -> bytes:
        """Everything, in the Prometheus text format."""
        return generate_latest(self.registry)
