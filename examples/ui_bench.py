"""Viewer benchmark: each page of `synapse ui` over a store of N project memories,
served by the real command on a loopback port, in temporary folders removed afterwards.

    python examples/ui_bench.py [MEMORIES] [ITERS]   (defaults 10000 7)

Prints JSON: for each page, the wall time of a whole HTTP request (p50 and max over
ITERS requests after one untimed warm-up), the server's CPU time over all requests
of that page (from /proc, so Linux only) divided by their number, and the load
average beside the figures. A whole drift check runs in a process of the server's
own (docs/ui.md): its CPU is given apart (`check_cpu_ms`, per check made). Before the
pages: the first page asked while the server's first check runs, and how long that
check took to be shown. After them: the server started again on the same data
folder, and its first drift page (the kept check, nothing worked out again).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arguments import counts

SEED = 4127
WORDS = [
    "deploy",
    "cache",
    "queue",
    "billing",
    "auth",
    "search",
    "export",
    "ledger",
    "mailer",
    "report",
    "config",
]
PAGES = [
    "/search?q=how+do+we+deploy+the+cache",
    "/search?q=billing+ledger+export&explain=1",
    "/memories",
    "/memories?page=150",
    "/memories?source=gen&since=30d",
    "/memory/5000",
    "/memories?state=any",
    "/drift",
    "/drift?fresh=1",
    "/team",
]


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """The process's CPU time, or that of its children it has waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    first = 13 if children else 11
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


class Server:
    """`synapse ui --no-open` in `repo`, entered with its token, over one connection."""

    def __init__(self, exe: Path, repo: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(exe), "ui", "--no-open"], cwd=repo, env=env, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        found = re.search(
            r"http://127\.0\.0\.1:(\d+)/search\?token=(\S+)", self.process.stdout.readline()
        )
        assert found, "no address printed"
        self.conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=120)
        self.conn.request("GET", f"/?token={found.group(2)}")
        answer = self.conn.getresponse()
        answer.read()
        self.cookie = answer.getheader("set-cookie", "").split(";", 1)[0]

    def get(self, page: str) -> tuple[float, bytes]:
        start = time.perf_counter()
        self.conn.request("GET", page, headers={"Cookie": self.cookie})
        answer = self.conn.getresponse()
        body = answer.read()
        assert answer.status == 200, (page, answer.status)
        return (time.perf_counter() - start) * 1000, body

    def settled(self) -> float:
        """Ask the drift page until no check is under way; the wall time it took."""
        start = time.perf_counter()
        while True:
            _, body = self.get("/drift")
            if b"being worked out" not in body and b"check is under way" not in body:
                return (time.perf_counter() - start) * 1000
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def load() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> None:
    # Memory 5000's page is one of those timed.
    count, iters = counts(__doc__, None, MEMORIES=(10_000, 5000, None), ITERS=(7, 1, None))
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = root / "repo"
        repo.mkdir()
        env = {**os.environ, "SYNAPSE_DATA": str(root / "data"), "SYNAPSE_SEMANTIC": "off"}
        env |= {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b"}
        env |= {"GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_GLOBAL": os.devnull}
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
        (repo / "src").mkdir()
        for word in WORDS:
            (repo / "src" / f"{word}.py").write_text("x = 1\n")
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
        subprocess.run(["git", "commit", "-qm", "init"], cwd=repo, check=True, env=env)
        lines = []
        for n in range(count):
            words = " ".join(rng.choice(WORDS) for _ in range(12))
            path = f"src/{rng.choice(WORDS)}{'' if n % 10 else '_gone'}.py"
            record = {"body": f"Note {n}: {words} in {path}", "source": "gen"}
            record["project"] = str(repo.resolve())
            lines.append(json.dumps(record))
        exe = Path(sys.executable).with_name("synapse")
        subprocess.run(
            [str(exe), "memory", "import", "-"],
            input="\n".join(lines),
            text=True,
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )
        server = Server(exe, repo, env)
        before: dict[str, object] = {}
        try:
            pid = server.process.pid
            wall, _ = server.get(PAGES[0])
            before["first_page_during_first_check"] = {"page": PAGES[0], "wall_ms": round(wall, 1)}
            before["first_check_shown_after_ms"] = round(server.settled() + wall, 1)
            before["first_check_cpu_ms"] = round(cpu_seconds(pid, children=True) * 1000, 1)
            before["load_average"] = load()
            results = {}
            for page in PAGES:
                walls = []
                server.get(page)
                cpu = cpu_seconds(pid)
                checks = cpu_seconds(pid, children=True)
                for _ in range(iters):
                    wall, body = server.get(page)
                    walls.append(wall)
                served = (cpu_seconds(pid) - cpu) * 1000 / iters
                if page == "/drift?fresh=1":
                    # The checks it started are counted once they are done.
                    server.settled()
                results[page] = {
                    "wall_ms_p50": round(statistics.median(walls), 1),
                    "wall_ms_max": round(max(walls), 1),
                    "server_cpu_ms": round(served, 1),
                    "check_cpu_ms": round((cpu_seconds(pid, children=True) - checks) * 1000, 1),
                    "bytes": len(body),
                    "load_average": load(),
                }
        finally:
            server.stop()
        again = Server(exe, repo, env)
        try:
            wall, body = again.get("/drift")
            after = {
                "first_drift_page_wall_ms": round(wall, 1),
                "kept_check_shown": b"check is under way" not in body
                and b"being worked out" not in body,
                "check_cpu_ms": round(cpu_seconds(again.process.pid, children=True) * 1000, 1),
                "load_average": load(),
            }
        finally:
            again.stop()
        answer = {"memories": count, "iters": iters, "start": before, "pages": results}
        print(json.dumps({**answer, "started_again": after}, indent=2))


if __name__ == "__main__":
    main()
