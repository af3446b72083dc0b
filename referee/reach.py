"""How others reach a served app: the phones at the table (`serve --lan`: the machine's address
in the local network, and the address with its QR code in the terminal) and a container's
health check (`rummy-referee health`, the image's HEALTHCHECK), which must name a host the app
trusts. Outside `referee.web`, and runnable alone (`python3 -m referee.reach --port 8000`, the
HEALTHCHECK): a check every 30 s, on a busy or small machine, imports no Flask (60 ms, not 400).
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import socket
import sys
from collections.abc import Mapping, Sequence
from typing import Final

import segno

#: A documentation address (RFC 5737): a UDP socket "connected" to it sends nothing, but the
#: kernel picks the address this machine would use on its way out, the one phones can reach.
_OUTWARD: Final = ("192.0.2.1", 9)

HTTPS_NOTE: Final = (
    "Over plain HTTP on this network every page works: games, rounds, rule cards, the live "
    "board. Two things need HTTPS on a phone: using the app offline and installing it on the "
    "home screen (browsers allow service workers only on secure origins). For those, put Caddy "
    "or nginx with a certificate in front: docs/DEPLOY.md."
)


class NoNetwork(OSError):
    """This machine has no address in a local network (no route out)."""


def _outward_address() -> str:
    """The address this machine sends from on its way out ("" without a route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_OUTWARD)
            return str(probe.getsockname()[0])
        except OSError:
            return ""


def lan_address() -> str:
    """This machine's IPv4 address in its local network."""
    address = _outward_address()
    if not address or address.startswith("127.") or address == "0.0.0.0":
        raise NoNetwork(
            "this machine has no address in a local network: connect it to the Wi-Fi the phones "
            "use, or name an address with --host"
        )
    return address


def invitation(url: str) -> str:
    """What the terminal shows the host: the address phones open, its QR code, what needs HTTPS."""
    code = io.StringIO()
    segno.make(url, micro=False).terminal(out=code, compact=True, border=2)
    return (
        f"serve: phones on this network open {url}\n"
        f"(or scan this code with the phone's camera)\n{code.getvalue()}\n{HTTPS_NOTE}\n"
    )


def trusted_host(environ: Mapping[str, str]) -> str:
    """A host name the app answers to, as the settings in `environ` give them: SERVER_NAME,
    else the first TRUSTED_HOSTS (a leading dot trusts the name itself too), else 127.0.0.1."""
    # Read as referee.web.plumbing.hosting reads them (tests/ops/test_reach.py holds the two
    # together).
    if environ.get("SERVER_NAME", "").strip():
        return environ["SERVER_NAME"].strip()
    for name in environ.get("TRUSTED_HOSTS", "").split(","):
        if name.strip():
            return name.strip().lstrip(".")
    return "127.0.0.1"


def health(port: int, environ: Mapping[str, str], timeout: float = 4.0) -> tuple[bool, str]:
    """Ask the app served on this machine's `port` for /healthz (under SCRIPT_NAME, if served
    under a prefix): whether it is healthy, and what it said."""
    path = environ.get("SCRIPT_NAME", "").rstrip("/") + "/healthz"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": trusted_host(environ)})
        answer = connection.getresponse()
        body = answer.read(4096).decode("utf-8", "replace")
    except OSError as error:
        return False, f"no answer on port {port}: {error}"
    finally:
        connection.close()
    try:
        status = json.loads(body).get("status")
    except (ValueError, AttributeError):
        status = None
    healthy = answer.status == 200 and status == "ok"
    return healthy, f"{answer.status} {body.strip()[:300]}"


def main(argv: Sequence[str] | None = None) -> int:
    """`rummy-referee health` (and `python3 -m referee.reach`): 0 when /healthz says ok, else 1
    (what a container's HEALTHCHECK reads; Docker keeps 2 for itself)."""
    parser = argparse.ArgumentParser(prog="rummy-referee health")
    parser.add_argument("--port", type=int, default=8000, help="the port `serve` listens on")
    args = parser.parse_args(argv)
    healthy, said = health(args.port, os.environ)
    print(f"health: {said}", file=sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
