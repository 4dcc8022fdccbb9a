"""The site's own scripts and stylesheet, minified in the built site, each with its source map.

The files under ``overrides/assets/`` (the page script, the engine's worker,
the script that starts Material's bundle, the embed script and the
calculators' stylesheet) are written for their maintainers: comments that
say why, one statement a line. Comments and indentation were 40 to 70 % of
what a reader downloads of each, gzip included, and every calculator page
downloads them before its first live result. The build minifies the copies
MkDocs writes into the site, in place, with esbuild: whitespace, comments and
local names go, the syntax and the behaviour stay (no bundling, no target
lowering, UTF-8 kept as it is). Beside each file, a source map holds the
original text, so that a browser's developer tools show the commented source;
a reader's browser never fetches it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["SOURCE_MAP", "MinifyError", "minify", "own_assets"]

SOURCE_MAP = "sourceMappingURL="
"""What a minified file ends with (a comment naming its map): a file that has one is left."""
KINDS = {".js": "js", ".mjs": "js", ".css": "css"}
"""The files minified, by extension, with esbuild's loader for each."""
TIMEOUT = 60
"""Seconds for esbuild to minify a handful of files (milliseconds on an idle machine)."""


class MinifyError(RuntimeError):
    """esbuild is missing, or refuses a file (a syntax error, say)."""


def own_assets(overrides: Path, site: Path) -> list[Path]:
    """The site's copies of the scripts and stylesheets under ``overrides/assets``.

    Derived from the theme override folder, so that a new script is minified
    without being listed anywhere.

    Args:
        overrides: The theme's ``custom_dir``, which holds ``assets/``.
        site: The built site, where MkDocs copied them.
    """
    assets = overrides / "assets"
    return [
        site / path.relative_to(overrides)
        for path in sorted(assets.rglob("*"))
        if path.suffix in KINDS and (site / path.relative_to(overrides)).is_file()
    ]


def minify(files: list[Path], esbuild: Path) -> list[Path]:
    """Minify ``files`` in place with ``esbuild``, each with a source map beside it.

    Files that already end with their source map's comment are left as they
    are, so that running it twice changes nothing.

    Args:
        files: The scripts and stylesheets to minify (``.js``, ``.mjs``, ``.css``).
        esbuild: The ``esbuild`` command, from ``node_modules/.bin``.

    Returns:
        The files minified by this call.

    Raises:
        MinifyError: If ``esbuild`` is missing or fails on a file.
    """
    todo = [path for path in files if SOURCE_MAP not in _tail(path)]
    if not todo:
        return []
    if not esbuild.is_file() or shutil.which(str(esbuild)) is None:
        raise MinifyError(f"{esbuild} not found: run `npm ci`")
    for path in todo:
        command = [
            str(esbuild),
            path.name,
            f"--outfile={path.name}",
            "--allow-overwrite",
            "--minify",
            "--sourcemap",
            "--charset=utf8",
            f"--loader:{path.suffix}={KINDS[path.suffix]}",
            "--log-level=error",
        ]
        try:
            done = subprocess.run(
                command,
                cwd=path.parent,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise MinifyError(f"esbuild took over {TIMEOUT} s on {path.name}") from error
        if done.returncode != 0:
            raise MinifyError(f"esbuild failed on {path.name}:\n{done.stderr.strip()}")
    return todo


def _tail(path: Path) -> str:
    """The last line of ``path``, where esbuild names the source map."""
    text = path.read_text(encoding="utf-8").rstrip()
    return text.rsplit("\n", 1)[-1]
