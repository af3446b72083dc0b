"""Helpers for tests that start a server of their own (gunicorn, nginx, an installed wheel, a
second app process): a free port, and waiting until the process answers on it."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    """A port nothing listens on now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(
    port: int,
    process: subprocess.Popen[bytes],
    log: Path,
    *,
    seconds: float = 30,
    address: str = "127.0.0.1",
) -> None:
    """Until `process` accepts connections on `address`:`port`; RuntimeError with the end of
    its `log` when it exits first or does not answer within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection((address, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"not answering on {port}:\n{log.read_text()[-3000:]}")
