"""The static scan of what the page's Python reaches of the core, on small cores of its own.

That it matches what importing the real boundary imports is ``test_wheel.py``'s
part, where it decides the served wheel's modules.
"""

from __future__ import annotations

from pathlib import Path

from calcsite.imports import ENTRY, reached

from .conftest import ROOT


def _core(folder: Path, files: dict[str, str]) -> Path:
    core = folder / "calculator"
    for name, text in files.items():
        (core / name).parent.mkdir(parents=True, exist_ok=True)
        (core / name).write_text(text, encoding="utf-8")
    return core


CORE = {
    "__init__.py": "from .web import evaluate\n",
    "web.py": "import json\nfrom .registry import CALCULATORS\n",
    "registry.py": "from .calculators import first\n",
    "calculators/__init__.py": "",
    "calculators/first.py": (
        "from ..spec import Thing\n"
        "def late():\n"
        "    from .helpers import value  # imported when called, reached all the same\n"
    ),
    "calculators/helpers.py": "import math\n",
    "calculators/written.py": "from ..spec import Thing\nimport statistics\n",
    "spec.py": "from dataclasses import dataclass\n",
    "cli.py": "import argparse\nfrom .web import evaluate\n",
    "__main__.py": "from .cli import main\n",
}
"""A core whose registry imports one calculator of the two written."""


def test_the_scan_starts_at_the_boundary_the_worker_imports() -> None:
    assert ENTRY == "web"
    worker = ROOT / "overrides" / "assets" / "javascripts" / "calculator-worker.mjs"
    assert f"from calculator.{ENTRY} import evaluate" in worker.read_text(encoding="utf-8")


def test_what_the_boundary_reaches_through_imports_and_packages(tmp_path: Path) -> None:
    found = reached(_core(tmp_path, CORE))
    assert found.modules == (
        "calculator",
        "calculator.calculators",
        "calculator.calculators.first",
        "calculator.calculators.helpers",
        "calculator.registry",
        "calculator.spec",
        "calculator.web",
    )
    assert found.files == (
        "calculator/__init__.py",
        "calculator/calculators/__init__.py",
        "calculator/calculators/first.py",
        "calculator/calculators/helpers.py",
        "calculator/registry.py",
        "calculator/spec.py",
        "calculator/web.py",
    )
    # `from __future__`-free modules: what is imported from outside, by top-level name.
    assert found.outside == ("dataclasses", "json", "math")


def test_a_module_written_but_not_imported_is_reached_once_registered(tmp_path: Path) -> None:
    core = _core(tmp_path, CORE)
    assert "calculator/calculators/written.py" not in reached(core).files
    (core / "registry.py").write_text("from .calculators import first, written\n", "utf-8")
    found = reached(core)
    assert "calculator/calculators/written.py" in found.files
    assert "statistics" in found.outside


def test_another_entry_reaches_what_it_imports(tmp_path: Path) -> None:
    found = reached(_core(tmp_path, CORE), entry="cli")
    assert "calculator/cli.py" in found.files
    assert "calculator/__main__.py" not in found.files  # run by `python -m`, imported by none
    assert found.outside == ("argparse", "dataclasses", "json", "math")


def test_absolute_imports_of_the_core_and_names_that_are_no_modules(tmp_path: Path) -> None:
    core = _core(
        tmp_path,
        {
            "__init__.py": "",
            "web.py": "import calculator.deep.leaf\nfrom calculator.spec import Thing, other\n",
            "deep/__init__.py": "from . import leaf as renamed\n",
            "deep/leaf.py": "",
            "spec.py": "Thing = other = None\n",
            "other.py": "import csv  # not the name `other` that web.py imports from spec\n",
        },
    )
    found = reached(core)
    assert found.files == (
        "calculator/__init__.py",
        "calculator/deep/__init__.py",
        "calculator/deep/leaf.py",
        "calculator/spec.py",
        "calculator/web.py",
    )
    assert found.outside == ()
