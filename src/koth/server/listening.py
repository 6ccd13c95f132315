"""``koth serve --workers N``: each worker listens on a socket of its own.

Uvicorn's supervisor binds one socket and hands it to every worker. Whichever worker
wakes first then accepts every connection waiting (the event loop accepts in a loop),
so connections that open together, such as the tables of a busy evening reconnecting,
can all land on one process while the others idle: measured with two workers, one
process used 0.91 of a core and the other 0.08, and two workers made no more moves than
one. Here every worker binds its own socket to the address with ``SO_REUSEPORT``, and
the kernel spreads new connections over the workers' sockets by their addresses.

The supervisor first binds the address without ``SO_REUSEPORT`` and lets it go: a port
held by any other program (an earlier ``koth serve`` included) stops the start with a
clear error instead of being shared with it.
"""

from __future__ import annotations

import socket

from uvicorn import Config, Server
from uvicorn.supervisors import multiprocess


def _family(host: str, port: int) -> tuple[socket.AddressFamily, tuple[str, int]]:
    """The address family and address that Uvicorn itself binds for ``host``: IPv6 for
    an address with a colon, else IPv4 (a name such as ``localhost`` resolves to IPv4)."""
    return (socket.AF_INET6 if ":" in host else socket.AF_INET), (host, port)


def check_port_free(host: str, port: int) -> None:
    """Raise ``OSError`` naming ``host:port`` when another socket holds it."""
    family, address = _family(host, port)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            raise OSError(exc.errno, f"{host}:{port} is in use ({exc.strerror})") from exc


def own_socket(host: str, port: int, backlog: int) -> socket.socket:
    """A listening socket on ``host:port`` that other sockets of this user share."""
    family, address = _family(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.listen(backlog)
    return sock


class OwnSocketServer(Server):
    """Uvicorn's server, listening on a socket of its own instead of the one handed to
    every worker."""

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        config = self.config
        super().run(sockets=[own_socket(config.host, config.port, config.backlog)])


class OwnSocketProcess(multiprocess.Process):
    """A worker process of Uvicorn's supervisor whose server has a socket of its own."""

    @property
    def server(self) -> Server:
        if self._server is None:
            self._server = OwnSocketServer(config=self.config)
        return self._server


def run_workers(config: Config) -> None:
    """Run ``config.workers`` workers under Uvicorn's supervisor (which replaces a worker
    that dies or stops answering), each listening on its own socket (check the port
    with ``check_port_free`` first)."""
    # the supervisor makes (and remakes) its workers by this module-level name
    multiprocess.Process = OwnSocketProcess  # type: ignore[misc]
    multiprocess.Multiprocess(config, sockets=[]).run()
