"""What runs inside Pyodide to slim the standard library, run here under the build's Python."""

from __future__ import annotations

import importlib.util
import io
import marshal
import os
import types
import zipfile
from typing import Any

import pytest
from calcsite import slim
from calcsite.slim import SlimError

MODULE = '''"""A module."""
# a comment
from __future__ import annotations

import os  # why


class Thing:
    """A class."""

    def method(self) -> int:
        """Only a docstring."""


def run() -> str:
    """A function."""
    assert os.sep
    return f"{os.sep!r:>3}"  # formatted
'''


def load(data: bytes) -> dict[str, Any]:
    """Run a ``.pyc`` made for this Python; return the module's namespace."""
    assert data[:4] == importlib.util.MAGIC_NUMBER
    namespace: dict[str, Any] = {"__name__": "module"}
    exec(marshal.loads(data[16:]), namespace)
    return namespace


def test_bytecode_drops_docstrings_and_nothing_else() -> None:
    module = load(slim.bytecode(MODULE, "module.py", "/lib/here/module.py"))
    assert module.get("__doc__") is None
    thing, run = module["Thing"], module["run"]
    assert thing.__doc__ is None
    assert thing().method() is None
    assert run.__doc__ is None
    assert run() == f"{os.sep!r:>3}"
    assert run.__code__.co_filename == "/lib/here/module.py"


NESTED = '''
def outer(x):
    """Doc."""

    def inner(y):
        if y:
            raise ValueError(f"line 7, {y}")
        return [z * 2 for z in range(y, 3)]

    return inner(x)
'''


def _code_objects(code: types.CodeType) -> list[types.CodeType]:
    inner = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return [code, *(found for c in inner for found in _code_objects(c))]


def test_bytecode_locates_each_function_at_its_first_line_and_runs_the_same() -> None:
    slimmed = load(slim.bytecode(NESTED, "m", "m.py"))
    whole: dict[str, Any] = {}
    exec(compile(NESTED, "m.py", "exec"), whole)
    assert slimmed["outer"](0) == whole["outer"](0) == [0, 2, 4]
    with pytest.raises(ValueError, match="line 7, 1") as raised:
        slimmed["outer"](1)
    # The frames of outer and inner, at their def lines (pytest counts lines from 0).
    assert [entry.lineno + 1 for entry in raised.traceback[-2:]] == [2, 5]
    with pytest.raises(ValueError, match="line 7, 1") as raised:
        whole["outer"](1)
    assert raised.traceback[-1].lineno + 1 == 7


def test_function_lines_cover_every_instruction_with_one_line() -> None:
    compiled = compile(NESTED + "\n" * 500 + "late = 1\n", "m.py", "exec")
    for code in _code_objects(slim.function_lines(compiled)):
        lines = {line for _start, _end, line in code.co_lines()}
        assert lines == {code.co_firstlineno}, code.co_name
        covered = sum(end - start for start, end, _line in code.co_lines())
        assert covered == len(code.co_code)
        assert code.co_code == next(
            c.co_code for c in _code_objects(compiled) if c.co_name == code.co_name
        )


def test_bytecode_of_what_this_python_cannot_read_is_refused() -> None:
    with pytest.raises(SlimError, match=r"module\.py"):
        slim.bytecode("def (:\n", "module.py", "module.py")


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name, text in files.items():
            target.writestr(name, text)
    return out.getvalue()


def test_slim_compiles_every_file_in_order_and_refuses_missing_files() -> None:
    source = _zip({"a.py": MODULE, "pkg/sub/b.py": "x = 1\n", "pyodide/c.py": MODULE})
    files = ["pyodide/c.py", "pkg/sub/b.py", "a.py"]
    archive = slim.slim(source, files, "/lib/std.zip")
    made = zipfile.ZipFile(io.BytesIO(archive))
    assert made.namelist() == [
        "pkg/",
        "pkg/sub/",
        "pyodide/",
        "a.pyc",
        "pkg/sub/b.pyc",
        "pyodide/c.pyc",
    ]
    assert load(made.read("a.pyc")).get("__doc__") is None
    assert load(made.read("pyodide/c.pyc")).get("__doc__") is None
    assert load(made.read("pkg/sub/b.pyc"))["x"] == 1
    assert {entry.date_time for entry in made.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert slim.slim(source, files, "/lib/std.zip") == archive
    with pytest.raises(SlimError, match=r"not in the standard library: d\.py"):
        slim.slim(source, ["a.py", "d.py"], "/lib/std.zip")
