"""Say where the app can be opened once `make run` has it serving: on this computer, and on a
phone on the same network (which needs `HOST=0.0.0.0`; the default 127.0.0.1 is reachable
from this computer only).

    python tools/announce.py HOST PORT    # waits for /healthz (at most a minute), then says
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request


def network_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (no loopback), as the system lists them;
    nothing is sent anywhere."""
    found: list[str] = []
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
        found = listed.stdout.split()
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            found = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            found = []
    return [a for a in found if "." in a and not a.startswith("127.")]


#: Where a server listening on every address of this computer answers this computer.
EVERY_ADDRESS = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}
LOOPBACK = ("127.", "localhost", "::1")


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def here(host: str) -> str:
    """The address this computer opens the app at: loopback for a server on every address,
    else the address it listens on."""
    return EVERY_ADDRESS.get(host, host)


def lines(host: str, port: int, addresses: list[str]) -> list[str]:
    """What `make run` says once the app answers."""
    said = [f"Scorekeeper is ready on this computer: {url(here(host), port)}"]
    if host in EVERY_ADDRESS:
        said += [f"On a phone on the same network: {url(a, port)}" for a in addresses]
        if not addresses:
            said.append("No network address found: a phone cannot reach this computer.")
    elif host.startswith(LOOPBACK):
        said.append(
            f"Only this computer can open it (HOST={host}). For the phones at the table: "
            "make run HOST=0.0.0.0"
        )
    else:  # one address of this computer's, given on purpose: the phones open that one
        said.append(f"On a phone on the same network: {url(host, port)}")
    return said


def wait_until_ready(host: str, port: int, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url(here(host), port)}healthz", timeout=2):
                return True
        except OSError:
            time.sleep(0.5)
    return False


def main(argv: list[str]) -> int:
    host, port = argv[1], int(argv[2])
    if not wait_until_ready(host, port):
        print(f"Scorekeeper did not answer on port {port} within a minute.", file=sys.stderr)
        return 1
    print("\n".join(lines(host, port, network_addresses())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
