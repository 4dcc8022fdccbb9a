"""The site's archives as one gzip stream each: zlib's best, deterministic."""

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


def test_gzipped_is_zlibs_best() -> None:
    """The deflate stream and trailer of ``gzip -9``: only the header's OS byte may differ."""
    packed = gzipped(SAMPLE)
    assert packed[8] == 2  # XFL: the slowest, best compression
    assert packed[10:] == gzip.compress(SAMPLE, 9, mtime=0)[10:]
