"""The ranges of Kafka's wire types, for every number that enters the cluster model.

A value outside its Kafka type cannot be on a real cluster, so it is refused where it is read
(a located error) rather than simulated: broker and node ids and partition indexes are int32,
feature levels int16, sizes, offsets, epochs and rates int64.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

INT16_MAX = 2**15 - 1
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

# How many partitions one plan step may create or reach: far above any real topic, and low
# enough that simulating a step stays a matter of seconds.
MAX_PARTITIONS = 1_000_000
# ... and all its steps together (a simulated million partitions costs seconds).
MAX_PLAN_PARTITIONS = 2_000_000

NodeId = Annotated[int, Field(ge=0, le=INT32_MAX)]
PartitionIndex = Annotated[int, Field(ge=0, le=INT32_MAX)]
Int32 = Annotated[int, Field(ge=-INT32_MAX - 1, le=INT32_MAX)]
Level = Annotated[int, Field(ge=0, le=INT16_MAX)]
Long = Annotated[int, Field(ge=-INT64_MAX - 1, le=INT64_MAX)]
Size = Annotated[int, Field(ge=0, le=INT64_MAX)]
PartitionCount = Annotated[int, Field(ge=1, le=MAX_PARTITIONS)]
