"""The small tools behind the limits: host names, JSON depth, token buckets, agent budgets."""

from __future__ import annotations

import pytest

from farmtable.server.limits import Buckets, Limits, json_too_deep


def test_hosts_localhost_ip_addresses_and_allowed_names_only() -> None:
    limits = Limits(allow_hosts=("farm.example",))
    for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.168.1.20", "farm.example:80"):
        assert limits.host_allowed(host), host
    for host in ("evil.example", "127.0.0.1.evil.example", "", "localhost.evil.example:8000"):
        assert not limits.host_allowed(host), host
    assert Limits(allow_hosts=("*",)).host_allowed("anything.example")


def test_json_depth_is_measured_outside_strings() -> None:
    assert not json_too_deep('{"a": [[1]]}', 3)
    assert json_too_deep('{"a": [[[1]]]}', 3)
    assert not json_too_deep('{"a": "[[[[[[[[[[\\"]]]]"}', 3)  # brackets inside a string do not count
    assert json_too_deep(b"[" * 100, 20)


def test_buckets_refill_with_time() -> None:
    buckets = Buckets(per_minute=3)
    assert [buckets.take("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.take("b", now=0.0)  # another address has its own bucket
    assert buckets.take("a", now=20.0) and not buckets.take("a", now=20.0)  # one token back after 20 s


def test_agent_specs_within_the_budget() -> None:
    limits = Limits(max_ai_iters=500, max_ai_seconds=1.0)
    assert limits.check_agent("Expert") == "expert"
    assert limits.check_agent("ismcts:iters=500") == "ismcts:iters=500"
    for spec in ("ismcts:iters=501", "ismcts:time=1.5", "ismcts:iters=1e9", "genius", "greedy:x=1"):
        with pytest.raises(ValueError):
            limits.check_agent(spec)
    with pytest.raises(ValueError):
        Limits(levels_only=True).check_agent("greedy")
