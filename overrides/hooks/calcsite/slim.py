"""The standard library a page ships: the files its engine imports, compiled, slimmed.

This module runs inside Pyodide, under Node, at site-build time
(:func:`calcsite.stdlib.stdlib_archive` runs ``.node/slim.mjs``, which boots
Pyodide and imports this file's text): only Pyodide's own Python 3.14 can
read the standard library it ships and write the bytecode it runs. It uses the
standard library only, and imports under the build's Python too, for its tests
(which then compile for that Python).

Each file is parsed, its docstrings removed (as ``python -OO`` removes them,
which the standard library supports) and compiled; the archive holds the
bytecode (``.pyc``) alone, which Python's zip importer loads as it is.
Compiling the 128 modules from source was most of Python's start-up in the
browser: measured in chromium on the benchmark's machine, 3 to 6 s of a cold
boot against 1 to 2 s from bytecode.

Bytecode carries a location table, an entry for every few instructions, which
made 0.36 MB of the 2.5 MB of bytecode. Each function of the standard library
keeps one line, its first (:func:`function_lines`): a traceback through it
still names the module, the function and where the function starts, while
the core's own modules, from the wheel's sources, keep every line and column.
Pyodide's own packages (``pyodide``, ``_pyodide``) are treated alike: their
docstrings serve ``help()``, which a page never calls (Pyodide copes with a
missing one where it reads them, in ``_pyodide.docstring``). The archive holds
its files stored, as the site gzips it whole (:mod:`calcsite.gzipped`): 0.64 MB
sent, where each file deflated on its own made 0.73 MB (0.86 MB with each line
and docstring, 1.14 MB with columns too). The sources without comments or
docstrings would be smaller still, but measured side by side they delay the
first live result by about 0.8 s on every visit (see the Performance page).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import marshal
import types
import zipfile

__all__ = ["SlimError", "bytecode", "function_lines", "slim", "without_docstrings"]

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


_NO_COLUMNS = 13
"""A location entry's code for "a line, no column" (CPython's ``InternalDocs/locations.md``)."""
_SPAN = 8
"""Code units one location entry covers at most."""


def function_lines(code: types.CodeType) -> types.CodeType:
    """``code`` with every instruction located on the first line of its function, recursively.

    The location table (Python 3.11 and later) then holds one two-byte entry
    per eight code units, all alike, which compress to almost nothing: the
    entry's first byte, then a line delta of 0 from ``co_firstlineno``.
    Instructions, constants and names are unchanged, and so is what the code does.
    """
    units = len(code.co_code) // 2
    entry = [(0x80 | _NO_COLUMNS << 3 | (_SPAN - 1)), 0]
    table = bytes(entry * (units // _SPAN))
    if rest := units % _SPAN:
        table += bytes([0x80 | _NO_COLUMNS << 3 | (rest - 1), 0])
    consts = tuple(
        function_lines(const) if isinstance(const, types.CodeType) else const
        for const in code.co_consts
    )
    return code.replace(co_consts=consts, co_linetable=table)


def bytecode(source: str | bytes, name: str, origin: str) -> bytes:
    """The ``.pyc`` file of one module, without docstrings, one line per function.

    For the Python that runs this function. ``origin`` is the module's path as
    the importer will report it (its ``co_filename``, in tracebacks).

    Raises:
        SlimError: If this Python cannot parse ``source``.
    """
    try:
        tree = ast.parse(source, name)
    except SyntaxError as error:
        raise SlimError(f"{name}: {error}") from error
    code = compile(without_docstrings(tree), origin, "exec", dont_inherit=True)
    return importlib.util.MAGIC_NUMBER + _HEADER + marshal.dumps(function_lines(code))


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
    (``/lib/python314.zip``). Stored, uncompressed (the site compresses the
    archive whole), in a fixed order with fixed dates, so that the same
    archive and list give the same bytes (in a Python started with a fixed
    hash seed, as the build starts Pyodide's).

    Raises:
        SlimError: If a file is missing from ``archive`` or cannot be compiled.
    """
    source = zipfile.ZipFile(io.BytesIO(archive))
    present = set(source.namelist())
    if missing := sorted(set(files) - present):
        raise SlimError(f"not in the standard library: {', '.join(missing)}")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for folder in _folders(files):
            target.writestr(zipfile.ZipInfo(folder, _DATE), b"")
        for name in sorted(set(files)):
            data, entry = source.read(name), name
            if name.endswith(".py"):
                data = bytecode(data, name, f"{origin}/{name}")
                entry = name + "c"
            target.writestr(zipfile.ZipInfo(entry, _DATE), data)
    return out.getvalue()
