"""The site's archives as one gzip stream each: a deterministic gzip stream."""

from __future__ import annotations

import gzip

from calcsite.gzipped import gzipped
from hypothesis import given
from hypothesis import strategies as st

SAMPLE = b"".join(b"VALUE_%d = %d\n" % (n % 37, n) for n in range(2000))
"""Text with the repetition of a module's source: what gzip gains on."""


@given(st.binary(max_size=4096))
def test_gzipped_inflates_back_to_the_same_bytes(data: bytes) -> None:
    assert gzip.decompress(gzipped(data)) == data


def test_gzipped_writes_no_name_and_no_date_so_the_same_bytes_give_the_same_file() -> None:
    packed = gzipped(SAMPLE)
    assert packed == gzipped(SAMPLE)
    assert packed[:4] == b"\x1f\x8b\x08\x00"  # gzip, deflate, no flags: no file name
    assert packed[4:8] == bytes(4)  # no date


def test_gzipped_beats_zlibs_best_on_the_same_bytes() -> None:
    """Zopfli earns its place: smaller than gzip -9."""
    assert len(gzipped(SAMPLE)) < len(gzip.compress(SAMPLE, 9, mtime=0))
