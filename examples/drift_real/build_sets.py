"""Turn the hand-written notes of one repository into its dev and test sets and labels.

    python examples/drift_real/build_sets.py NAME CLONE ANCHOR

reads examples/drift_real/notes/NAME.notes (and NAME.also, when there) and writes
NAME.dev.jsonl, NAME.test.jsonl, NAME.dev.labels.json and NAME.test.labels.json
beside this file. The labels come from git alone (lineage.py): which named paths
existed at ANCHOR and are gone at the clone's HEAD, and where each went.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from lineage import changes, follow, git

HERE = Path(__file__).resolve().parent


def glob_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def file_part(written: str) -> str:
    """The path a written form points at: no ./, no :line, no ::node, no trailing /."""
    path = written.split("::", 1)[0]
    path = re.sub(r":\d+(?::\d+)?$", "", path)
    if path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


def parse(name: str) -> list[dict]:
    groups: list[dict] = []
    pending: str | None = None
    for raw in (HERE / "notes" / f"{name}.notes").read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("@"):
            pending = raw[1:].strip()
            groups.append({"kind": pending, "notes": []})
            continue
        body, _, paths = raw.partition(" || ")
        note = {
            "body": body.replace("\\n", "\n"),
            "tokens": [t for t in paths.split(";") if t.strip()],
        }
        if pending:
            groups[-1]["notes"].append(note)
            if len(groups[-1]["notes"]) == 2:
                pending = None
        else:
            groups.append({"kind": "single", "notes": [note]})
    return groups


def main() -> None:
    name, clone, anchor = sys.argv[1:]
    anchor = git(clone, "rev-parse", anchor).strip()
    head = git(clone, "rev-parse", "HEAD").strip()
    at_anchor = git(clone, "ls-tree", "-r", "--name-only", anchor).splitlines()
    at_head = git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
    anchor_set, head_set = set(at_anchor), set(at_head)
    history = changes(clone, anchor)
    also_file = HERE / "notes" / f"{name}.also"
    also: dict[str, list[str]] = {}
    if also_file.exists():
        for line in also_file.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                old, _, new = line.partition(" -> ")
                also.setdefault(old.strip(), []).append(new.strip())

    def is_folder(path: str, files: list[str]) -> bool:
        return any(f.startswith(path + "/") for f in files)

    def label(token: str) -> dict:
        kind, _, rest = token.strip().partition(":")
        if kind in ("abs", "absent", "planned", "glob"):
            written = rest
        else:
            kind, written = "path", token.strip()
        written, _, meant = written.partition("=")
        out: dict = {"kind": kind, "written": written}
        if kind in ("abs", "absent"):
            out["stale"] = False
            return out
        if kind == "planned":
            target = file_part(written)
            assert target not in anchor_set and not is_folder(target, at_anchor), token
            out["stale"] = False
            return out
        if kind == "glob":
            rx = glob_regex(written)
            before = [f for f in at_anchor if rx.match(f)]
            after = [f for f in at_head if rx.match(f)]
            assert before, f"glob {written} matches nothing at the anchor"
            out.update(stale=not after, matched_at_anchor=len(before), matched_now=len(after))
            return out
        path = meant or file_part(written)
        out["anchor_path"] = path
        if path in anchor_set:
            out["stale"] = path not in head_set
            if out["stale"]:
                row = follow(history, path)
                now = row["now"]
                if now is not None and now not in head_set:
                    # Non-merge commits never removed it: a merge resolution dropped it.
                    merge = git(
                        clone,
                        "log",
                        "-m",
                        "--diff-filter=D",
                        "--format=%H",
                        f"{anchor}..HEAD",
                        "--",
                        now,
                    ).split()
                    if not merge:
                        raise SystemExit(f"{path}: lineage ends at {now}, which is not at HEAD")
                    row["steps"] = "; ".join(
                        s
                        for s in (row["steps"], f"{merge[-1][:10]} deleted {now} (in a merge)")
                        if s
                    )
                    now = None
                out["now"] = now
                out["steps"] = row["steps"]
        elif is_folder(path, at_anchor):
            out["folder"] = True
            out["stale"] = not is_folder(path, at_head)
            if out["stale"]:
                moved = {follow(history, f)["now"] for f in at_anchor if f.startswith(path + "/")}
                parents = {m.rsplit("/", 1)[0] for m in moved if m}
                out["now"] = (
                    (parents.pop() + "/") if None not in moved and len(parents) == 1 else None
                )
        else:
            raise SystemExit(f"{token!r} names nothing at the anchor")
        if out.get("stale") and path in also:
            out["also_right"] = also[path]
        return out

    sets: dict[str, list] = {"dev": [], "test": []}
    labels: dict[str, dict] = {
        half: {
            "repository": name,
            "anchor": anchor,
            "head": head,
            "memories": {},
            "conflicts": [],
            "alike": [],
        }
        for half in sets
    }
    number = 0
    for index, group in enumerate(groups := parse(name)):
        half = "dev" if index % 2 == 0 else "test"
        keys = []
        for note in group["notes"]:
            number += 1
            key = f"{name}-{number:03d}"
            keys.append(key)
            sets[half].append({"key": key, "body": note["body"]})
            labels[half]["memories"][key] = {"paths": [label(t) for t in note["tokens"]]}
        if group["kind"] == "conflict":
            labels[half]["conflicts"].append(keys)
        elif group["kind"] == "alike":
            labels[half]["alike"].append(keys)
        else:
            assert group["kind"] == "single", group["kind"]
    for half in sets:
        with open(HERE / f"{name}.{half}.jsonl", "w", encoding="utf-8") as out:
            for row in sets[half]:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        (HERE / f"{name}.{half}.labels.json").write_text(
            json.dumps(labels[half], indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        mem = labels[half]["memories"].values()
        stale = [p for m in mem for p in m["paths"] if p.get("stale")]
        print(
            f"{name} {half}: {len(sets[half])} memories, "
            f"{sum(len(m['paths']) for m in mem)} named paths, "
            f"{len(stale)} stale ({sum(1 for p in stale if p.get('now'))} renamed), "
            f"{len(labels[half]['conflicts'])} conflicts, "
            f"{len(labels[half]['alike'])} look-alike pairs"
        )
    del groups


if __name__ == "__main__":
    main()
