from array import array

import pytest

from cluster_engine.arrays import naturals


def test_naturals_are_the_q_array_of_their_values() -> None:
    values = [0, 1, 7, 2**31 - 1, 2**40, 2**63 - 1]
    assert naturals(values) == array("q", values)
    assert naturals(range(5, 600)) == array("q", range(5, 600))
    assert naturals([]) == array("q")


def test_a_negative_value_is_refused_not_wrapped() -> None:
    with pytest.raises(OverflowError):
        naturals([3, -1])
