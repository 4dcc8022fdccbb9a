"""The package's errors: one base class and three kinds.

Readers' mistakes carry a stable machine ``code`` and the ``bound`` involved
instead of an English sentence, so that the site can word them in the reader's
language and scripts can branch on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from .decimals import plain

__all__ = [
    "ERRORS",
    "NOTES",
    "WARNINGS",
    "CalculatorError",
    "InputError",
    "InvalidInputs",
    "SpecError",
    "UnknownCalculatorError",
    "english",
]

Bound = int | float | None


class CalculatorError(Exception):
    """Base class of every error this package raises."""


class SpecError(CalculatorError):
    """A calculator declaration is wrong; raised when the declaration is made."""


class UnknownCalculatorError(CalculatorError, LookupError):
    """No calculator (or mode) is registered under the requested name."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(f"unknown calculator {name!r}; known: {', '.join(self.known)}")


class InputError(CalculatorError, ValueError):
    """One bad value, for one field.

    Attributes:
        field: The public name of the input at fault.
        code: A stable machine code such as ``below_minimum``.
        bound: The limit involved (a minimum, a maximum or a divisor), if any.
    """

    def __init__(self, field: str, code: str, bound: Bound = None) -> None:
        if code not in ERRORS:
            raise ValueError(f"error code {code!r} is not in errors.ERRORS")
        self.field = field
        self.code = code
        self.bound = bound
        super().__init__(self.describe())

    def describe(self) -> str:
        """Return a short English description, for logs and the command line."""
        return f"{self.field}: {english(self.code, self.bound)}"

    def as_dict(self) -> dict[str, str | Bound]:
        """Return the error as the JSON-ready mapping used at the browser boundary."""
        return {"field": self.field, "code": self.code, "bound": self.bound}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InputError):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash((self.field, self.code, self.bound))


class InvalidInputs(CalculatorError, ValueError):
    """Every bad field of one request, reported together.

    Attributes:
        errors: One :class:`InputError` per problem, in declaration order.
    """

    def __init__(self, errors: Iterable[InputError]) -> None:
        self.errors = tuple(errors)
        if not self.errors:
            raise ValueError("InvalidInputs needs at least one InputError")
        super().__init__("; ".join(error.describe() for error in self.errors))


def english(code: str, bound: Bound = None) -> str:
    """Word an error code in English, for the command line and logs.

    The site does not use this: it words codes in the page's language.
    """
    text = ERRORS.get(code, code.replace("_", " "))
    return text.format(bound="" if bound is None else plain(bound))


# Every code the core can return, each with its English wording for the command
# line. The site words the same codes in each language; its tests fail when a
# language lacks one.
ERRORS: Mapping[str, str] = MappingProxyType(
    {
        "required": "a value is required",
        "not_a_number": "not a number",
        "not_an_integer": "must be a whole number",
        "below_minimum": "must be at least {bound}",
        "not_above_minimum": "must be greater than {bound}",
        "above_maximum": "must be at most {bound}",
        "not_divisible": "must be a multiple of {bound}",
        "not_a_choice": "not one of the listed choices",
        "too_many_layouts": (
            "more than {bound} layouts to search (tensor, pipeline, micro-batch and chunks): "
            "check one layout instead"
        ),
        "tree_allreduce_only": (
            "NCCL has a tree for all-reduce only: with sharding, the reduce-scatter and "
            "all-gather run as rings"
        ),
        "unknown_field": "not an input of this calculator",
        "unknown_mode": "no such mode",
        "unknown_calculator": "no such calculator",
        "bad_request": "the request is not a JSON object of values",
        "internal": "internal error (a bug: please report it)",
    }
)
"""Error codes (``errors[].code`` of a failure reply), with English wording."""

WARNINGS: Mapping[str, str] = MappingProxyType(
    {
        "super_linear": (
            "efficiency above 100 % (super-linear scaling): check the single-device baseline"
        ),
        "latency_bound": (
            "latency exceeds bandwidth time: fewer, larger buckets would cut it; without "
            "sharding, NCCL would run such all-reduces across many nodes as a tree "
            "(--algorithm tree)"
        ),
        "tensor_across_nodes": (
            "the tensor-parallel degree exceeds the devices of a node: every layer's "
            "collectives cross the network"
        ),
        "out_of_memory": "the most loaded device needs more memory than it has",
        "no_layout": (
            "no layout splits these devices and this global batch: it must be a multiple "
            "of the data-parallel replicas N / (t·p), with t within a node dividing the "
            "heads and p dividing the layers"
        ),
        "nothing_fits": (
            "no layout fits in a device's memory, even with ZeRO-3 and full recomputation: "
            "more devices, or more memory per device"
        ),
    }
)
"""Warning codes (``warnings`` of a success reply), with English wording."""

NOTES: Mapping[str, str] = MappingProxyType(
    {
        "read_grouped": "read as a grouped number in the page's language",
    }
)
"""Note codes (``notes[].code``, replies to a request with a notation)."""
