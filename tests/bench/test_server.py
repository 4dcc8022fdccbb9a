"""The shared GitHub-Pages-like server: gzip, MIME types, caching headers, 304s."""

from __future__ import annotations

import gzip
import http.client
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.server import Line, Link, Server, serve


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text("<p>" + "hello " * 200 + "</p>")
    (tmp_path / "404.html").write_text("not here")
    (tmp_path / "engine.wasm").write_bytes(b"\0asm" + bytes(4000))
    (tmp_path / "core.whl").write_bytes(b"PK" + bytes(4000))
    (tmp_path / "app.mjs").write_text("export const a = 1;\n" * 50)
    return tmp_path


@pytest.fixture
def server(site: Path) -> Iterator[Server]:
    with serve(site) as running:
        yield running


def get(server: Server, path: str, **headers: str) -> http.client.HTTPResponse:
    host, port = server.origin.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def test_text_is_gzipped_only_for_clients_that_accept_it(server: Server, site: Path) -> None:
    plain = get(server, "/page/")
    assert plain.status == 200
    assert plain.getheader("Content-Encoding") is None
    assert plain.getheader("Content-Type") == "text/html; charset=utf-8"
    zipped = get(server, "/page/", **{"Accept-Encoding": "gzip, deflate"})
    assert zipped.getheader("Content-Encoding") == "gzip"
    assert zipped.getheader("Vary") == "Accept-Encoding"
    assert gzip.decompress(zipped.body) == (site / "page" / "index.html").read_bytes()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "mime", "encoding"),
    [
        ("/engine.wasm", "application/wasm", "gzip"),
        ("/app.mjs", "text/javascript; charset=utf-8", "gzip"),
        ("/core.whl", "application/octet-stream", None),
    ],
)
def test_mime_types_and_what_is_compressed(
    server: Server, path: str, mime: str, encoding: str | None
) -> None:
    response = get(server, path, **{"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Type") == mime
    assert response.getheader("Content-Encoding") == encoding


def test_caching_headers_and_conditional_requests(server: Server) -> None:
    first = get(server, "/engine.wasm", **{"Accept-Encoding": "gzip"})
    assert first.getheader("Cache-Control") == "max-age=600"
    etag = first.getheader("ETag")
    modified = first.getheader("Last-Modified")
    assert etag
    assert modified
    again = get(server, "/engine.wasm", **{"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status == 304
    assert again.body == b""  # type: ignore[attr-defined]
    assert get(server, "/engine.wasm", **{"If-Modified-Since": modified}).status == 304
    # The identity and gzip bodies are different representations.
    assert get(server, "/engine.wasm", **{"If-None-Match": etag}).status == 200


def test_any_origin_may_read_what_it_serves(server: Server) -> None:
    first = get(server, "/app.mjs", Origin="http://elsewhere.test")
    assert first.getheader("Access-Control-Allow-Origin") == "*"
    etag = first.getheader("ETag")
    assert etag
    again = get(server, "/app.mjs", Origin="http://elsewhere.test", **{"If-None-Match": etag})
    assert again.status == 304
    assert again.getheader("Access-Control-Allow-Origin") == "*"


def test_folders_redirect_and_missing_files_get_the_404_page(server: Server) -> None:
    moved = get(server, "/page?x=1")
    assert moved.status == 301
    assert moved.getheader("Location") == "/page/?x=1"
    missing = get(server, "/nowhere/")
    assert missing.status == 404
    assert missing.body == b"not here"  # type: ignore[attr-defined]
    assert [(hit.path, hit.status) for hit in server.hits] == [("/page", 301), ("/nowhere/", 404)]


def test_a_prefix_publishes_the_folder_there_only(site: Path) -> None:
    with serve(site, prefix="/repo/") as running:
        assert running.url("page/") == running.origin + "/repo/page/"
        assert get(running, "/repo/page/").status == 200
        assert get(running, "/page/").status == 404


def timed_get(server: Server, path: str) -> tuple[float, bytes]:
    started = time.monotonic()
    response = get(server, path)
    return time.monotonic() - started, response.body  # type: ignore[attr-defined]


class VirtualClock:
    """A clock that moves only when the line sleeps, so a schedule is exact under any load."""

    def __init__(self) -> None:
        self.now = 0.0
        self.arrivals: list[float] = []

    def sleep(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, at once."""
        self.now += seconds

    def write(self, piece: bytes) -> None:
        """Record when ``piece`` reached the reader."""
        self.arrivals.append(self.now)


# 16 Mbit/s is 2 MB/s: 200 kB take 0.1 s, in chunks of 20 kB every 10 ms.
SIXTEEN = Link(megabits=16, latency_ms=50, chunk=20_000)


def test_the_link_is_off_by_default(server: Server) -> None:
    assert server.link is None


def test_a_line_paces_a_body_at_its_bandwidth() -> None:
    clock = VirtualClock()
    Line(SIXTEEN, clock=lambda: clock.now, sleep=clock.sleep).send(clock.write, bytes(200_000))
    assert clock.arrivals == pytest.approx([0.01 * n for n in range(1, 11)])


def test_bodies_sent_at_the_same_time_share_the_line() -> None:
    clock = VirtualClock()
    line = Line(SIXTEEN, clock=lambda: clock.now, sleep=clock.sleep)
    line.send(clock.write, bytes(200_000))
    clock.now = 0.0  # the second body starts with the first: it waits for the line
    line.send(clock.write, bytes(200_000))
    assert clock.arrivals[-1] == pytest.approx(0.2)
    # After a pause the line is free again: a body sent later takes its own time only.
    clock.now = 1.0
    line.send(clock.write, bytes(20_000))
    assert clock.arrivals[-1] == pytest.approx(1.01)


def test_a_served_link_delays_each_response_and_paces_its_body(tmp_path: Path) -> None:
    """Through the real server: sleeping never ends early, so only lower bounds are exact."""
    (tmp_path / "big.whl").write_bytes(bytes(200_000))
    (tmp_path / "small.whl").write_bytes(b"PK")
    with serve(tmp_path, link=SIXTEEN) as running:
        small, _ = timed_get(running, "/small.whl")
        big, body = timed_get(running, "/big.whl")
    assert body == bytes(200_000)
    assert small >= 0.05
    assert big >= 0.15


def test_served_responses_share_the_links_bandwidth(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.whl").write_bytes(bytes(200_000))
    with serve(tmp_path, link=Link(megabits=16, latency_ms=0)) as running:
        started = time.monotonic()
        with ThreadPoolExecutor(2) as pool:
            bodies = list(pool.map(lambda path: timed_get(running, path)[1], ["/a.whl", "/b.whl"]))
        both = time.monotonic() - started
    # Together, 400 kB at 2 MB/s: at least 0.2 s, not the 0.1 s each would take alone.
    assert both >= 0.19
    assert bodies == [bytes(200_000)] * 2
