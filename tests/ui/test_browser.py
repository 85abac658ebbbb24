"""`synapse ui` in a real browser: Debian's headless Chromium loads the printed address,
follows the cookie to the page and renders it. Skipped where no Chromium is installed
(`.ci/run` installs it from the system's packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import make_repo
from support.devtools import DevTools, page_socket
from support.viewer import Viewer, start, stop

from synapse_git.service import Synapse

BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no chromium on PATH")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1100,900",
]
PAGES = {
    "search": "/search?q=deploy+notes&explain=1",
    "memories": "/memories",
    "memory": "/memory/2",
    "drift": "/drift",
    "team": "/team",
}


def browse(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One headless Chromium run with a fresh profile (no cookie from before)."""
    assert BROWSER is not None
    if profile.exists():
        shutil.rmtree(profile)
    return subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@contextmanager
def driven(profile: Path, url: str) -> Iterator[DevTools]:
    """Chromium opened at `url`, driven through the DevTools protocol."""
    assert BROWSER is not None
    command = [BROWSER, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0"]
    browser = subprocess.Popen(
        [*command, url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.monotonic() < end, "no DevTools port"
            time.sleep(0.2)
        tools = DevTools(page_socket(int(port_file.read_text().splitlines()[0])))
        try:
            yield tools
        finally:
            tools.close()
    finally:
        browser.terminate()
        browser.wait(timeout=30)


# Loaded by every Python started with PYTHONPATH pointing at its folder: the drift
# worker alone waits for the gate file, so the first check is surely not ready when
# the browser first asks for the drift page.
HELD_WORKER = """
import os, sys, time
if "synapse_git.ui.drift_worker" in sys.orig_argv:
    end = time.monotonic() + 120
    while not os.path.exists(os.environ["SYNAPSE_TEST_GATE"]) and time.monotonic() < end:
        time.sleep(0.05)
"""


def test_the_drift_page_shows_the_first_check_by_itself_once_ready(
    stocked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site, gate = tmp_path / "site", tmp_path / "gate"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HELD_WORKER, encoding="utf-8")
    paths = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    monkeypatch.setenv("SYNAPSE_TEST_GATE", str(gate))
    running = start(stocked)
    try:
        with driven(tmp_path / "profile", running.url("/drift")) as tools:
            waiting = tools.wait_for("being worked out")
            assert "being worked out" in waiting and "findings in" not in waiting
            gate.touch()
            # No click, no navigation of ours: the page asks again by itself.
            shown = tools.wait_for("findings in", timeout=60)
            assert "findings in" in shown and 'action="/memory/2/forget"' in shown
    finally:
        gate.touch()
        err = stop(running)
    assert "Traceback" not in err, err


def test_the_search_page_shows_a_recalled_memory(viewer: Viewer, tmp_path: Path) -> None:
    done = browse(tmp_path / "profile", "--dump-dom", viewer.url("/search?q=old+config"))
    dom = done.stdout
    assert "<title>Search · synapse</title>" in dom, done.stderr[-2000:]
    # The hit, reached through the token address, its redirect and the cookie.
    assert 'class="card hit"' in dom
    assert "Settings are read in src/old_config.py at start" in dom
    assert viewer.token not in dom


def test_the_browser_without_the_token_is_refused(viewer: Viewer, tmp_path: Path) -> None:
    done = browse(tmp_path / "profile", "--dump-dom", f"{viewer.origin}/search?q=config")
    assert "this page needs the address" in done.stdout
    assert "Settings are read" not in done.stdout


def test_the_hostile_body_is_text_in_the_dom(viewer: Viewer, tmp_path: Path) -> None:
    dom = browse(tmp_path / "profile", "--dump-dom", viewer.url("/memory/1")).stdout
    assert "Memory 1" in dom
    # Had the markup been obeyed, the DOM would hold a script element.
    assert "<script>" not in dom and "&lt;script&gt;alert('x')&lt;/script&gt;" in dom
    assert "\\x1b[2J" in dom


def test_a_screenshot_of_each_page(viewer: Viewer, tmp_path: Path) -> None:
    """Screenshots are kept in the test's folder, or in $SYNAPSE_UI_SHOTS when set."""
    kept = Path(os.environ.get("SYNAPSE_UI_SHOTS") or tmp_path / "shots")
    kept.mkdir(parents=True, exist_ok=True)
    for name, path in PAGES.items():
        shot = kept / f"ui-{name}.png"
        done = browse(tmp_path / "profile", f"--screenshot={shot}", viewer.url(path))
        assert shot.exists(), done.stderr[-2000:]
        data = shot.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, name


def test_search_open_a_memory_and_settle_its_drift_by_clicks(
    viewer: Viewer, tmp_path: Path
) -> None:
    """Search, a hit's link, the drift page, the forget button: the browser's own
    clicks, form POST and redirects; then the store is asked what it holds."""
    with driven(tmp_path / "profile", viewer.url("/search?q=old+config")) as tools:
        found = tools.wait_for("Settings are read")
        assert 'class="card hit"' in found
        tools.click('.hit a[href="/memory/2"]')
        memory = tools.wait_for("Paths it names")
        assert "<h1>Memory 2</h1>" in memory and "gone from the checkout" in memory
        tools.click('header a[href="/drift"]')
        drift = tools.wait_for("Forget 2")
        assert 'action="/memory/2/forget"' in drift
        tools.click('form[action="/memory/2/forget"] button')
        after = tools.wait_for("forgot memory 2")
        assert "forgot memory 2" in after
        assert 'action="/memory/2/forget"' not in after
    svc = Synapse()
    assert svc.history(2, svc.scope(viewer.repo)).memory.state == "forgotten"
    assert svc.history(4, svc.scope(viewer.repo)).memory.state == "live"


def test_the_list_narrowed_to_another_project_by_clicks(viewer: Viewer, tmp_path: Path) -> None:
    """The project filter as a person uses it: chosen in the list's form, submitted by
    the button, the next page followed by its link, one memory opened from the list."""
    other = make_repo(tmp_path / "other", {"README.md": "x\n"})
    svc = Synapse()
    there = svc.scope(other)
    ids = [svc.remember(f"Other project note {n}", there).id for n in range(51)]
    with driven(tmp_path / "profile", viewer.url("/memories")) as tools:
        listed = tools.wait_for("The cache timeout")
        assert "Other project note" not in listed
        root = tools.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
        option = f'select[name="project"] option[value="{there.project}"]'
        node = tools.call("DOM.querySelector", nodeId=root, selector=option)["nodeId"]
        tools.call("DOM.setAttributeValue", nodeId=node, name="selected", value="selected")
        tools.click('form[action="/memories"] button')
        first = tools.wait_for("Other project note 50")
        assert "page 1 of 2" in first and "The cache timeout" not in first
        tools.click(".pager a")
        second = tools.wait_for("page 2 of 2")
        assert "Other project note 0" in second and "Other project note 50" not in second
        tools.click(f'a[href^="/memory/{ids[0]}?project="]')
        shown = tools.wait_for(f"Memory {ids[0]}")
        assert "Other project note 0" in shown and "project" in shown
