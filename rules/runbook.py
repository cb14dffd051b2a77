"""The steps of the strategies that rebuild an application: an application reset and a
blue-green deployment, filled in with the application's real topics.

Both start the new version from empty state and fresh internal topics, so the in-place steps of
the findings (restore a store into new task directories, delete stale ones, drain before the
deploy, bounce twice with ``upgrade.from``) no longer apply: these runbooks replace them.
Facts: the Kafka Streams upgrade guide (Responsive, "Kafka Streams 101: upgrades"), appendix
"Application reset tool", "Local state cleanup", "Flushing repartition topics", and
``StreamsResetter`` (``--bootstrap-server``, ``--application-id``, ``--input-topics``).
"""

from __future__ import annotations

from rules.facts import AppFacts

_RETENTION = (
    "replay reaches back only as far as the input topics' retention (retention.ms, 7 days by "
    "default): state built from older records is gone for good"
)


def _inputs(facts: AppFacts) -> str:
    return ",".join(facts.input_topics) if facts.input_topics else "<input topics>"


def _input_notes(facts: AppFacts) -> list[str]:
    notes: list[str] = []
    if facts.input_patterns:
        notes.append(
            "The application subscribes to the pattern(s) "
            + ", ".join(facts.input_patterns)
            + ": --input-topics takes topic names, so add every topic the pattern matches today."
        )
    if facts.intermediate_topics:
        notes.append(
            "Not inputs: "
            + ", ".join(facts.intermediate_topics)
            + " (written and read back by the application itself); listing them with "
            "--input-topics would replay them on top of what the new version writes again."
        )
    return notes


def drain(facts: AppFacts, topics: tuple[str, ...] | None = None) -> str:
    """How to empty repartition topics: the upgrade guide's "Flushing repartition topics"."""
    named = topics if topics is not None else facts.repartition_topics
    which = ", ".join(named) if named else "the repartition topics"
    eos = (
        " This application runs exactly-once: a small lag that stays above 0 can be transaction "
        "markers; then check that process-rate and the production rate to the repartition and "
        "output topics are 0."
        if facts.exactly_once
        else " (An exactly-once application can keep a small lag above 0 from transaction "
        "markers: then check that process-rate is 0.)"
    )
    return (
        f"Drain {which}: stop new input (pause the producers of the input topics, or deploy the "
        "old version once more with its source topics changed to empty substitute topics: that "
        "redeploy is a source-topic change of its own, and the substitutes must exist: Streams "
        "stops when a source topic is missing); wait until the consumer lag on the input topics "
        f"is 0, then until the lag on each repartition topic is 0.{eos}"
    )


# How an in-place runbook is ordered: a step starting with one of these belongs to that phase,
# any other step to the start of the new version (between the stop and the cleanup).
DRAIN_PREFIX = "Drain "
STOPPED_PREFIX = "With all instances stopped, "
RUNNING_PREFIX = "Once the new version runs, "


def phase(step: str) -> int:
    """0 before the stop, 1 while every instance is stopped, 2 at the start, 3 after it."""
    if step.startswith(DRAIN_PREFIX):
        return 0
    if step.startswith(STOPPED_PREFIX):
        return 1
    if step.startswith(RUNNING_PREFIX):
        return 3
    return 2


def reset_steps(facts: AppFacts) -> tuple[str, ...]:
    if facts.previous_application_id is not None:
        return _new_id_steps(facts, facts.previous_application_id)
    app = facts.app
    return (
        f"Stop every instance of {app}; the reset tool refuses to run while the consumer group "
        f"{app} has active members.",
        f"Before resetting, check the retention of {_inputs(facts).replace(',', ', ')}: "
        f"{_RETENTION}.",
        *_input_notes(facts),
        f"kafka-streams-application-reset.sh --bootstrap-server <host:port> --application-id "
        f"{app} --input-topics {_inputs(facts)} (first with --dry-run): it rewinds the input "
        f"offsets and deletes the internal topics of {app} (changelogs and repartition topics, "
        "old and new).",
        f"Delete the local state on every instance: delete {facts.app_state}, or call "
        "KafkaStreams#cleanUp() before start() in the new version.",
        "Start every instance of the new version: it reprocesses the inputs from the beginning "
        "and rebuilds its state.",
    )


def _new_id_steps(facts: AppFacts, old: str) -> tuple[str, ...]:
    """The new application.id is a new application: nothing of ``old`` is reset in place, the
    new one starts empty and ``old`` is retired."""
    new = facts.app
    old_state = f"{(facts.state_dir or '<state.dir>').rstrip('/')}/{old}"
    return (
        f"Before the switch, check the retention of {_inputs(facts).replace(',', ', ')}: "
        f"{new} rebuilds its state from them and {_RETENTION}.",
        f"Stop every instance of {old}.",
        f"Start every instance of {new}: a new consumer group without committed offsets, so it "
        "reads the inputs from auto.offset.reset (earliest by default in Streams), with new "
        "internal topics and empty local state.",
        f"Retire {old}: kafka-streams-application-reset.sh --bootstrap-server <host:port> "
        f"--application-id {old} deletes its internal topics; kafka-consumer-groups.sh "
        f"--bootstrap-server <host:port> --delete --group {old} deletes its group; delete "
        f"{old_state} on every instance.",
    )


def blue_green_steps(facts: AppFacts) -> tuple[str, ...]:
    app = facts.app
    outputs = ", ".join(facts.output_topics) if facts.output_topics else "the output topics"
    steps = [
        f"Precondition: the input topics ({_inputs(facts).replace(',', ', ')}) still hold "
        f"everything the state depends on: {_RETENTION}.",
        f"Deploy the new version beside {app} under a new application.id: it gets its own "
        "consumer group, changelog and repartition topics and empty local state, and reads the "
        "inputs from the beginning (Streams' auto.offset.reset default is earliest).",
        f"Write its results to new output topics (not {outputs}), or give the consumers of "
        f"{outputs} a cutover plan: until {app} stops, both versions write there. A control "
        "topic that pauses and resumes the input lets you switch at a chosen point.",
        "Wait until the new application has caught up (its lag on the input topics is near 0).",
    ]
    if facts.repartition_topics:
        text = drain(facts)
        steps.append(f"Before the cutover, with {app} still running, {text[0].lower()}{text[1:]}")
    steps += [
        f"Stop {app} and switch the consumers over to the new application's output topics.",
        f"Retire {app}: kafka-streams-application-reset.sh --bootstrap-server <host:port> "
        f"--application-id {app} deletes its internal topics; kafka-consumer-groups.sh "
        f"--bootstrap-server <host:port> --delete --group {app} deletes its group; delete "
        f"{facts.app_state} on every instance.",
    ]
    return tuple(steps)
