"""`synapse ui` over real HTTP: a real server process on a loopback port, a real store
in a real repository. Refusals change nothing; actions change the store as the CLI would."""

from __future__ import annotations

import html
import re
import sqlite3
from pathlib import Path
from urllib.parse import quote_plus, urlencode

import pytest
from support import git, make_repo, run_cli
from support.viewer import Viewer, start, stop

from synapse_git import settings
from synapse_git.service import Synapse

PAGES = ["/search", "/search?q=deploy&explain=1", "/memories", "/memory/1", "/drift", "/team"]


def state(repo: Path, memory_id: int) -> tuple[str, int | None, str]:
    svc = Synapse()
    memory = svc.history(memory_id, svc.scope(repo)).memory
    return memory.state, memory.superseded_by, memory.body


def dump() -> list[str]:
    """Everything the store holds, to compare before and after."""
    with sqlite3.connect(settings.load().db_path) as conn:
        return list(conn.iterdump())


def test_the_printed_address_sets_a_strict_cookie_and_drops_the_token(viewer: Viewer) -> None:
    answer = viewer.request("GET", f"/memories?scope=project&token={viewer.token}", cookie=False)
    assert answer.status == 303
    assert answer.headers["location"] == "/memories?scope=project"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"synapse_ui_{viewer.port}={viewer.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    viewer.cookie = cookie.split(";", 1)[0]
    page = viewer.request("GET", "/memories?scope=project")
    assert page.status == 200 and "Memories" in page.text


def test_without_the_token_every_request_is_refused_and_nothing_changes(viewer: Viewer) -> None:
    before = dump()
    for path in PAGES:
        assert viewer.request("GET", path).status == 401
    assert viewer.request("GET", "/search?token=" + "A" * 43).status == 401
    assert (
        viewer.request("GET", "/search", headers={"Cookie": f"synapse_ui_{viewer.port}=x"}).status
        == 401
    )
    viewer.enter()
    csrf = viewer.csrf()
    viewer.cookie = ""
    refused = viewer.post("/memory/2/forget", {"csrf": csrf})
    assert refused.status == 401
    assert "token" in refused.text and refused.text.count("\n") == 1
    assert dump() == before
    assert state(viewer.repo, 2)[0] == "live"


def test_a_foreign_host_is_refused_even_with_the_cookie(viewer: Viewer) -> None:
    viewer.enter()
    csrf = viewer.csrf()
    before = dump()
    for host in ("evil.example", f"evil.example:{viewer.port}", f"127.0.0.1:{viewer.port + 1}"):
        answer = viewer.request("GET", "/memory/1", headers={"Host": host})
        assert answer.status == 421, host
        assert "Deploy" not in answer.text
        forget = viewer.post("/memory/2/forget", {"csrf": csrf}, headers={"Host": host})
        assert forget.status == 421
    assert dump() == before
    assert (
        viewer.request("GET", "/search", headers={"Host": f"localhost:{viewer.port}"}).status == 200
    )


def test_a_cross_site_write_is_refused(viewer: Viewer) -> None:
    viewer.enter()
    csrf = viewer.csrf()
    before = dump()
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": f"http://evil.example:{viewer.port}"},
        {"Origin": "null"},
        {"Origin": f"https://127.0.0.1:{viewer.port}"},
    ):
        answer = viewer.post("/memory/2/forget", {"csrf": csrf}, headers=headers)
        assert answer.status == 403, headers
    # No Origin: the Referer must be this server's page.
    body = f"csrf={csrf}".encode()
    assert viewer.request("POST", "/memory/2/forget", body=body).status == 403
    evil = {"Referer": "http://evil.example/page"}
    assert viewer.request("POST", "/memory/2/forget", body=body, headers=evil).status == 403
    # The right origin without the form's CSRF value, or with another one.
    assert viewer.post("/memory/2/forget", {}).status == 403
    assert viewer.post("/memory/2/forget", {"csrf": csrf[:-2] + "xx"}).status == 403
    assert dump() == before
    assert state(viewer.repo, 2)[0] == "live"
    # The same request from the page itself works.
    own = {"Referer": f"{viewer.origin}/drift"}
    assert viewer.request("POST", "/memory/2/forget", body=body, headers=own).status == 303
    assert state(viewer.repo, 2)[0] == "forgotten"


def test_get_never_writes(viewer: Viewer) -> None:
    viewer.enter()
    before = dump()
    for path in [*PAGES, "/memory/2", "/memory/5", "/memories?page=2", "/style.css"]:
        answer = viewer.request("GET", path)
        assert answer.status == 200, path
    for action in ("forget", "restore", "edit", "supersede", "share", "unshare"):
        assert viewer.request("GET", f"/memory/2/{action}?by=3&body=x").status in (404, 405)
    for method in ("PUT", "DELETE", "PATCH"):
        assert viewer.request(method, "/memory/2/forget").status == 405
    assert dump() == before


def test_every_answer_carries_the_security_headers(viewer: Viewer) -> None:
    viewer.enter()
    for answer in (
        viewer.request("GET", "/search"),
        viewer.request("GET", "/search", cookie=False),
        viewer.request("GET", "/memory/999"),
        viewer.request("GET", "/style.css"),
    ):
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["cache-control"] == "no-store"
        assert "server" not in answer.headers


def test_a_hostile_body_is_shown_as_text(viewer: Viewer) -> None:
    viewer.enter()
    for path in ("/memory/1", "/search?q=deploy+notes", "/memories", "/search?q=deploy&explain=1"):
        text = viewer.request("GET", path).text
        assert "<script>" not in text and "alert('x')" not in text, path
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text, path
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, path
        assert "\\x1b[2J" in text and "\\x1b]52;c;aGk=\\x07" in text and "\\u202eevil" in text
    page = viewer.request("GET", "/memory/1").text
    assert "ticket &lt;b&gt;42&lt;/b&gt;" in page
    # A question that is markup comes back as text in the form too.
    echoed = viewer.request("GET", '/search?q="><script>x</script>').text
    assert "<script>x" not in echoed and "&quot;&gt;&lt;script&gt;x" in echoed


def test_the_memory_page_shows_commit_chain_and_paths(viewer: Viewer) -> None:
    viewer.enter()
    page = viewer.request("GET", "/memory/2").text
    assert "src/old_config.py" in page and "gone from the checkout" in page
    assert " on main" in page
    csrf = viewer.csrf("/memory/2")
    assert viewer.post("/memory/4/supersede", {"csrf": csrf, "by": 5}).status == 303
    chain = viewer.request("GET", "/memory/4").text
    assert 'href="/memory/5"' in chain and "superseded" in chain
    assert "Restore" in chain


def test_the_settle_buttons_change_the_store(viewer: Viewer) -> None:
    viewer.enter()
    drift = viewer.drift()
    assert "stale" in drift and "conflict" in drift
    assert 'action="/memory/2/forget"' in drift
    assert 'action="/memory/4/supersede"' in drift and 'name="by" value="5"' in drift
    csrf = viewer.csrf("/drift")

    done = viewer.post("/memory/2/forget", {"csrf": csrf, "back": "/drift"})
    assert done.status == 303 and done.headers["location"].startswith("/drift?note=")
    assert state(viewer.repo, 2)[0] == "forgotten"
    after = viewer.request("GET", done.headers["location"]).text
    assert "forgot memory 2" in after and 'action="/memory/2/forget"' not in after

    assert (
        viewer.post("/memory/4/supersede", {"csrf": csrf, "by": 5, "back": "/drift"}).status == 303
    )
    assert state(viewer.repo, 4)[:2] == ("superseded", 5)
    assert "conflict" not in viewer.drift()

    edited = viewer.post("/memory/3/edit", {"csrf": csrf, "body": "Tests run with\r\npytest -x"})
    assert edited.status == 303 and edited.headers["location"].startswith("/memory/3?")
    assert state(viewer.repo, 3) == ("live", None, "Tests run with\npytest -x")

    assert viewer.post("/memory/2/restore", {"csrf": csrf}).status == 303
    assert state(viewer.repo, 2)[0] == "live"
    # The CLI sees the same store.
    shown = run_cli("memory", "show", "4", "--json", cwd=viewer.repo)
    assert '"state": "superseded"' in shown.stdout


def test_bad_actions_are_one_line_and_change_nothing(viewer: Viewer) -> None:
    viewer.enter()
    csrf = viewer.csrf()
    before = dump()
    cases = [
        ("/memory/999/forget", {"csrf": csrf}, 404, "no memory 999"),
        ("/memory/4/supersede", {"csrf": csrf, "by": "five"}, 400, "whole number"),
        ("/memory/4/supersede", {"csrf": csrf, "by": 4}, 400, ""),
        ("/memory/3/edit", {"csrf": csrf, "body": ""}, 400, ""),
        ("/memory/99999999999999999999/forget", {"csrf": csrf}, 404, ""),
    ]
    for path, form, status, words in cases:
        answer = viewer.post(path, form)
        assert answer.status == status, (path, form, answer.text)
        assert "Traceback" not in answer.text and words in answer.text
        assert answer.text.count('class="error"') == 1
    big = {"csrf": csrf, "body": "x" * (5 * 1024 * 1024)}
    assert viewer.post("/memory/3/edit", big).status == 413
    assert viewer.request("GET", "/search?q=" + "a" * 9000).status == 414
    assert viewer.request("GET", "/search", headers={"X-Big": "a" * 20_000}).status == 431
    assert dump() == before


def test_a_write_refused_or_changing_nothing_leaves_the_drift_check_as_it_is(
    viewer: Viewer,
) -> None:
    viewer.enter()
    csrf = viewer.csrf()
    kept = Synapse().kept_drift(Synapse().scope(viewer.repo))
    assert kept is not None
    assert viewer.post("/memory/999/forget", {"csrf": csrf}).status == 404
    assert viewer.post("/memory/3/edit", {"csrf": csrf, "body": ""}).status == 400
    assert viewer.post("/memory/3/unshare", {"csrf": csrf}).status == 303  # was not shared
    viewer.drift()
    # The same check, not one worked out again.
    assert Synapse().kept_drift(Synapse().scope(viewer.repo)) == kept
    # A write that went through dates it.
    assert viewer.post("/memory/5/forget", {"csrf": csrf, "back": "/drift"}).status == 303
    viewer.drift()
    again = Synapse().kept_drift(Synapse().scope(viewer.repo))
    assert again is not None and again["at"] > kept["at"]


def test_team_share_and_unshare(viewer: Viewer) -> None:
    viewer.enter()
    csrf = viewer.csrf("/team")
    team_file = viewer.repo / ".synapse" / "memories.jsonl"
    assert viewer.post("/team/share", {"csrf": csrf, "id": 3}).status == 303
    assert "The test suite runs with pytest" in team_file.read_text(encoding="utf-8")
    team = viewer.request("GET", "/team").text
    assert 'action="/memory/3/unshare"' in team and "Synapse Test" in team
    assert "shared by Synapse Test" in viewer.request("GET", "/memory/3").text
    assert viewer.post("/memory/3/unshare", {"csrf": csrf, "back": "/team"}).status == 303
    assert "pytest" not in team_file.read_text(encoding="utf-8")


def test_the_list_filters_and_pages(viewer: Viewer) -> None:
    svc = Synapse()
    scope = svc.scope(viewer.repo)
    for n in range(60):
        svc.remember(f"Generated note number {n}", scope, source="gen")
    svc.remember("A global convention", scope, is_global=True)
    viewer.enter()
    first = viewer.request("GET", "/memories").text
    assert first.count('<tr><td><a href="/memory/') == 50
    assert "page 1 of 2" in first and "66 live memories" in first
    second = viewer.request("GET", "/memories?page=2").text
    assert second.count('<tr><td><a href="/memory/') == 16 and "older →" not in second
    only_global = viewer.request("GET", "/memories?scope=global").text
    assert "A global convention" in only_global and "Generated" not in only_global
    by_source = viewer.request("GET", "/memories?source=gen&q=number").text
    assert "60 live memories" in by_source
    bad = viewer.request("GET", "/memories?since=yesterday")
    assert bad.status == 400 and "--since" in bad.text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--host", "10.1.2.3"), "--allow-remote"),
        (("--host", "0.0.0.0", "--allow-remote"), "every address"),
        (("--host", "example.com"), "not an IP address"),
        (("--port", "70000"), "not a port"),
    ],
)
def test_a_remote_or_wrong_address_is_refused(
    repo: Path, args: tuple[str, ...], words: str
) -> None:
    done = run_cli("ui", "--no-open", *args, cwd=repo)
    assert done.returncode == 2
    assert words in done.stderr and done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_a_port_in_use_is_one_line(stocked: Path) -> None:
    first = start(stocked)
    try:
        done = run_cli("ui", "--no-open", "--port", str(first.port), cwd=stocked)
        assert done.returncode == 2 and "cannot serve on 127.0.0.1" in done.stderr
    finally:
        stop(first)


@pytest.mark.parametrize("path", ["//evil.example/x", "/\\evil.example/x", "/%5Cevil.example"])
def test_the_token_address_never_redirects_elsewhere(viewer: Viewer, path: str) -> None:
    answer = viewer.request("GET", f"{path}?token={viewer.token}", cookie=False)
    assert answer.status == 303
    location = answer.headers["location"]
    assert location.startswith("/") and location[1:2] not in ("/", "\\"), location


def test_drift_findings_come_fifty_a_page(viewer: Viewer) -> None:
    svc = Synapse()
    scope = svc.scope(viewer.repo)
    for n in range(60):
        svc.remember(f"Helper number {n} lives in src/gone_{n}.py", scope)
    viewer.enter()
    first = viewer.drift()
    assert first.count('class="card finding"') == 50 and "page 1 of 2" in first
    second = viewer.drift("/drift?page=2")
    assert "page 2 of 2" in second and "later →" not in second
    assert first.count('class="card finding"') + second.count('class="card finding"') == 62


def test_a_renamed_path_is_settled_by_one_button(viewer: Viewer) -> None:
    svc = Synapse()
    scope = svc.scope(viewer.repo)
    new = svc.remember("Deploy steps live in src/deploy.py (see make ship)", scope).id
    git(viewer.repo, "mv", "src/deploy.py", "src/ship.py")
    git(viewer.repo, "commit", "-q", "-m", "rename")
    viewer.enter()
    drift = viewer.drift()
    assert f'action="/memory/{new}/follow-renames"' in drift
    csrf = viewer.csrf()
    # Memory 2's path was deleted, not renamed: nothing to follow, nothing changed.
    refused = viewer.post("/memory/2/follow-renames", {"csrf": csrf})
    assert refused.status == 400 and "renamed" in refused.text
    done = viewer.post(f"/memory/{new}/follow-renames", {"csrf": csrf, "back": "/drift"})
    assert done.status == 303
    assert state(viewer.repo, new)[2] == "Deploy steps live in src/ship.py (see make ship)"
    assert f'action="/memory/{new}/follow-renames"' not in viewer.drift()


def test_a_body_a_form_would_change_is_not_offered_for_editing(viewer: Viewer) -> None:
    viewer.enter()
    hostile = viewer.request("GET", "/memory/1").text
    assert "<textarea" not in hostile and "synapse memory edit 1" in hostile
    plain = viewer.request("GET", "/memory/3").text
    assert '<textarea name="body">\nThe test suite runs with pytest -q</textarea>' in plain
    # What a browser sends back for an unchanged textarea leaves the body as it was.
    csrf = viewer.csrf()
    before = state(viewer.repo, 3)
    viewer.post("/memory/3/edit", {"csrf": csrf, "body": before[2]})
    assert state(viewer.repo, 3) == before


def test_keep_leaves_one_finding_out_of_drift_as_the_cli_would(viewer: Viewer) -> None:
    viewer.enter()
    drift = viewer.drift()
    assert 'action="/memory/2/keep"' in drift and 'action="/memory/5/keep"' in drift
    csrf = viewer.csrf("/drift")
    done = viewer.post(
        "/memory/5/keep", {"csrf": csrf, "kind": "conflict", "with": 4, "back": "/drift"}
    )
    assert done.status == 303 and done.headers["location"].startswith("/drift?note=")
    after = viewer.request("GET", done.headers["location"]).text
    assert "kept 1 conflict finding(s) about memory 5" in after
    assert 'action="/memory/5/keep"' not in after and 'action="/memory/2/keep"' in after
    cli = run_cli("memory", "drift", "--json", cwd=viewer.repo)
    assert '"kept": 1' in cli.stdout and '"conflict"' not in cli.stdout
    assert viewer.post("/memory/2/keep", {"csrf": csrf, "kind": "stale"}).status == 303
    assert run_cli("memory", "drift", cwd=viewer.repo).returncode == 0
    bad = viewer.post("/memory/2/keep", {"csrf": csrf, "kind": "bogus"})
    assert bad.status == 400 and "unknown drift kind bogus" in bad.text


def test_the_list_shows_superseded_and_forgotten_ones_when_asked(viewer: Viewer) -> None:
    svc = Synapse()
    scope = svc.scope(viewer.repo)
    svc.supersede(4, 5, scope)
    svc.forget(3, scope)
    viewer.enter()
    live = viewer.request("GET", "/memories").text
    assert "The cache timeout is 30" not in live and "3 live memories" in live
    gone = viewer.request("GET", "/memories?state=forgotten").text
    assert "The test suite runs" in gone and "1 memories" in gone
    words = viewer.request("GET", "/memories?state=any&q=CACHE+timeout").text
    assert "30 seconds" in words and "90 seconds" in words and "superseded" in words
    bad = viewer.request("GET", "/memories?state=deleted")
    assert bad.status == 400 and "unknown state" in bad.text


def test_the_drift_page_is_kept_a_while_and_drawn_over_time(viewer: Viewer) -> None:
    # Two refreshes of this checkout with different counts: two points of the picture.
    run_cli("hook", "session", cwd=viewer.repo)
    Synapse().forget(5, Synapse().scope(viewer.repo))
    run_cli("hook", "session", cwd=viewer.repo)
    viewer.enter()
    page = viewer.drift()
    assert "Over time" in page and 'aria-label="drift findings at each refresh' in page
    assert "checked at" in page and 'href="/drift?fresh=1"' in page
    # A write made elsewhere changes the store's version: the check is made again.
    Synapse().forget(2, Synapse().scope(viewer.repo))
    assert 'action="/memory/2/keep"' not in viewer.drift()
    assert viewer.request("GET", "/drift?fresh=1").status == 200


def test_the_list_narrows_to_another_project_and_acts_there(viewer: Viewer, tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", {"README.md": "x\n"})
    svc = Synapse()
    there = svc.scope(other)
    ids = [svc.remember(f"Other project note {n}", there).id for n in range(51)]
    key = str(there.project)
    viewer.enter()
    here = viewer.request("GET", "/memories").text
    assert f'<option value="{key}">' in here and "Other project note" not in here
    query = urlencode({"project": key})
    first = viewer.request("GET", f"/memories?{query}").text
    assert "page 1 of 2 · 51 live memories" in first and "Other project note 50" in first
    # Paging keeps the project; the links open the memory in it.
    assert f"project={quote_plus(key)}" in first and "page=2" in first
    second = viewer.request("GET", f"/memories?{query}&page=2").text
    assert "Other project note 0" in second and "The cache timeout" not in second
    shown = viewer.request("GET", f"/memory/{ids[0]}?{query}").text
    assert "Other project note 0" in shown and 'name="project"' in shown
    # Without the project, that memory is not visible from the folder served.
    assert viewer.request("GET", f"/memory/{ids[0]}").status == 404
    csrf = viewer.csrf("/team")
    done = viewer.post(f"/memory/{ids[0]}/forget", {"csrf": csrf, "project": key})
    assert done.status == 303 and done.headers["location"].startswith(f"/memory/{ids[0]}?")
    assert svc.history(ids[0], there).memory.state == "forgotten"
    bad = viewer.request("GET", "/memories?project=/nowhere")
    assert bad.status == 400 and "no project" in bad.text


def test_an_edit_over_a_change_made_since_the_page_is_refused(viewer: Viewer) -> None:
    # The page was opened, then another process changed the memory (an agent, a
    # teammate's edit synced by a pull); saving the page's text must not undo that.
    viewer.enter()
    page = viewer.request("GET", "/memory/3").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    form = {"csrf": csrf.group(1), "body": "The test suite runs with pytest -x"}
    seen = re.search(r'name="seen" value="([^"]+)"', page)
    if seen is not None:
        form["seen"] = html.unescape(seen.group(1))
    theirs = "The test suite runs with pytest -n 2 since it grew"
    assert run_cli("memory", "edit", "3", theirs, cwd=viewer.repo).returncode == 0
    answer = viewer.post("/memory/3/edit", form)
    assert state(viewer.repo, 3)[2] == theirs
    assert answer.status == 400 and "changed while" in answer.text
