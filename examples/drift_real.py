"""Measure drift on a real repository with memories written at an old commit.

    python examples/drift_real.py CLONE SET [--half dev|test|both] [--timing N]

CLONE is a clone of the repository with its full history (its HEAD is the
"today" the labels were written against); SET is one of the sets in
examples/drift_real/ (`examples/drift_real/pip`, or just `pip`). Run it with the
Python of the installation to measure: it calls the `synapse` beside
`sys.executable`.

In a temporary folder (the clone itself is never touched: a `git clone
--shared` of it is used), with SYNAPSE_DATA, HOME and XDG folders of its own:

1. checks out the set's anchor commit and stores the half's memories two
   ways, each in a store of its own: (a) one `synapse memory import` of a JSON
   Lines file, (b) one `synapse memory remember` per memory;
2. checks out the clone's HEAD and runs `synapse memory drift --json` (5 times
   on the imported store, to see whether the JSON is identical) and
   `synapse hook session --budget full`;
3. scores them against the labels written from git (examples/drift_real/README.md):
   stale paths precision/recall, rename suggestions, conflicts precision/recall,
   memories left out of session start without cause, unverified findings that
   are noise;
4. with --timing N (N memories at least: both halves, then generated notes
   naming files of the anchor's tree), the time Synapse adds to `git commit`
   (a one-file change, and a commit deleting a file), `git checkout` of a far
   tag, a rebase of 20 commits, and `synapse memory drift` warm: median of 11
   rounds, hooks installed against `core.hooksPath=/dev/null`, with the CPU time
   of each process tree and the load average beside each figure.

Prints a text report and, last, one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
SETS = Path(__file__).resolve().parent / "drift_real"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
ROUNDS = 11
STABILITY_RUNS = 5


# -- processes -------------------------------------------------------------------------


def children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


class Runner:
    def __init__(self, root: Path) -> None:
        self.root = root
        home = root / "home"
        home.mkdir()
        self.base = {
            **os.environ,
            **GIT_ENV,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        }

    def env(self, data: Path) -> dict[str, str]:
        return {**self.base, "SYNAPSE_DATA": str(data)}

    def run(
        self,
        args: list[str],
        cwd: Path,
        data: Path,
        stdin: str | None = None,
        ok: tuple[int, ...] = (0,),
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            args, cwd=cwd, env=self.env(data), input=stdin, capture_output=True, text=True
        )
        if done.returncode not in ok:
            raise SystemExit(
                f"{' '.join(args[:4])} exited {done.returncode}: {done.stderr.strip()[-2000:]}"
            )
        return done

    def timed(self, args: list[str], cwd: Path, data: Path) -> tuple[float, float]:
        """Wall and CPU milliseconds of one process tree."""
        cpu = children_cpu_ms()
        start = time.perf_counter()
        self.run(args, cwd, data, ok=(0, 1))
        return (time.perf_counter() - start) * 1000, children_cpu_ms() - cpu


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def synapse() -> str:
    path = BIN / "synapse"
    if not path.exists():
        raise SystemExit(f"no synapse beside {sys.executable}")
    return str(path)


# -- the set and its labels ------------------------------------------------------------


def load_half(stem: Path, half: str) -> tuple[list[dict[str, str]], dict[str, Any]]:
    rows = [
        json.loads(line)
        for line in (stem.parent / f"{stem.name}.{half}.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]
    labels = json.loads((stem.parent / f"{stem.name}.{half}.labels.json").read_text("utf-8"))
    return rows, labels


def merge(halves: list[tuple[list[dict[str, str]], dict[str, Any]]]) -> tuple[list[Any], Any]:
    rows: list[dict[str, str]] = []
    labels: dict[str, Any] = {"memories": {}, "conflicts": [], "alike": []}
    for half_rows, half_labels in halves:
        rows += half_rows
        for key in ("anchor", "head", "repository"):
            labels[key] = half_labels[key]
        labels["memories"].update(half_labels["memories"])
        labels["conflicts"] += half_labels["conflicts"]
        labels["alike"] += half_labels["alike"]
    return rows, labels


def norm(path: str) -> str:
    path = path.strip().strip("`'\"")
    path = path.split("::", 1)[0]
    path = re.sub(r":\d+(?::\d+)?$", "", path)
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


def names(label: dict[str, Any]) -> set[str]:
    out = {norm(label["written"])}
    if label.get("anchor_path"):
        out.add(norm(label["anchor_path"]))
    if label["kind"] == "glob":
        out.add(label["written"])
    return out


def successor_right(suggested: str, successors: list[str]) -> bool:
    got = norm(suggested)
    for want in successors:
        if want.endswith("/") and (got + "/").startswith(want):
            return True
        want = norm(want)
        if got == want or want.endswith("/" + got):
            return True
    return False


# -- scoring ---------------------------------------------------------------------------


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def score(
    findings: list[dict[str, Any]], ids: dict[int, str], labels: dict[str, Any]
) -> dict[str, Any]:
    memories = labels["memories"]
    truth = {
        (key, index)
        for key, memory in memories.items()
        for index, label in enumerate(memory["paths"])
        if label.get("stale")
    }
    found: set[tuple[str, int]] = set()
    false_stale: list[str] = []
    suggestions: dict[tuple[str, int], str] = {}
    noise: list[str] = []
    unverified_ok = 0
    predicted_pairs: set[frozenset[str]] = set()
    duplicates = 0
    for finding in findings:
        kind = finding.get("kind")
        keys = [ids.get(int(i), f"?{i}") for i in finding.get("ids", [])]
        if kind in ("stale", "unverified"):
            for key in keys:
                labels_of = memories.get(key, {"paths": []})["paths"]
                for path in finding.get("paths", []):
                    match = [i for i, label in enumerate(labels_of) if norm(path) in names(label)]
                    if kind == "unverified":
                        if any(labels_of[i]["kind"] == "planned" for i in match):
                            unverified_ok += 1
                        else:
                            noise.append(f"{key}: {path}")
                        continue
                    hits = [i for i in match if labels_of[i].get("stale")]
                    if not hits:
                        false_stale.append(f"{key}: {path}")
                    # One path reported answers every form of it the memory wrote
                    # (`src/a.rs` and `src/a.rs:92`): one file, one finding.
                    renamed = finding.get("renamed") or {}
                    replaced = finding.get("replaced") or {}
                    for hit in hits:
                        found.add((key, hit))
                        if path in renamed:
                            suggestions[(key, hit)] = renamed[path]
                        elif path in replaced:  # "replaced by": a successor named too
                            suggestions[(key, hit)] = replaced[path]["by"]
        elif kind == "conflict" and len(keys) == 2:
            predicted_pairs.add(frozenset(keys))
        elif kind == "duplicate":
            duplicates += 1
    true_pairs = {frozenset(pair) for pair in labels["conflicts"]}
    renames_total = renames_right = deleted_renamed = 0
    wrong_renames: list[str] = []
    for key, index in sorted(truth):
        label = memories[key]["paths"][index]
        successors = [s for s in [label.get("now"), *label.get("also_right", [])] if s]
        suggested = suggestions.get((key, index))
        if successors:
            renames_total += 1
            if suggested and successor_right(suggested, successors):
                renames_right += 1
            else:
                wrong_renames.append(
                    f"{key}: {label['written']} -> {suggested} (want {successors})"
                )
        elif suggested:
            deleted_renamed += 1
            wrong_renames.append(f"{key}: {label['written']} -> {suggested} (deleted)")
    predicted_stale = len(found) + len(false_stale)
    return {
        "stale_p": ratio(len(found), predicted_stale),
        "stale_r": ratio(len(found), len(truth)),
        "stale_found": len(found),
        "stale_predicted": predicted_stale,
        "stale_labelled": len(truth),
        "stale_missed": sorted(
            f"{k}: {memories[k]['paths'][i]['written']}" for k, i in truth - found
        ),
        "stale_false": sorted(false_stale),
        "renames_right": renames_right,
        "renames_total": renames_total,
        "renames_for_deleted": deleted_renamed,
        "renames_wrong": wrong_renames,
        "conflict_p": ratio(len(predicted_pairs & true_pairs), len(predicted_pairs)),
        "conflict_r": ratio(len(predicted_pairs & true_pairs), len(true_pairs)),
        "conflicts_predicted": len(predicted_pairs),
        "conflicts_right": len(predicted_pairs & true_pairs),
        "conflicts_labelled": len(true_pairs),
        "conflicts_false": sorted(" / ".join(sorted(p)) for p in predicted_pairs - true_pairs),
        "conflicts_missed": sorted(" / ".join(sorted(p)) for p in true_pairs - predicted_pairs),
        "duplicates": duplicates,
        "unverified_noise": len(noise),
        "unverified_noise_list": sorted(noise),
        "unverified_expected": unverified_ok,
    }


def left_out(text: str, ids: dict[int, str], labels: dict[str, Any]) -> dict[str, Any]:
    """Memories the session start left out with no cause in the labels."""
    line = next((x for x in text.splitlines() if x.startswith("Left out:")), "")
    stale_ids: set[int] = set()
    older: dict[int, int] = {}
    for part in line.split(";"):
        if "stale" in part and ":" in part:
            stale_ids |= {int(n) for n in re.findall(r"\d+", part.rsplit(":", 1)[1])}
        for old, new in re.findall(r"(\d+) \((?:contradicted by|same as) (\d+)\)", part):
            older[int(old)] = int(new)
    memories = labels["memories"]
    true_pairs = {frozenset(pair) for pair in labels["conflicts"]}
    wrong: dict[str, str] = {}
    for number in stale_ids:
        key = ids.get(number, f"?{number}")
        if not any(p.get("stale") for p in memories.get(key, {"paths": []})["paths"]):
            wrong[key] = "stale"
    for old, new in older.items():
        key, other = ids.get(old, f"?{old}"), ids.get(new, f"?{new}")
        stale = any(p.get("stale") for p in memories.get(key, {"paths": []})["paths"])
        if frozenset((key, other)) not in true_pairs and not stale:
            wrong.setdefault(key, f"older than {other}")
    return {
        "left_out": len(stale_ids | set(older)),
        "left_out_wrongly": len(wrong),
        "left_out_wrongly_list": sorted(f"{k} ({why})" for k, why in wrong.items()),
    }


def differences(runs: list[str]) -> list[str]:
    """What changed from the first drift run to the others: findings, or only their order."""
    first = json.loads(runs[0])["findings"]
    seen = [json.dumps(f, sort_keys=True) for f in first]
    out: list[str] = []
    for number, run in enumerate(runs[1:], 2):
        other = [json.dumps(f, sort_keys=True) for f in json.loads(run)["findings"]]
        if other == seen:
            continue
        if sorted(other) == sorted(seen):
            out.append(f"run {number}: same findings in another order")
            continue
        gone = sorted(set(seen) - set(other))[:2]
        new = sorted(set(other) - set(seen))[:2]
        out.append(f"run {number}: only in run 1: {gone}; only in run {number}: {new}")
    return out


# -- storing ---------------------------------------------------------------------------


def ids_by_body(runner: Runner, repo: Path, data: Path, rows: list[dict[str, str]]) -> Any:
    listed = json.loads(
        runner.run([synapse(), "memory", "list", "--json", "-n", "100000"], repo, data).stdout
    )
    keys = {row["body"].strip(): row["key"] for row in rows}
    return {
        m["id"]: keys[m["body"].strip()] for m in listed["memories"] if m["body"].strip() in keys
    }


def store_imported(runner: Runner, repo: Path, data: Path, rows: list[dict[str, str]]) -> Any:
    project = str(repo.resolve())
    lines = runner.root / f"{data.name}.jsonl"
    with open(lines, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps({"body": row["body"], "project": project}) + "\n")
    runner.run([synapse(), "memory", "import", str(lines), "--json"], repo, data)
    return ids_by_body(runner, repo, data, rows)


def store_remembered(runner: Runner, repo: Path, data: Path, rows: list[dict[str, str]]) -> Any:
    ids: dict[int, str] = {}
    for row in rows:
        # From standard input: a note may start with "---" (front matter).
        done = runner.run([synapse(), "memory", "remember", "-", "--json"], repo, data, row["body"])
        ids[int(json.loads(done.stdout)["id"])] = row["key"]
    return ids


# -- accuracy --------------------------------------------------------------------------


def accuracy(
    runner: Runner, repo: Path, head: str, rows: list[dict[str, str]], labels: dict[str, Any]
) -> dict[str, Any]:
    git(repo, "checkout", "-q", "--detach", labels["anchor"])
    stores = {
        "imported": runner.root / "data-imported",
        "remembered": runner.root / "data-one-by-one",
    }
    started = time.perf_counter()
    ids = {
        "imported": store_imported(runner, repo, stores["imported"], rows),
        "remembered": store_remembered(runner, repo, stores["remembered"], rows),
    }
    stored_s = time.perf_counter() - started
    for way, mapping in ids.items():
        if len(set(mapping.values())) != len(rows):
            print(f"warning: {way}: {len(set(mapping.values()))} of {len(rows)} memories stored")
    git(repo, "checkout", "-q", "-B", "main", head)
    out: dict[str, Any] = {"memories": len(rows), "store_s": round(stored_s, 1)}
    for way, data in stores.items():
        runs = []
        walls = []
        for _ in range(STABILITY_RUNS if way == "imported" else 1):
            start = time.perf_counter()
            done = runner.run([synapse(), "memory", "drift", "--json"], repo, data, ok=(0, 1))
            walls.append(time.perf_counter() - start)
            runs.append(done.stdout)
        findings = json.loads(runs[0])["findings"]
        result = score(findings, ids[way], labels)
        session = runner.run([synapse(), "hook", "session", "--budget", "full"], repo, data).stdout
        result.update(left_out(session, ids[way], labels))
        hiding = [f for f in findings if f["kind"] in ("stale", "conflict", "duplicate")]
        if hiding and "Left out:" not in session:
            print(f"warning: {way}: drift has findings but the session start has no 'Left out:'")
        result["drift_wall_s"] = [round(w, 2) for w in walls]
        if way == "imported":
            counts = [
                sum(1 for f in json.loads(r)["findings"] if f["kind"] == "stale") for r in runs
            ]
            result["json_identical"] = len(set(runs)) == 1
            result["json_differences"] = differences(runs)
            result["stale_findings_per_run"] = counts
            result["unverified_findings_per_run"] = [
                sum(1 for f in json.loads(r)["findings"] if f["kind"] == "unverified") for r in runs
            ]
        out[way] = result
    return out


# -- timing ----------------------------------------------------------------------------


def filler(repo: Path, anchor: str, count: int) -> list[dict[str, str]]:
    files = sorted(git(repo, "ls-tree", "-r", "--name-only", anchor).splitlines())
    step = max(1, len(files) // max(count, 1))
    chosen = files[::step][:count]
    return [
        {
            "key": f"extra-{n:04d}",
            "body": f"Reading {path} first helps before changing code near it.",
        }
        for n, path in enumerate(chosen)
    ]


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def measure(
    runner: Runner, name: str, rounds: int, with_hooks: Any, without: Any
) -> dict[str, Any]:
    """Alternate the two so that a change of load hits both alike."""
    before = load()
    hooked: list[tuple[float, float]] = []
    plain: list[tuple[float, float]] = []
    for _ in range(rounds):
        hooked.append(with_hooks())
        plain.append(without())
    med = statistics.median
    row = {
        "what": name,
        "with_ms": round(med(w for w, _ in hooked)),
        "without_ms": round(med(w for w, _ in plain)),
        "cpu_with_ms": round(med(c for _, c in hooked)),
        "cpu_without_ms": round(med(c for _, c in plain)),
        "load": f"{before} -> {load()}",
    }
    row["added_ms"] = row["with_ms"] - row["without_ms"]
    print(
        f"  {name:<34} +{row['added_ms']:>6} ms  (with {row['with_ms']} ms, cpu "
        f"{row['cpu_with_ms']}; without {row['without_ms']} ms, cpu {row['cpu_without_ms']}) "
        f"load {row['load']}",
        flush=True,
    )
    return row


def timing(
    runner: Runner,
    repo: Path,
    head: str,
    rows: list[dict[str, str]],
    labels: Any,
    count: int,
    rounds: int,
) -> dict[str, Any]:
    anchor = labels["anchor"]
    rows = rows + filler(repo, anchor, max(0, count - len(rows)))
    data = runner.root / "data-timing"
    git(repo, "checkout", "-q", "--detach", anchor)
    store_imported(runner, repo, data, rows)
    git(repo, "checkout", "-q", "-B", "main", head)
    syn = synapse()
    # Whatever a first install or a first check builds (a history index) is timed here.
    start = time.perf_counter()
    runner.run([syn, "hook", "install"], repo, data)
    install_s = round(time.perf_counter() - start, 2)
    off = ["-c", "core.hooksPath=/dev/null"]
    far_tag = git(repo, "describe", "--tags", "--abbrev=0", anchor).strip()
    results: dict[str, Any] = {"memories": len(rows), "far_tag": far_tag, "rows": []}
    print(f"timing: {len(rows)} memories, far tag {far_tag}, {rounds} rounds", flush=True)

    # A store of this size is built once; drift's first run may build caches.
    start = time.perf_counter()
    runner.run([syn, "memory", "drift"], repo, data, ok=(0, 1))
    results["hook_install_s"] = install_s
    results["drift_first_s"] = round(time.perf_counter() - start, 2)
    print(f"  hook install {install_s} s, first memory drift {results['drift_first_s']} s")
    tracked = set(git(repo, "ls-files").splitlines())
    target = next(p for p in sorted(tracked) if p.endswith(".txt") or p.endswith(".rst"))
    named = {row["body"] for row in rows}
    victim = next(
        p
        for p in sorted(tracked, reverse=True)
        if p.endswith(".py") and not any(p.rsplit("/", 1)[-1] in b for b in named)
    )

    def commit(hooks: bool, delete: bool) -> tuple[float, float]:
        if delete:
            git(repo, "rm", "-q", victim)
        else:
            with open(repo / target, "a", encoding="utf-8") as out:
                out.write("\n")
            git(repo, "add", target)
        args = ["git", *([] if hooks else off), "commit", "-q", "-m", "bench"]
        before = git(repo, "rev-parse", "HEAD").strip()
        took = runner.timed(args, repo, data)
        made = git(repo, "rev-parse", "HEAD").strip() != before
        if not made:
            print(f"  warning: the commit was refused ({'hooks' if hooks else 'plain'})")
        git(repo, "reset", "-q", "--hard", "HEAD~1" if made else "HEAD")
        return took

    def checkout(hooks: bool) -> tuple[float, float]:
        hooked = [] if hooks else off
        took = runner.timed(["git", *hooked, "checkout", "-q", far_tag], repo, data)
        runner.run(["git", *hooked, "checkout", "-q", "main"], repo, data)
        return took

    # 20 commits of one's own, made on a branch 30 commits back, rebased onto main.
    base = git(repo, "rev-parse", "main~30").strip()
    git(repo, "checkout", "-q", "-B", "bench-topic", base)
    for n in range(20):
        (repo / "bench-topic.txt").write_text(f"step {n}\n" * (n + 1), encoding="utf-8")
        git(repo, "add", "bench-topic.txt")
        git(repo, *off, "commit", "-q", "-m", f"topic {n}")
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, *off, "checkout", "-q", "main")

    def rebase(hooks: bool) -> tuple[float, float]:
        git(repo, *off, "checkout", "-q", "-B", "bench-topic", tip)
        took = runner.timed(["git", *([] if hooks else off), "rebase", "-q", "main"], repo, data)
        git(repo, *off, "checkout", "-q", "main")
        return took

    def drift() -> tuple[float, float]:
        return runner.timed([syn, "memory", "drift"], repo, data)

    rows_out = results["rows"]
    rows_out.append(
        measure(
            runner,
            "git commit (one file changed)",
            ROUNDS,
            lambda: commit(True, False),
            lambda: commit(False, False),
        )
    )
    rows_out.append(
        measure(
            runner,
            "git commit (deletes a file)",
            ROUNDS,
            lambda: commit(True, True),
            lambda: commit(False, True),
        )
    )
    rows_out.append(
        measure(
            runner,
            f"git checkout {far_tag}",
            ROUNDS,
            lambda: checkout(True),
            lambda: checkout(False),
        )
    )
    rows_out.append(
        measure(
            runner, "git rebase (20 commits)", rounds, lambda: rebase(True), lambda: rebase(False)
        )
    )
    rows_out.append(
        measure(runner, "synapse memory drift (warm)", rounds, drift, lambda: (0.0, 0.0))
    )
    return results


# -- report ----------------------------------------------------------------------------


def fmt(value: Any) -> str:
    return "n/a" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)


def report(name: str, half: str, acc: dict[str, Any]) -> None:
    imp, rem = acc["imported"], acc["remembered"]
    print(f"\n== {name} / {half}: {acc['memories']} memories (stored in {acc['store_s']} s)")
    print(
        f"  stale paths P/R, imported        {fmt(imp['stale_p'])} / {fmt(imp['stale_r'])}"
        f"   ({imp['stale_found']} right of {imp['stale_predicted']} found, "
        f"{imp['stale_labelled']} labelled)"
    )
    print(
        f"  stale paths P/R, remembered      {fmt(rem['stale_p'])} / {fmt(rem['stale_r'])}"
        f"   ({rem['stale_found']} right of {rem['stale_predicted']} found, "
        f"{rem['stale_labelled']} labelled)"
    )
    print(
        f"  rename suggestions right         {imp['renames_right']}/{imp['renames_total']}"
        f" imported, {rem['renames_right']}/{rem['renames_total']} remembered"
        f" (renames named for deleted paths: {imp['renames_for_deleted']})"
    )
    print(
        f"  conflicts P/R                    {fmt(imp['conflict_p'])} / {fmt(imp['conflict_r'])}"
        f"   ({imp['conflicts_right']} right of {imp['conflicts_predicted']} found, "
        f"{imp['conflicts_labelled']} labelled; remembered "
        f"{fmt(rem['conflict_p'])} / {fmt(rem['conflict_r'])})"
    )
    print(
        f"  left out of session start wrongly {imp['left_out_wrongly']} imported,"
        f" {rem['left_out_wrongly']} remembered (of {imp['left_out']} / {rem['left_out']} left out)"
    )
    print(
        f"  unverified noise                 {imp['unverified_noise']} imported,"
        f" {rem['unverified_noise']} remembered ({imp['unverified_expected']} expected)"
    )
    print(
        f"  drift JSON identical ({STABILITY_RUNS} runs)   {imp['json_identical']}"
        f" (stale findings per run {imp['stale_findings_per_run']}, unverified"
        f" {imp['unverified_findings_per_run']}; wall s {imp['drift_wall_s']})"
    )
    for line in imp.get("json_differences", []):
        print(f"  [imported] drift JSON {line}")
    for way, res in (("imported", imp), ("remembered", rem)):
        for title, key in (
            ("stale missed", "stale_missed"),
            ("stale false", "stale_false"),
            ("renames wrong", "renames_wrong"),
            ("conflicts false", "conflicts_false"),
            ("conflicts missed", "conflicts_missed"),
            ("left out wrongly", "left_out_wrongly_list"),
            ("unverified noise", "unverified_noise_list"),
        ):
            if res[key] and (way == "imported" or key.startswith("stale")):
                print(f"  [{way}] {title}: " + "; ".join(res[key]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("set", help="examples/drift_real/NAME, or NAME")
    parser.add_argument("--half", choices=["dev", "test", "both"], default="dev")
    parser.add_argument(
        "--timing",
        type=int,
        default=0,
        metavar="N",
        help="also time hooks and drift with at least N memories",
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed rounds (median)")
    parser.add_argument("--no-accuracy", action="store_true", help="timing only")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    stem = Path(args.set)
    if not (stem.parent / f"{stem.name}.dev.jsonl").exists():
        stem = SETS / stem.name
    if not (stem.parent / f"{stem.name}.dev.jsonl").exists():
        parser.error(f"no set {args.set}: no {stem.name}.dev.jsonl in {stem.parent}")
    clone = args.clone.resolve()
    halves = ["dev", "test"] if args.half == "both" else [args.half]
    rows, labels = merge([load_half(stem, h) for h in halves])
    head = git(clone, "rev-parse", "HEAD").strip()
    if head != labels["head"]:
        raise SystemExit(
            f"{clone} is at {head[:12]}, the labels were written against {labels['head'][:12]}:"
            f" check out {labels['head']} there first"
        )
    version = subprocess.run([synapse(), "--version"], capture_output=True, text=True).stdout
    print(f"synapse: {synapse()} {version.strip()}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()},"
        f" load {load()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    root = Path(tempfile.mkdtemp(prefix="drift-real-"))
    try:
        runner = Runner(root)
        repo = root / "repo"
        subprocess.run(
            ["git", "clone", "-q", "--shared", "--no-checkout", str(clone), str(repo)],
            check=True,
            env=runner.base,
        )
        result: dict[str, Any] = {
            "set": stem.name,
            "half": args.half,
            "head": head,
            "anchor": labels["anchor"],
            "load_start": load(),
        }
        start_cpu = children_cpu_ms()
        if not args.no_accuracy:
            result["accuracy"] = accuracy(runner, repo, head, rows, labels)
            report(stem.name, args.half, result["accuracy"])
        if args.timing:
            both, both_labels = merge([load_half(stem, h) for h in ("dev", "test")])
            result["timing"] = timing(
                runner, repo, head, both, both_labels, args.timing, args.rounds
            )
        result["load_end"] = load()
        result["cpu_s"] = round((children_cpu_ms() - start_cpu) / 1000, 1)
        print(
            f"\nload {result['load_start']} -> {result['load_end']}, "
            f"CPU of all processes {result['cpu_s']} s"
        )
        print(json.dumps(result))
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
