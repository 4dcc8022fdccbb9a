"""The standard library a page ships: the files its engine imports, without docstrings or comments.

This module runs inside Pyodide, under Node, at site-build time (see
:func:`calcsite.engine.stdlib_archive`): Pyodide's own Python 3.14 parses the
standard library it ships, which the build's Python may be too old to read. It
uses the standard library only, and imports under the build's Python too, for
its tests.

Each file is parsed, its docstrings removed (as ``python -OO`` removes them,
which the standard library supports) and written back by :func:`ast.unparse`,
which leaves out comments and layout. The result must parse to the same tree
as the original less its docstrings, or the build stops: nothing but
docstrings, comments and layout can change. Pyodide's own packages keep their
docstrings, which it reads at run time.
"""

from __future__ import annotations

import ast
import io
import zipfile

__all__ = ["KEEP_DOCSTRINGS", "SlimError", "minify", "slim", "without_docstrings"]

KEEP_DOCSTRINGS = ("_pyodide/", "pyodide/")
"""Archive folders whose files keep their docstrings: Pyodide's own packages."""

_DATE = (1980, 1, 1, 0, 0, 0)
"""Every entry's timestamp: the same files always give the same archive."""

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SlimError(ValueError):
    """A file cannot be slimmed: missing from the archive, or changed by more than docstrings."""


def without_docstrings(tree: ast.Module) -> ast.Module:
    """Remove, in place, the docstring of the module and of every class and function."""
    for node in ast.walk(tree):
        if not isinstance(node, _DOCUMENTED) or not node.body:
            continue
        first = node.body[0]
        value = first.value if isinstance(first, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            # A body cannot be empty: a docstring alone gives way to `pass`.
            node.body[0:1] = [] if len(node.body) > 1 else [ast.Pass()]
    return tree


def minify(source: str | bytes, name: str, keep_docstrings: bool = False) -> str:
    """The source of one module with no comment, layout or (unless kept) docstring.

    Raises:
        SlimError: If the result does not parse to the original's tree less its docstrings.
    """
    tree = ast.parse(source, name)
    if not keep_docstrings:
        without_docstrings(tree)
    text = ast.unparse(tree)
    text += "\n" if text else ""
    # ast.dump leaves out positions: the two trees must be equal in everything else.
    if ast.dump(ast.parse(text, name)) != ast.dump(tree):
        raise SlimError(f"{name}: unparsing changed more than docstrings, comments and layout")
    return text


def _folders(files: list[str]) -> list[str]:
    """Every folder of the archive that holds one of ``files``, as zip directory entries."""
    found = set()
    for name in files:
        parts = name.split("/")[:-1]
        found.update("/".join(parts[: depth + 1]) + "/" for depth in range(len(parts)))
    return sorted(found)


def slim(archive: bytes, files: list[str]) -> bytes:
    """A zip of ``files`` from the standard library zip ``archive``, each minified.

    Deflated at level 9, in a fixed order with fixed dates, so that the same
    archive and list give the same bytes.

    Raises:
        SlimError: If a file is missing from ``archive`` or cannot be minified.
    """
    source = zipfile.ZipFile(io.BytesIO(archive))
    present = set(source.namelist())
    if missing := sorted(set(files) - present):
        raise SlimError(f"not in the standard library: {', '.join(missing)}")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for folder in _folders(files):
            target.writestr(zipfile.ZipInfo(folder, _DATE), b"")
        for name in sorted(set(files)):
            data = source.read(name)
            if name.endswith(".py"):
                keep = name.startswith(KEEP_DOCSTRINGS)
                data = minify(data, name, keep_docstrings=keep).encode("utf-8")
            info = zipfile.ZipInfo(name, _DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, data, compresslevel=9)
    return out.getvalue()
