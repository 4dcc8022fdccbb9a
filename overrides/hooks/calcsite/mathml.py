"""Formulas rendered to MathML at build time: browsers display it with no script."""

from __future__ import annotations

import re

from latex2mathml.converter import convert

__all__ = ["render_math"]

# Display math: $$ alone on a line, the LaTeX, $$ alone on a line.
_BLOCK = re.compile(r"^\$\$[ \t]*\n(?P<tex>.+?)\n\$\$[ \t]*$", re.MULTILINE | re.DOTALL)
# Inline math: \( ... \) on one line.
_INLINE = re.compile(r"\\\((?P<tex>.+?)\\\)")


def render_math(markdown: str) -> str:
    """Replace LaTeX math in ``markdown`` with MathML elements."""
    markdown = _BLOCK.sub(
        lambda match: (
            '\n<div class="calc-math">'
            + convert(match["tex"].strip(), display="block")
            + "</div>\n"
        ),
        markdown,
    )
    # The span keeps Markdown from taking a <math> that opens a line for a block.
    return _INLINE.sub(
        lambda match: '<span class="calc-math-inline">' + convert(match["tex"].strip()) + "</span>",
        markdown,
    )
