"""Just enough of the Chrome DevTools protocol to click a button: a WebSocket client on
the standard library (RFC 6455 frames, text only), and commands by id."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit


class Failed(Exception):
    """A command the browser answered with an error."""


class DevTools:
    def __init__(self, ws_url: str) -> None:
        address = urlsplit(ws_url)
        assert address.hostname is not None and address.port is not None
        self.sock = socket.create_connection((address.hostname, address.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {address.path} HTTP/1.1\r\nHost: {address.hostname}:{address.port}\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the browser closed the connection"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.next_id = 0
        self.call("DOM.enable")

    def _exact(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            assert chunk, "the browser closed the connection"
            data += chunk
        return data

    def _send(self, text: str) -> None:
        payload = text.encode()
        head = bytes([0x81])
        if len(payload) < 126:
            head += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def _receive(self) -> dict[str, Any]:
        message = b""
        while True:
            first, second = self._exact(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack(">H", self._exact(2))[0]
            elif size == 127:
                size = struct.unpack(">Q", self._exact(8))[0]
            message += self._exact(size)
            if first & 0x80:
                found: dict[str, Any] = json.loads(message)
                return found

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            answer = self._receive()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise Failed(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result

    def html(self) -> str:
        root = self.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
        return str(self.call("DOM.getOuterHTML", nodeId=root)["outerHTML"])

    def wait_for(self, words: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while True:
            try:
                shown = self.html()
            except Failed:
                # The page was replaced between two commands: a navigation under way.
                shown = ""
            if words in shown or time.monotonic() > end:
                return shown
            time.sleep(0.2)

    def click(self, selector: str, timeout: float = 30) -> None:
        """A real mouse click in the middle of the element `selector` names. A page
        replaced while the element is looked up (the drift page reloads itself while
        a check is under way) is looked up again."""
        end = time.monotonic() + timeout
        while True:
            try:
                x, y = self._middle(selector)
                break
            except Failed:
                # The node ids of the page asked about died with it: ask the new one.
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def _middle(self, selector: str) -> tuple[float, float]:
        """Where the middle of the element `selector` names is, scrolled into view."""
        root = self.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        assert node, f"no element {selector}"
        self.call("DOM.scrollIntoViewIfNeeded", nodeId=node)
        quad = self.call("DOM.getBoxModel", nodeId=node)["model"]["content"]
        return (quad[0] + quad[4]) / 2, (quad[1] + quad[5]) / 2

    def close(self) -> None:
        self.sock.close()


def page_socket(port: int, timeout: float = 30) -> str:
    """The WebSocket address of the browser's first page."""
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as got:
                pages = [t for t in json.load(got) if t.get("type") == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
        except OSError:
            pass
        assert time.monotonic() < end, "the browser opened no page"
        time.sleep(0.2)
