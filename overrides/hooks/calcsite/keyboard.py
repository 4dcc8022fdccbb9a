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
"""

from __future__ import annotations

import re

__all__ = ["focusable"]

_FOCUSABLE = re.compile(
    r"""<(?:
        abbr\b(?=[^>]*\btitle=)
      | div\b(?=[^>]*\bclass="calc-math")
      | table\b(?=[^>]*\bclass="calc-reference__table")
      | table(?=[\s>])(?![^>]*\bclass=)
    )(?![^>]*\btabindex=)""",
    re.VERBOSE,
)


def focusable(html: str) -> str:
    """``html`` (a page's content) with its abbreviations and scrolling boxes in the tab order."""
    return _FOCUSABLE.sub(lambda match: f'{match[0]} tabindex="0"', html)
