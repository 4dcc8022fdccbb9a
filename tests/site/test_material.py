"""Every dependency on Material's internals is listed, for the installed Material."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import material
import pytest
from calcsite.material import TOUCH_POINTS, VERSION, TouchPoint

from .conftest import ROOT


def test_the_installed_material_is_the_one_the_touch_points_were_made_for() -> None:
    assert version("mkdocs-material") == VERSION
    pinned = re.search(r'"mkdocs-material==([^"]+)"', (ROOT / "pyproject.toml").read_text())
    assert pinned is not None
    assert pinned[1] == VERSION


@pytest.mark.parametrize("point", TOUCH_POINTS, ids=lambda point: f"{point.path}:{point.marker}")
def test_each_touch_point_is_where_the_list_says(point: TouchPoint) -> None:
    assert point.marker in (ROOT / point.path).read_text(encoding="utf-8")


def test_every_template_that_replaces_one_of_materials_is_listed() -> None:
    """A template of ours at the path of one of Material's replaces it: a touch point."""
    theirs = Path(material.__file__).parent / "templates"
    ours = ROOT / "overrides"
    replaced = {
        str(path.relative_to(ROOT))
        for path in ours.rglob("*.html")
        if (theirs / path.relative_to(ours)).exists()
    }
    assert replaced
    assert replaced <= {point.path for point in TOUCH_POINTS}
