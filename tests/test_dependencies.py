"""What the project pins is what it installs: no pin for a package nothing installs.

``constraints.txt`` pins every transitive version of the ``test`` extra, and
``pyproject.toml`` declares, at the same versions, what the code imports or
configures by name. A pin left behind by a dropped dependency, or a declared
version that differs from its pin, fails here.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s#]+)")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(lines: list[str]) -> dict[str, str]:
    pins = {}
    for line in lines:
        match = PIN.match(line.strip())
        if match:
            pins[_canonical(match[1])] = match[2]
    return pins


def _constraints() -> dict[str, str]:
    return _pins((ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines())


def _declared() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return _pins([*project["dependencies"], *(item for extra in extras.values() for item in extra)])


def test_every_pin_is_a_package_the_test_environment_installs_at_that_version() -> None:
    installed = {
        _canonical(dist.metadata["Name"]): dist.version for dist in metadata.distributions()
    }
    assert {name: installed.get(name) for name in _constraints()} == _constraints()


def test_every_declared_dependency_is_pinned_at_its_declared_version() -> None:
    pins = _constraints()
    assert {name: pins.get(name) for name in _declared()} == _declared()
