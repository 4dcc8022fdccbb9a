"""The server of :mod:`tests.support.server`, for the browser tests that import it from here."""

from tests.support.server import Server, serve, start

__all__ = ["Server", "serve", "start"]
