"""A real MkDocs build of a mini site in a temporary folder, through the project's hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from calcsite.widgets import hint as widget_hint

from calculator import get

from .conftest import ROOT
from .html import Document


def make_site(
    folder: Path, markdown: str, language: str = "en"
) -> subprocess.CompletedProcess[str]:
    (folder / "docs").mkdir()
    (folder / "docs" / "index.md").write_text(markdown, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        "\n".join(
            [
                "site_name: Mini",
                "site_url: https://example.org/mini/",
                "theme:",
                "  name: material",
                f"  custom_dir: {ROOT / 'overrides'}",
                f"  language: {language}",
                "  font: false",
                "hooks:",
                f"  - {ROOT / 'overrides' / 'hooks' / 'calculators.py'}",
                "markdown_extensions: [attr_list, md_in_html]",
            ]
        ),
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


FRONT = "---\ndescription: A mini site to test the directive.\n---\n\n"


def test_directive_renders_a_form_with_every_declared_input(tmp_path: Path) -> None:
    result = make_site(tmp_path, FRONT + "# Mini\n\n<!-- md:calculator pipeline-bubble -->\n")
    assert result.returncode == 0, result.stderr
    document = Document((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    mode = get("pipeline-bubble").default_mode
    form = document.find("form", data_calc="pipeline-bubble")
    assert form.attrs["data-state"] == "static"
    inputs = document.find_all("input", class_="calc__input")
    assert [element.attrs["name"] for element in inputs] == [spec.name for spec in mode.inputs]
    for element, spec in zip(inputs, mode.inputs, strict=True):
        label = document.find("label", for_=element.attrs["id"])
        assert label.text == spec.label
        assert element.attrs["type"] == "text"
        hint = document.find("p", id=f"{element.attrs['id']}-hint")
        assert hint.text == widget_hint(spec, "en")
        assert float(element.attrs["value"]) == spec.default
        assert document.find(data_error_for=spec.name)
        assert document.find(data_note_for=spec.name)
    outputs = [element.attrs["data-output"] for element in document.find_all("output")]
    assert outputs == [output.name for output in mode.outputs]


def test_directive_for_a_second_mode_renders_that_mode(tmp_path: Path) -> None:
    result = make_site(tmp_path, FRONT + "<!-- md:calculator data-parallel-scaling/measure -->\n")
    assert result.returncode == 0, result.stderr
    document = Document((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert document.find("form", class_="calc").attrs["data-mode"] == "measure"
    assert document.find("output", data_output="efficiency").text == "90%"


def test_results_are_formatted_for_the_theme_language(tmp_path: Path) -> None:
    markdown = (
        FRONT
        + "<!-- md:calculator data-parallel-scaling -->\n\n"
        + "S = <!-- md:value data-parallel-scaling speedup -->\n"
    )
    result = make_site(tmp_path, markdown, language="fr")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "S = 57,6×" in html
    assert Document(html).find("output", data_output="actual").text == "115\u202f200"


@pytest.mark.parametrize(
    ("directive", "message"),
    [
        ("<!-- md:calculator no-such-calculator -->", "no-such-calculator"),
        ("<!-- md:calculator pipeline-bubble/no-such-mode -->", "no-such-mode"),
        ("<!-- md:value pipeline-bubble nothing -->", "nothing"),
        ("<!-- md:value pipeline-bubble idle_share stages=0 -->", "stages"),
    ],
)
def test_a_bad_directive_fails_the_build(tmp_path: Path, directive: str, message: str) -> None:
    result = make_site(tmp_path, FRONT + directive + "\n")
    assert result.returncode != 0
    assert message in result.stderr


def test_a_page_without_description_fails_a_strict_build(tmp_path: Path) -> None:
    result = make_site(tmp_path, "# No front matter\n")
    assert result.returncode != 0
    assert "description" in result.stderr
