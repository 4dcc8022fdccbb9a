"""The site's archives as one gzip stream each: deterministic, Zopfli's or zlib's best."""

from __future__ import annotations

import gzip
import zlib
from importlib import metadata

import pytest
from calcsite import gzipped
from calcsite.gzipped import ZLIB, ZOPFLI, Compressor
from hypothesis import given, settings
from hypothesis import strategies as st

SAMPLE = b"".join(b"VALUE_%d = %d\n" % (n % 37, n) for n in range(2000))
"""Text with the repetition of a module's source: what gzip gains on."""

COMPRESSORS = pytest.mark.parametrize("compressor", [ZLIB, ZOPFLI], ids=["zlib", "zopfli"])


@COMPRESSORS
@settings(max_examples=50)
@given(data=st.binary(max_size=4096))
def test_each_compressor_inflates_back_to_the_same_bytes(
    compressor: Compressor, data: bytes
) -> None:
    assert gzip.decompress(compressor.compress(data)) == data


@COMPRESSORS
def test_each_writes_no_name_and_no_date_so_the_same_bytes_give_the_same_file(
    compressor: Compressor,
) -> None:
    packed = compressor.compress(SAMPLE)
    assert packed == compressor.compress(SAMPLE)
    assert packed[:4] == b"\x1f\x8b\x08\x00"  # gzip, deflate, no flags: no file name
    assert packed[4:8] == bytes(4)  # no date


def test_zlib_is_zlibs_best() -> None:
    """The deflate stream and trailer of ``gzip -9``: only the header's OS byte may differ."""
    packed = ZLIB.compress(SAMPLE)
    assert ZLIB.compress is gzipped.gzipped
    assert packed[8] == 2  # XFL: the slowest, best compression
    assert packed[10:] == gzip.compress(SAMPLE, 9, mtime=0)[10:]


def test_zopfli_beats_zlibs_best_on_the_same_bytes() -> None:
    assert ZOPFLI.compress is gzipped.zopfli_gzipped
    assert len(ZOPFLI.compress(SAMPLE)) < len(ZLIB.compress(SAMPLE))


def test_a_key_names_the_compressor_its_setting_and_its_version() -> None:
    assert ZLIB.key() == f"zlib level 9 {zlib.ZLIB_RUNTIME_VERSION}"
    assert ZOPFLI.key() == f"zopfli 15 iterations {metadata.version('zopfli')}"
