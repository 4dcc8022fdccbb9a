"""``python -m bench.published [RESULTS]`` (``./dev publish``): show a run on the Performance page.

It copies a run (default ``.bench/results.json``) to the published file,
``docs/assets/bench/results.json``, from which the site's build renders the
page's tables (:mod:`calcsite.performance`, which the MkDocs hook
``overrides/hooks/performance.py`` calls). A run that lacks a table's
measurements, or has fewer than ``MIN_VISITS`` visits per page (a ``--quick``
run), is refused, here and again by the build.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from calcsite.performance import PUBLISHED, PublishError, load

from . import ROOT

DOCS = ROOT / "docs"


def main(argv: list[str] | None = None, docs: Path = DOCS) -> int:
    """Publish a run (default ``.bench/results.json``): copy it to ``docs`` if it can be."""
    args = sys.argv[1:] if argv is None else argv
    source = Path(args[0]) if args else ROOT / ".bench" / "results.json"
    try:
        load(source)
    except PublishError as error:
        print(f"bench.published: {error}", file=sys.stderr)
        return 1
    published = docs / PUBLISHED
    if source.resolve() != published.resolve():
        published.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, published)
    print(f"{published}: the Performance page shows this run from the next build.")
    print("Bring the prose around the tables (date, machine, comments) up to date by hand.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
