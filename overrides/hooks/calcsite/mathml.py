"""Formulas rendered to MathML at build time: browsers display it with no script.

latex2mathml wraps each formula, and each of many single letters or numbers, in
an ``<mrow>`` that changes nothing on screen (a ``<math>`` is a row already, and
a row of one token is that token): on the data-parallel page, about one element
in sixteen of the whole page, each one styled and laid out as the page starts
and whenever the theme restyles it. They are left out.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element, tostring
from xml.sax.saxutils import unescape

from latex2mathml.converter import convert_to_element

__all__ = ["mathml", "render_math"]

# Display math: $$ alone on a line, the LaTeX, $$ alone on a line.
_BLOCK = re.compile(r"^\$\$[ \t]*\n(?P<tex>.+?)\n\$\$[ \t]*$", re.MULTILINE | re.DOTALL)
# Inline math: \( ... \) on one line.
_INLINE = re.compile(r"\\\((?P<tex>.+?)\\\)")
# Tokens whose meaning does not depend on the row they are in (an operator's
# form, prefix, infix or postfix, does: an <mo> keeps its row).
_TOKENS = {"mi", "mn", "mtext"}


def _bare_row(element: Element) -> bool:
    """Whether ``element`` is an ``<mrow>`` with no attribute and no text of its own."""
    return element.tag == "mrow" and not element.attrib and not (element.text or "").strip()


def _trim(parent: Element) -> None:
    """Replace each bare row of one token under ``parent`` (and below) by the token."""
    for index, child in enumerate(list(parent)):
        if _bare_row(child) and len(child) == 1 and child[0].tag in _TOKENS:
            token = child[0]
            token.tail = child.tail
            parent[index] = token
        _trim(parent[index])


def mathml(tex: str, display: str = "inline") -> str:
    """``tex`` as a ``<math>`` element, without the rows that change nothing."""
    math = convert_to_element(tex, display=display)
    if len(math) == 1 and _bare_row(math[0]):
        row = math[0]
        math.remove(row)
        math.extend(list(row))
    _trim(math)
    # As latex2mathml serializes: its operators are character references already.
    return unescape(tostring(math, encoding="unicode"))


def render_math(markdown: str) -> str:
    """Replace LaTeX math in ``markdown`` with MathML elements."""
    markdown = _BLOCK.sub(
        lambda match: (
            '\n<div class="calc-math">' + mathml(match["tex"].strip(), "block") + "</div>\n"
        ),
        markdown,
    )
    # The span keeps Markdown from taking a <math> that opens a line for a block.
    return _INLINE.sub(
        lambda match: '<span class="calc-math-inline">' + mathml(match["tex"].strip()) + "</span>",
        markdown,
    )
