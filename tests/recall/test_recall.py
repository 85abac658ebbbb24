"""Recall (docs/recall.md): terms as data, both rankings, fusion, floor, dedupe, accounting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli

from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

SPEC_KEYS = {"query", "project", "budget", "hits", "drift", "searched", "cut"}
HIT_KEYS = {"id", "project", "source", "sourceabridged", "body", "abridged", "bytes", "score"}


@pytest.fixture
def svc() -> Synapse:
    return Synapse()


@pytest.fixture
def here(svc: Synapse, outside: Path) -> Scope:
    return svc.scope(outside)


def remember(svc: Synapse, scope: Scope, *bodies: str) -> list[int]:
    return [svc.remember(body, scope, is_global=True).id for body in bodies]


def ids(svc: Synapse, query: str, scope: Scope, **kwargs: object) -> list[int]:
    return [hit.id for hit in svc.recall(query, scope, **kwargs).hits]  # type: ignore[arg-type]


def test_json_shape_is_exactly_the_contract(svc: Synapse, here: Scope) -> None:
    remember(svc, here, "Deploys go out from main with make deploy")
    data = svc.recall("deploy", here).as_json()
    assert set(data) == SPEC_KEYS
    assert set(data["cut"]) == {"floor", "limit", "budget", "weak"}
    assert [set(hit) for hit in data["hits"]] == [HIT_KEYS]
    assert data["searched"] == 1 and data["budget"] == "balanced"


@pytest.mark.parametrize(
    "query",
    [
        'deploy "',
        '"deploy',
        "deploy*",
        "^deploy",
        "body:deploy",
        "source:deploy",
        "NEAR(deploy make)",
        "deploy AND make",
        "deploy OR NOT make",
        "(deploy",
        "deploy)",
        "- deploy +",
        "{body} : deploy",
    ],
)
def test_fts5_syntax_in_a_question_is_searched_as_words(
    svc: Synapse, here: Scope, query: str
) -> None:
    [deploy] = remember(svc, here, "Deploys go out from main with make deploy")
    assert ids(svc, query, here) == [deploy]


def test_operators_are_words_too(svc: Synapse, here: Scope) -> None:
    [near, other] = remember(svc, here, "the NEAR cache is warm", "a cold cache")
    assert ids(svc, "NEAR", here) == [near]
    assert other not in ids(svc, "NOT", here)


def test_a_derivation_finds_its_changed_base(svc: Synapse, here: Scope) -> None:
    [resume, _] = remember(
        svc,
        here,
        "To resume a crashed run pass --resume with the last checkpoint.",
        "Runs that crash page the on-call.",
    )
    [hit, *_] = svc.recall("resumption after crashing", here).hits
    assert hit.id == resume and not hit.weak


def test_stemming_finds_other_forms(svc: Synapse, here: Scope) -> None:
    [deploy, _] = remember(svc, here, "We deploy with make deploy", "Unrelated note about lunch")
    assert ids(svc, "deploying", here) == [deploy]
    assert ids(svc, "deployments", here) == [deploy]


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("PAY-7731", 0),
        ("7731", 0),
        ("CACHE_TTL", 1),
        ("cache_ttl", 1),
        ("src/app/db.py", 2),
        ("ERR_QUO", 3),
    ],
)
def test_identifiers_and_fragments_match_inside_tokens(
    svc: Synapse, here: Scope, query: str, wanted: int
) -> None:
    made = remember(
        svc,
        here,
        "PAY-7731: refunds over 500 EUR need a second approver",
        "CACHE_TTL defaults to 300 seconds",
        "Connection settings are in src/app/db.py",
        "ERR_QUOTA_EXCEEDED means the partner limit was hit",
        "An app db note that names no file: the python db app",
    )
    assert ids(svc, query, here)[0] == made[wanted]


def test_a_misspelling_is_rescued_by_trigrams(svc: Synapse, here: Scope) -> None:
    [kube, _] = remember(
        svc, here, "We run kubernetes 1.29 on GKE", "Terraform state is in a bucket"
    )
    found = svc.recall("kuberentes", here, explain=True)
    assert [hit.id for hit in found.hits] == [kube]
    assert any("rescue" in note for note in found.notes)
    assert found.candidates[0].held == ("kuberentes",)


def test_accents_fold_both_ways(svc: Synapse, here: Scope) -> None:
    [cafe, zurich] = remember(svc, here, "Café orders use the CHF list", "Deliveries from Zurich")
    assert ids(svc, "cafe", here) == [cafe]
    assert ids(svc, "CAFÉ", here) == [cafe]
    assert ids(svc, "Zürich", here) == [zurich]


def test_cjk_substring_matches_through_trigrams(svc: Synapse, here: Scope) -> None:
    [pool, _] = remember(
        svc, here, "数据库连接池的大小设置为二十。", "ログはすべてUTCで記録されます。"
    )
    assert ids(svc, "连接池", here) == [pool]
    assert ids(svc, "記録され", here) != []


def test_scope_isolation(svc: Synapse, repo_factory, outside: Path) -> None:  # type: ignore[no-untyped-def]
    one, two = repo_factory("one"), repo_factory("two")
    mine = svc.remember("the widget cache lives in redis", svc.scope(one)).id
    theirs = svc.remember("the widget cache lives in memcached", svc.scope(two)).id
    shared = svc.remember("widget cache keys carry a version", svc.scope(one), is_global=True).id
    from_one = svc.recall("widget cache", svc.scope(one))
    assert {hit.id for hit in from_one.hits} == {mine, shared}
    assert from_one.searched == 2
    assert {hit.id for hit in svc.recall("memcached", svc.scope(one)).hits} == set()
    assert {hit.id for hit in svc.recall("widget", svc.scope(two)).hits} == {theirs, shared}
    assert [hit.id for hit in svc.recall("widget", svc.scope(outside)).hits] == [shared]
    listed = svc.matching("widget", svc.scope(one))
    assert {m.id for m in listed.memories} == {mine, shared}


def test_hidden_memories_are_never_recalled(svc: Synapse, here: Scope) -> None:
    [old, gone] = remember(svc, here, "timeout is 30 s", "timeout lives in settings")
    new = svc.remember("timeout is 60 s", here, is_global=True, supersedes=old).id
    svc.forget(gone, here)
    assert ids(svc, "timeout", here) == [new]


def test_floor_cuts_weak_candidates_but_keeps_the_best(svc: Synapse, here: Scope) -> None:
    [both, one, _] = remember(
        svc,
        here,
        "stripe webhooks are verified with the signing secret",
        "webhooks from github trigger the docs build",
        "nothing about it",
    )
    result = svc.recall("stripe webhooks signing secret", here, explain=True)
    assert [hit.id for hit in result.hits] == [both]
    assert result.cut_floor == 1
    verdicts = {c.id: c.verdict for c in result.candidates}
    assert verdicts[one].startswith("floor")
    weak = svc.recall("webhooks unicorn", here)
    assert {hit.id for hit in weak.hits} == {both, one}


def test_limit_and_accounting(svc: Synapse, here: Scope) -> None:
    remember(svc, here, *[f"deploy note number {n}" for n in range(12)])
    result = svc.recall("deploy note", here, limit=3)
    assert len(result.hits) == 3
    assert result.as_json()["cut"] == {"floor": 0, "limit": 9, "budget": 0, "weak": 0}
    assert result.searched == 12


def test_exact_duplicates_collapse_to_the_newest(svc: Synapse, repo: Path, here: Scope) -> None:
    older = svc.remember("Use ruff for lint", svc.scope(repo), is_global=True).id
    newer = svc.remember("Use ruff for lint", svc.scope(repo)).id
    result = svc.recall("ruff lint", svc.scope(repo), explain=True)
    assert [hit.id for hit in result.hits] == [newer]
    assert {c.id: c.verdict for c in result.candidates}[older] == f"duplicate of {newer}"


def test_empty_query_returns_the_newest(svc: Synapse, here: Scope) -> None:
    made = remember(svc, here, *[f"note {n}" for n in range(10)])
    result = svc.recall("", here, limit=4)
    assert [hit.id for hit in result.hits] == made[::-1][:4]
    assert result.cut_limit == 6


def test_nothing_found_says_so(svc: Synapse, here: Scope, outside: Path) -> None:
    remember(svc, here, "something")
    assert svc.recall("zebra", here).hits == ()
    done = run_cli("memory", "recall", "zebra", cwd=outside)
    assert done.returncode == 0
    assert "memory list" in done.stdout


def test_abridged_hit_opens_with_its_first_line_when_it_matches(svc: Synapse, here: Scope) -> None:
    body = "Deploy checklist for releases\n" + "step detail. " * 400
    [memory] = remember(svc, here, body)
    [hit] = svc.recall("deploy checklist", here, budget="lean").hits
    assert hit.id == memory and hit.abridged and hit.body == "Deploy checklist for releases"
    assert hit.bytes == len(body.encode())


def test_abridged_hit_shows_a_snippet_when_the_first_line_does_not_match(
    svc: Synapse, here: Scope
) -> None:
    body = (
        "General notes\n" + "filler words here. " * 200 + "the rollback needs a tag. " + "x " * 300
    )
    remember(svc, here, body)
    [hit] = svc.recall("rollback", here, budget="lean").hits
    assert hit.abridged and "rollback" in hit.body and len(hit.body.encode()) <= 480


def test_explain_shows_ranks_score_terms_and_verdict(
    svc: Synapse, here: Scope, outside: Path
) -> None:
    remember(svc, here, "deploys use make deploy", "make is a build tool")
    done = run_cli("memory", "recall", "deploy make", "--explain", "--json", cwd=outside)
    data = json.loads(done.stdout)
    assert {"id", "porter", "trigram", "score", "held", "verdict"} <= set(data["explain"][0])
    text = run_cli("memory", "recall", "deploy make", "--explain", cwd=outside).stdout
    assert "explain" in text and "kept" in text


def test_list_query_shows_every_match_without_floor_or_limit(
    svc: Synapse, here: Scope, outside: Path
) -> None:
    remember(svc, here, *[f"deploy step {n}" for n in range(15)])
    remember(svc, here, "deploy step with kubernetes rollout")
    data = json.loads(run_cli("memory", "list", "deploy kubernetes", "--json", cwd=outside).stdout)
    assert data["total"] == 16 and len(data["memories"]) == 16
    recalled = json.loads(
        run_cli("memory", "recall", "deploy kubernetes", "--json", cwd=outside).stdout
    )
    assert len(recalled["hits"]) < 16


def test_recall_does_not_import_mcp(outside: Path) -> None:
    code = (
        "import sys; from synapse_git.cli.app import main; "
        "rc = main(['memory', 'recall', 'anything', '--json']); "
        "assert 'mcp' not in sys.modules, 'mcp imported'; sys.exit(rc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=outside, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_bad_limit_and_budget_are_errors(outside: Path) -> None:
    assert run_cli("memory", "recall", "x", "--limit", "0", cwd=outside).returncode == 2
    done = run_cli("memory", "recall", "x", "--budget", "huge", cwd=outside)
    assert done.returncode == 2 and "unknown budget" in done.stderr
