"""Viewer benchmark: each page of `synapse ui` over a store of N project memories,
served by the real command on a loopback port, in temporary folders removed afterwards.

    python examples/ui_bench.py [MEMORIES] [ITERS]   (defaults 10000 7)

Prints JSON: for each page, the wall time of a whole HTTP request (p50 and max over
ITERS requests after one untimed warm-up), the server's CPU time over all requests
of that page (from /proc, so Linux only) divided by their number, and the load
average beside the figures.
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


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 7
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
        server = subprocess.Popen(
            [str(exe), "ui", "--no-open"], cwd=repo, env=env, stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            found = re.search(
                r"http://127\.0\.0\.1:(\d+)/search\?token=(\S+)", server.stdout.readline()
            )
            assert found, "no address printed"
            port, token = int(found.group(1)), found.group(2)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            conn.request("GET", f"/?token={token}")
            answer = conn.getresponse()
            answer.read()
            cookie = answer.getheader("set-cookie", "").split(";", 1)[0]
            results = {}
            for page in PAGES:
                walls = []
                conn.request("GET", page, headers={"Cookie": cookie})
                answer = conn.getresponse()
                answer.read()
                assert answer.status == 200, (page, answer.status)
                before = cpu_seconds(server.pid)
                for _ in range(iters):
                    start = time.perf_counter()
                    conn.request("GET", page, headers={"Cookie": cookie})
                    response = conn.getresponse()
                    body = response.read()
                    walls.append((time.perf_counter() - start) * 1000)
                cpu = (cpu_seconds(server.pid) - before) * 1000 / iters
                results[page] = {
                    "wall_ms_p50": round(statistics.median(walls), 1),
                    "wall_ms_max": round(max(walls), 1),
                    "server_cpu_ms": round(cpu, 1),
                    "bytes": len(body),
                    "load_average": round(os.getloadavg()[0], 2),
                }
        finally:
            server.terminate()
            server.wait(timeout=30)
        print(json.dumps({"memories": count, "iters": iters, "pages": results}, indent=2))


if __name__ == "__main__":
    main()
