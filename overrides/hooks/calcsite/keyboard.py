"""What a keyboard reaches in a page's content, added at build time.

Two kinds of element hold something a reader needs but take no focus:

- glossary abbreviations (``<abbr title>``, from ``includes/glossary.*.md``):
  Material's ``content.tooltips`` shows the title in a tooltip on hover and on
  focus, and an ``<abbr>`` is not focusable;
- boxes that scroll sideways on a narrow screen: the block formulas
  (``div.calc-math``), the reference tables (``table.calc-reference__table``)
  and Markdown's tables (``<table>`` without a class, which Material wraps in
  its scrolling ``div.md-typeset__scrollwrap`` in the browser). A box that
  scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe's
  ``scrollable-region-focusable``). The box, or for Material's wrapper the
  table inside it, is focusable everywhere, since whether it scrolls depends
  on the screen: where it fits, it is one more Tab stop.

Each gets ``tabindex="0"``, unless it already has a tabindex.

A glossary term is marked at its first use in each section of a page (from
one ``<h2>`` to the next), as a glossary is read: Markdown's abbreviations mark
every use, which put over a hundred tooltips, and as many Tab stops, on the
data-parallel page for sixteen terms. Each tooltip is a component that Material's script mounts
as the page starts (about a millisecond each in Lighthouse's mobile
simulation), and a keyboard had to cross every repetition to reach the next
link. Later uses in the same section are plain text (:func:`first_uses`).
"""

from __future__ import annotations

import re

__all__ = ["first_uses", "focusable"]

_FOCUSABLE = re.compile(
    r"""<(?:
        abbr\b(?=[^>]*\btitle=)
      | div\b(?=[^>]*\bclass="calc-math")
      | table\b(?=[^>]*\bclass="calc-reference__table")
      | table(?=[\s>])(?![^>]*\bclass=)
    )(?![^>]*\btabindex=)""",
    re.VERBOSE,
)

_SECTION = re.compile(r"(?=<h2[\s>])")
_ABBREVIATION = re.compile(r"<abbr\b[^>]*?\btitle=\"([^\"]*)\"[^>]*>(.*?)</abbr>", re.DOTALL)


def first_uses(html: str) -> str:
    """``html`` (a page's content) with each term marked at its first use in each section only."""
    return "".join(_first_uses_in(section) for section in _SECTION.split(html))


def _first_uses_in(section: str) -> str:
    """``section`` with every abbreviation after the first of the same title unwrapped."""
    seen: set[str] = set()

    def keep_first(match: re.Match[str]) -> str:
        if match[1] in seen:
            return match[2]
        seen.add(match[1])
        return match[0]

    return _ABBREVIATION.sub(keep_first, section)


def focusable(html: str) -> str:
    """``html`` (a page's content) with its abbreviations and scrolling boxes in the tab order."""
    return _FOCUSABLE.sub(lambda match: f'{match[0]} tabindex="0"', html)
