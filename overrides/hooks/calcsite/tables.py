"""A box of its own around each Markdown table, so that Material's start-up restyles only it.

Material's script wraps every table without a class in its scrolling box
(``div.md-typeset__scrollwrap``) as it mounts the page: it takes the table out
of its parent and puts the box in its place. When that parent is the article,
the browser restyles the whole article (its rules that count children and
siblings may now match otherwise): on the data-parallel page, which has two
such tables, a full restyle of some 1,700 elements in the mount's task (about
30 ms of it in Lighthouse's mobile simulation). In a plain ``div`` of its own,
the table's move concerns that ``div`` only.

The ``div`` has no style: Material's box goes inside it unchanged, and its
margins collapse through it as they did through nothing.
"""

from __future__ import annotations

import re

__all__ = ["HOLDER", "held"]

HOLDER = "calc-table"
"""The class of the box around each table (no style of its own)."""

# A table without a class, up to its end (Markdown's tables hold no other table).
_TABLE = re.compile(r"<table(?=[\s>])(?![^>]*\bclass=).*?</table>", re.DOTALL)


def held(html: str) -> str:
    """``html`` (a page's content) with each table without a class in a ``div`` of its own."""
    return _TABLE.sub(lambda match: f'<div class="{HOLDER}">{match[0]}</div>', html)
