"""What the page's Python reaches of the core, and what that imports from outside it.

The page's worker imports ``calculator.web`` (:data:`ENTRY`) and calls
``evaluate``; Python then imports, transitively, the core's modules those name.
:func:`reached` finds them statically, by reading each module's imports with
:mod:`ast` from the boundary on, without running the core. Two parts of the
build use that one scan:

- the served wheel holds the modules reached and no other
  (:func:`calcsite.wheel.served_wheel`): a module written but not registered
  yet is not downloaded by every reader, and ships once an import reaches it;
- the standard library check (:func:`calcsite.stdlib.unlisted_imports`) finds a
  module outside the core that they import and the recorded list lacks.

The scan counts every import statement wherever it stands (inside a function
or an ``if``), so it can only err on the side of shipping a module; an import
by a computed name (``importlib.import_module``) it cannot see, and the
Pyodide run of every case (``tests/test_pyodide.py``, with the served wheel)
would fail on it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CORE", "ENTRY", "Reached", "reached"]

CORE = "calculator"
"""The core's package, the project's folder of that name, which the wheel packages."""
ENTRY = "web"
"""The core's module the page's worker imports (``calculator-worker.mjs``): its boundary."""


@dataclass(frozen=True)
class Reached:
    """The core's modules an entry reaches, and the modules outside the core they import."""

    modules: tuple[str, ...]
    """The core's modules reached, dotted (``calculator.web``), its packages included; sorted."""
    files: tuple[str, ...]
    """Their files, relative to the core's parent with ``/`` (``calculator/web.py``), as a
    wheel names them; sorted."""
    outside: tuple[str, ...]
    """Top-level names of the modules outside the core that they import (``json``); sorted."""


def reached(core: Path, entry: str = ENTRY) -> Reached:
    """The core's modules that importing ``entry`` reaches, found by reading their imports.

    Importing a module first imports each package above it, so every package on
    the way (``calculator``, its ``__init__.py``, and so on) is reached too, and
    what it imports. ``from package import name`` reaches the module
    ``package.name`` where there is one (``from .calculators import
    pipeline_bubble``); a name that no file matches is one defined in the
    module, not a module.

    Args:
        core: The core's package folder (its name is the top-level package's).
        entry: The module to start from, relative to the core (``web``, ``cli``).

    Returns:
        The modules reached, their files, and what they import from outside the core.
    """
    modules: dict[str, str] = {}
    outside: set[str] = set()
    todo, seen = [core.name, f"{core.name}.{entry}"], set()
    while todo:
        dotted = todo.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        parts = dotted.split(".")
        todo += [".".join(parts[:depth]) for depth in range(1, len(parts))]  # its packages
        base = core.parent.joinpath(*parts)
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if not path.is_file():  # a name imported from a module, not a module
            continue
        modules[dotted] = path.relative_to(core.parent).as_posix()
        package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
        for imported in _imports(path, package, core.name):
            if imported.split(".")[0] == core.name:
                todo.append(imported)
            else:
                outside.add(imported.split(".")[0])
    return Reached(
        modules=tuple(sorted(modules)),
        files=tuple(sorted(modules.values())),
        outside=tuple(sorted(outside)),
    )


def _imports(path: Path, package: str, core: str) -> list[str]:
    """The dotted names ``path``'s import statements name, relative ones resolved in ``package``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            here = package.split(".")
            anchor = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*anchor, node.module] if node.module else anchor)
            found.append(module)
            if module.split(".")[0] == core:
                # `from package import name` may name a module of the package.
                found += [f"{module}.{alias.name}" for alias in node.names]
    return found
