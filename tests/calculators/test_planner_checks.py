"""The published runs' groups and the comparison's refusals.

The comparisons themselves, row by row against each paper, are in
``test_training_planner.py``, which holds the planner to each group's target with them.
"""

from __future__ import annotations

import pytest

from calculator.calculators import planner_checks
from calculator.calculators.planner_runs import (
    DATA_PARALLEL_530B,
    GROUPS,
    RUNS,
    TABLE_1,
    TABLE_5,
    Group,
    PublishedRun,
    Target,
)


def test_the_groups_are_those_of_the_runs_in_their_order() -> None:
    assert GROUPS == (TABLE_1, TABLE_5, DATA_PARALLEL_530B)
    assert [sum(r.group == group for r in RUNS) for group in GROUPS] == [10, 8, 2]
    assert len({group.id for group in GROUPS}) == len(GROUPS)


@pytest.mark.parametrize("group", GROUPS, ids=lambda group: group.id)
def test_a_group_is_found_by_its_id(group: Group) -> None:
    assert planner_checks.group(group.id) is group


def test_an_unknown_group_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="narayanan-2021-table-1, korthikanti-2022-table-5"):
        planner_checks.group("table-9")


@pytest.mark.parametrize("bound", [0, 1, -0.1, 1.5])
def test_a_target_is_a_fraction(bound: float) -> None:
    with pytest.raises(ValueError, match="fraction"):
        Target(bound=bound, each=True)


def test_a_group_compares_tflops_or_seconds() -> None:
    with pytest.raises(ValueError, match="figure must be one of"):
        Group(id="x", title="X", figure="mfu", target=None)


@pytest.mark.parametrize(
    ("group", "figures"),
    [
        (TABLE_1, {"seconds": 1.0, "mfu": 50.0}),
        (TABLE_5, {"tflops": 150.0, "hfu": 50.0}),
        (DATA_PARALLEL_530B, {}),
    ],
    ids=lambda value: value.id if isinstance(value, Group) else "",
)
def test_a_run_without_its_groups_figure_is_refused(
    group: Group, figures: dict[str, float]
) -> None:
    with pytest.raises(ValueError, match="no published figure"):
        PublishedRun(id="x", group=group, model="1B", source="", layout="", inputs={}, **figures)


def test_a_summary_counts_rows_within_ten_percent_and_averages_their_errors() -> None:
    summary = planner_checks.summarise(TABLE_5)
    errors = [abs(c.error) for c in summary.comparisons]
    assert summary.mean_error == sum(errors) / len(errors)
    assert summary.within == sum(error <= planner_checks.WITHIN for error in errors)
    # The group's target is its mean: one row beyond it does not miss it.
    assert max(errors) > 0.15 >= summary.mean_error
    assert summary.met is True
