"""Starting `synapse ui`: the address checked, the socket bound, the token printed,
the browser opened, the pages served until Ctrl-C (docs/ui.md)."""

from __future__ import annotations

import ipaddress
import socket
import sys
import webbrowser
from pathlib import Path

from synapse_git.errors import BadInput


def checked_host(host: str, *, allow_remote: bool) -> str:
    """The address to bind: loopback unless `allow_remote`, and never every address
    at once (the Host header check needs the one name the server answers to)."""
    name = "127.0.0.1" if host == "localhost" else host
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        raise BadInput(
            f"--host {host[:60]!r} is not an IP address: give one, such as 127.0.0.1"
        ) from None
    if address.is_unspecified:
        raise BadInput(
            f"--host {name} would serve on every address of this machine; give one address"
        )
    if not address.is_loopback and not allow_remote:
        raise BadInput(
            f"--host {name} is reachable from other machines, and memory may hold what"
            " should stay on this one; pass --allow-remote to serve there anyway (the"
            " token still guards every request, but travels unencrypted over HTTP)"
        )
    return str(address)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (port 0: any free port)."""
    if not 0 <= port <= 65535:
        raise BadInput(f"--port {port} is not a port: use 1-65535, or 0 for any free one")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit this: a response's head and body, written apart,
        # are not held back waiting for the client's delayed acknowledgement.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def serve(
    folder: Path | None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    allow_remote: bool = False,
) -> None:
    """Serve the viewer for the scope of `folder` until interrupted."""
    address = checked_host(host, allow_remote=allow_remote)
    # The web stack is imported only here: no other command pays for it.
    import uvicorn

    from synapse_git.service import Synapse
    from synapse_git.ui.guard import Guard, Secrets, host_names
    from synapse_git.ui.pages import Viewer

    svc = Synapse()
    scope = svc.scope(folder)
    sock = bind(address, port)
    bound = int(sock.getsockname()[1])
    keys = Secrets()
    viewer = Viewer(svc, scope, keys.csrf)
    app = Guard(
        viewer.app(),
        hosts=host_names(address, bound),
        keys=keys,
        port=bound,
    )
    shown = f"[{address}]" if ":" in address else address
    url = f"http://{shown}:{bound}/search?token={keys.token}"
    print(f"synapse ui: serving {scope.project or 'global memory'} at {url}", flush=True)
    print("synapse ui: the address holds this run's token; press Ctrl-C to stop", flush=True)
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        proxy_headers=False,
        server_header=False,
        # h11, whose limit on a request head holds (httptools, when installed, has none).
        http="h11",
        h11_max_incomplete_event_size=16 * 1024,
        limit_concurrency=64,
        timeout_keep_alive=5,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        viewer.drift.close()
        sock.close()
        svc.reads.flush()
    print("synapse ui: stopped", file=sys.stderr)
