"""Config values by scope, and the one resolver of the value in force.

Kafka's precedence, most specific first, is the order ``kafka-configs --describe --all`` lists
a config's synonyms in: DYNAMIC_TOPIC_CONFIG, DYNAMIC_BROKER_CONFIG (per broker),
DYNAMIC_DEFAULT_BROKER_CONFIG (cluster-wide), STATIC_BROKER_CONFIG (server.properties),
DEFAULT_CONFIG (4.1:clients/.../ConfigEntry.java:215-225; reference/cli-formats.md). A topic's
describe-header ``Configs:`` are effective values of unknown source: they come after every
captured level, before Kafka's default (which the caller knows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

ConfigMap = Mapping[str, str | None]
_NONE: ConfigMap = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class ConfigState:
    """Config values by scope. ``described`` is each topic's describe-header ``Configs:``."""

    cluster: ConfigMap
    brokers: Mapping[int, ConfigMap]
    static: Mapping[int, ConfigMap]
    topics: Mapping[str, ConfigMap]
    described: Mapping[str, ConfigMap]

    @classmethod
    def of(
        cls,
        cluster: ConfigMap,
        brokers: Mapping[int, ConfigMap],
        static: Mapping[int, ConfigMap],
        topics: Mapping[str, ConfigMap],
        described: Mapping[str, ConfigMap],
    ) -> ConfigState:
        """Read-only copies of the given values."""

        def frozen(values: ConfigMap) -> ConfigMap:
            return MappingProxyType(dict(values))

        return cls(
            cluster=frozen(cluster),
            brokers={b: frozen(v) for b, v in brokers.items()},
            static={b: frozen(v) for b, v in static.items()},
            topics={t: frozen(v) for t, v in topics.items()},
            described={t: frozen(v) for t, v in described.items()},
        )

    def topic_value(
        self, topic: str | None, key: str, broker: int | None = None, broker_key: str | None = None
    ) -> str | None:
        """The value of topic config ``key`` in force on ``broker``; None: Kafka's default.

        ``broker_key`` is the broker-level synonym when its name differs (``log.retention.ms``
        for ``retention.ms``). Without a broker, the per-broker dynamic level is not known and
        server.properties is taken from the first broker that sets the key (brokers of one
        cluster normally share it)."""
        if topic is not None and key in (values := self.topics.get(topic, _NONE)):
            return values[key]
        bkey = broker_key or key
        if broker is not None and bkey in (values := self.brokers.get(broker, _NONE)):
            return values[bkey]
        if bkey in self.cluster:
            return self.cluster[bkey]
        if broker is not None:
            static = self.static.get(broker, _NONE)
            if bkey in static:
                return static[bkey]
        else:
            for static in self.static.values():
                if bkey in static:
                    return static[bkey]
        if topic is not None:
            return self.described.get(topic, _NONE).get(key)
        return None

    def broker_value(self, broker: int, key: str) -> str | None:
        """A broker config in force on ``broker`` (no topic level)."""
        for scope in (
            self.brokers.get(broker, _NONE),
            self.cluster,
            self.static.get(broker, _NONE),
        ):
            if key in scope:
                return scope[key]
        return None

    def with_value(
        self, scope: str, entity: str | None, key: str, value: str | None
    ) -> ConfigState:
        """Set (``value``) or delete (``None``) one key."""

        def edit(values: ConfigMap) -> ConfigMap:
            out = dict(values)
            if value is None:
                out.pop(key, None)
            else:
                out[key] = value
            return MappingProxyType(out)

        if scope == "cluster":
            return replace(self, cluster=edit(self.cluster))
        if scope == "broker":
            b = int(entity or 0)
            return replace(self, brokers={**self.brokers, b: edit(self.brokers.get(b, {}))})
        t = entity or ""
        return replace(self, topics={**self.topics, t: edit(self.topics.get(t, {}))})
