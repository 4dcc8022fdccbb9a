"""The build's cache: a file made once and kept whole, and only what the build used."""

from __future__ import annotations

from pathlib import Path

import pytest
from calcsite.build_cache import kept, location, prune


def test_a_kept_file_is_made_once(tmp_path: Path) -> None:
    made: list[int] = []

    def make() -> bytes:
        made.append(1)
        return b"archive"

    folder = tmp_path / "cache"
    assert kept(folder, "a.gz", make) == b"archive"
    assert kept(folder, "a.gz", make) == b"archive"
    assert made == [1]
    assert [path.name for path in folder.iterdir()] == ["a.gz"]


def test_a_file_pruned_beside_before_it_is_in_place_is_still_returned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another build prunes the folder while this one writes: the bytes are right, unkept."""
    replace = Path.replace

    def pruned_first(self: Path, target: Path) -> Path:
        self.unlink()
        return replace(self, target)

    monkeypatch.setattr(Path, "replace", pruned_first)
    assert kept(tmp_path, "a.gz", lambda: b"archive") == b"archive"
    assert list(tmp_path.iterdir()) == []


def test_prune_removes_every_file_but_those_kept(tmp_path: Path) -> None:
    for name in ("python_stdlib-new.zip.gz", "python_stdlib-old.zip", "wheel-old.gz", "x.1.part"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "folder").mkdir()
    removed = prune(tmp_path, keep=["python_stdlib-new.zip.gz"])
    assert removed == ["python_stdlib-old.zip", "wheel-old.gz", "x.1.part"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "folder",
        "python_stdlib-new.zip.gz",
    ]


def test_a_missing_cache_has_nothing_to_prune(tmp_path: Path) -> None:
    assert prune(tmp_path / "none", keep=[]) == []


def test_the_cache_is_in_the_packages_node_modules(tmp_path: Path) -> None:
    package = tmp_path / "node_modules" / "pyodide"
    assert location(package) == tmp_path / "node_modules" / ".cache" / "calcsite"
