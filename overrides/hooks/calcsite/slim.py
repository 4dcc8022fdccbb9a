"""The standard library a page ships: the files its engine imports, compiled, without docstrings.

This module runs inside Pyodide, under Node, at site-build time (see
:func:`calcsite.engine.stdlib_archive`): only Pyodide's own Python 3.14 can
read the standard library it ships and write the bytecode it runs. It uses the
standard library only, and imports under the build's Python too, for its tests
(which then compile for that Python).

Each file is parsed, its docstrings removed (as ``python -OO`` removes them,
which the standard library supports; Pyodide's own packages keep theirs) and
compiled; the archive holds the bytecode (``.pyc``) alone, which Python's zip
importer loads as it is. Compiling the 128 modules from source was most of
Python's start-up in the browser: measured in chromium on the benchmark's
machine, 3 to 6 s of a cold boot against 1 to 2 s from bytecode. Compiled
without column positions (``PYTHONNODEBUGRANGES``, which Node's Pyodide is
started with: tracebacks keep their line numbers), the archive is 0.86 MB
instead of 1.14 MB; the sources, minified, would be 0.39 MB.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import marshal
import zipfile

__all__ = ["KEEP_DOCSTRINGS", "SlimError", "bytecode", "slim", "without_docstrings"]

KEEP_DOCSTRINGS = ("_pyodide/", "pyodide/")
"""Archive folders whose files keep their docstrings: Pyodide's own packages."""

_DATE = (1980, 1, 1, 0, 0, 0)
"""Every entry's timestamp: the same files always give the same archive."""

_HEADER = bytes(12)
"""A ``.pyc`` header after the magic number: flags 0 (a timestamp-based file), no date and
no size, which the zip importer accepts when the archive holds no source to compare."""

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SlimError(ValueError):
    """A file cannot be slimmed: missing from the archive, or not Python this Python reads."""


def without_docstrings(tree: ast.Module) -> ast.Module:
    """Remove, in place, the docstring of the module and of every class and function."""
    for node in ast.walk(tree):
        if not isinstance(node, _DOCUMENTED) or not node.body:
            continue
        first = node.body[0]
        value = first.value if isinstance(first, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            # A body cannot be empty: a docstring alone gives way to `pass`, where it was.
            node.body[0:1] = [] if len(node.body) > 1 else [ast.copy_location(ast.Pass(), first)]
    return tree


def bytecode(source: str | bytes, name: str, origin: str, keep_docstrings: bool = False) -> bytes:
    """The ``.pyc`` file of one module, for the Python that runs this function.

    ``origin`` is the module's path as the importer will report it (its
    ``co_filename``, in tracebacks).

    Raises:
        SlimError: If this Python cannot parse ``source``.
    """
    try:
        tree = ast.parse(source, name)
    except SyntaxError as error:
        raise SlimError(f"{name}: {error}") from error
    if not keep_docstrings:
        without_docstrings(tree)
    code = compile(tree, origin, "exec", dont_inherit=True)
    return importlib.util.MAGIC_NUMBER + _HEADER + marshal.dumps(code)


def _folders(files: list[str]) -> list[str]:
    """Every folder of the archive that holds one of ``files``, as zip directory entries."""
    found: set[str] = set()
    for name in files:
        parts = name.split("/")[:-1]
        found.update("/".join(parts[: depth + 1]) + "/" for depth in range(len(parts)))
    return sorted(found)


def slim(archive: bytes, files: list[str], origin: str) -> bytes:
    """A zip of ``files`` from the standard library zip ``archive``, each compiled.

    ``origin`` is where the archive sits in Pyodide's file system
    (``/lib/python314.zip``). Deflated at level 9, in a fixed order with fixed
    dates, so that the same archive and list give the same bytes (in a Python
    started with a fixed hash seed, as the build starts Pyodide's).

    Raises:
        SlimError: If a file is missing from ``archive`` or cannot be compiled.
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
            data, entry = source.read(name), name
            if name.endswith(".py"):
                keep = name.startswith(KEEP_DOCSTRINGS)
                data = bytecode(data, name, f"{origin}/{name}", keep_docstrings=keep)
                entry = name + "c"
            info = zipfile.ZipInfo(entry, _DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, data, compresslevel=9)
    return out.getvalue()
