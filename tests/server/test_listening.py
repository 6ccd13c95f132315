"""Under ``koth serve --workers N`` every worker listens on a socket of its own, so the
connections that open together spread over the workers instead of landing on whichever
woke first; a port held by another program stops the start with its name."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from koth.server.listening import check_port_free, own_socket
from tests.server.conftest import postgres_schema
from tests.server.live_server import REPO, LiveServer, free_port

#: /proc/net/tcp's states
ESTABLISHED, LISTEN = "01", "0A"


def sockets_on(port: int, state: str) -> set[str]:
    """The inodes of this machine's TCP sockets with local ``port`` in ``state``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                inodes.add(fields[9])
    return inodes


def holders(inodes: set[str]) -> dict[int, int]:
    """How many of the sockets ``inodes`` each process holds."""
    held: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        count = sum(
            link[len("socket:[") : -1] in inodes for link in links if link.startswith("socket:[")
        )
        if count:
            held[int(entry.name)] = count
    return held


def test_a_port_in_use_is_named() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError, match=f"127.0.0.1:{port} is in use"):
            check_port_free("127.0.0.1", port)
        with postgres_schema("koth_port") as url:
            done = subprocess.run(
                [sys.executable, "-c", "from koth.cli import main; main()", "serve",
                 "--workers", "2", "--port", str(port), "--database", url],
                cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO / "src")},
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
    assert done.returncode != 0
    assert f"127.0.0.1:{port} is in use" in done.stdout + done.stderr


def test_connections_opened_together_reach_every_worker() -> None:
    with postgres_schema("koth_listen") as url:
        server = LiveServer(url, workers=2, port=free_port()).start(timeout=90)
        clients: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 90
            while len(listening := sockets_on(server.port, LISTEN)) < 2:
                assert time.monotonic() < deadline, f"one listening socket: {listening}"
                time.sleep(0.1)
            # a socket of each worker's own (one socket handed to all: the first to wake
            # takes every connection waiting)
            assert len(listening) == 2
            for inode in listening:
                assert list(holders({inode}).values()) == [1]
            assert len(holders(listening)) == 2
            # keep-alive connections opened at once, as a room of tables reconnecting
            clients = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(24)]
            for client in clients:
                client.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            for client in clients:
                client.settimeout(60)
                assert client.recv(64).startswith(b"HTTP/1.1 200")
            served = holders(sockets_on(server.port, ESTABLISHED))
            assert sum(served.values()) == 24
            assert len(served) == 2, f"one worker took every connection: {served}"
        finally:
            for client in clients:
                client.close()
            server.stop()


def test_a_workers_socket_is_of_the_family_uvicorn_binds() -> None:
    """A name such as ``localhost`` listens on IPv4, an address with a colon on IPv6,
    as a single ``koth serve`` does."""
    for host, family in (("localhost", socket.AF_INET), ("127.0.0.1", socket.AF_INET)):
        with own_socket(host, 0, 8) as sock:
            assert sock.family == family
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
    if socket.has_ipv6:
        try:
            sock = own_socket("::1", 0, 8)
        except OSError:
            pytest.skip("this machine has no IPv6 loopback")
        with sock:
            assert sock.family == socket.AF_INET6
