"""The real `synapse ui` as a process on a free loopback port, and HTTP to it."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

HOSTILE = "Deploy notes <script>alert('x')</script> \x1b[2J\x1b]52;c;aGk=\x07 \u202eevil"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str


@dataclass
class Viewer:
    """A running viewer: its address, token and the cookie once entered."""

    process: subprocess.Popen[str]
    host: str
    port: int
    token: str
    repo: Path
    cookie: str = ""
    ids: dict[str, int] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "/search") -> str:
        joiner = "&" if "?" in path else "?"
        return f"{self.origin}{path}{joiner}token={self.token}"

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
        cookie: bool = True,
    ) -> Answer:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            sent = {"Host": f"{self.host}:{self.port}"}
            if cookie and self.cookie:
                sent["Cookie"] = self.cookie
            if body is not None:
                sent["Content-Type"] = "application/x-www-form-urlencoded"
                sent["Content-Length"] = str(len(body))
            sent.update(headers or {})
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders(body)
            response = conn.getresponse()
            data = response.read().decode("utf-8")
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        finally:
            conn.close()

    def enter(self) -> None:
        """Open the printed address: take the cookie it sets."""
        answer = self.request("GET", f"/search?token={self.token}", cookie=False)
        assert answer.status == 303, answer
        self.cookie = answer.headers["set-cookie"].split(";", 1)[0]

    def drift(self, path: str = "/drift") -> str:
        """The drift page once no check is under way: a check the viewer expects to be
        slow runs beside the pages, which meanwhile show the last one."""
        end = time.monotonic() + 120
        while True:
            page = self.request("GET", path).text
            if "being worked out" not in page and "check is under way" not in page:
                return page
            assert time.monotonic() < end, "the drift check never finished"
            time.sleep(0.1)

    def csrf(self, path: str = "/drift") -> str:
        shown = self.drift(path) if path.startswith("/drift") else self.request("GET", path).text
        found = re.search(r'name="csrf" value="([^"]+)"', shown)
        assert found, f"no form on {path}"
        return found.group(1)

    def post(
        self, path: str, form: dict[str, object], *, headers: dict[str, str] | None = None
    ) -> Answer:
        sent = {"Origin": self.origin, **(headers or {})}
        body = urlencode({k: str(v) for k, v in form.items()}).encode()
        return self.request("POST", path, headers=sent, body=body)


def start(repo: Path, *args: str) -> Viewer:
    """`synapse ui --no-open --port 0` in `repo`, once it has printed its address."""
    exe = Path(sys.executable).with_name("synapse")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]
    process = subprocess.Popen(
        [*command, "ui", "--no-open", "--port", "0", *args],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"(http://\S+)", line)
    if not found:
        process.kill()
        _, err = process.communicate(timeout=10)
        raise AssertionError(f"no address printed: {line!r} {err!r}")
    address = urlsplit(found.group(1))
    token = address.query.removeprefix("token=")
    assert address.hostname is not None and address.port is not None
    return Viewer(process, address.hostname, address.port, token, repo)


def stop(viewer: Viewer) -> str:
    """Stop the viewer; its stderr."""
    viewer.process.terminate()
    try:
        _, err = viewer.process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        viewer.process.kill()
        _, err = viewer.process.communicate(timeout=15)
    return err
