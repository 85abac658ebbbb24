"""Path-like tokens in memory text (docs/drift.md, paths).

Kept free of pygit2 and of the store: the commit hook imports this module and
must start fast. The rules for paths never called missing are in
never_missing.py.
"""

from __future__ import annotations

import functools
import posixpath
import re

from synapse_git.drift.path_words import (
    DOTFILES,
    EXTENSION_ALONE,
    EXTENSIONS,
    KNOWN_FILES,
    MIME_TOPS,
    PLACEHOLDER_NAMES,
    PRODUCTS,
    SOURCE_ROOTS,
)

# `name.js` followed by a dotted version (`io.js 1.8`, `Vue.js v3`) is a product and
# its version; a bare number after it is more often an argument (`server.js 8080`).
_VERSIONED_PRODUCT = re.compile(r"^[A-Za-z][\w-]*\.js$")
_VERSION_NEXT = re.compile(r"[ \t]+(?:v\d+(?:\.\d+)*|\d+(?:\.\d+)+)(?![\w.]*[/\w])")

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^(?:www\.|mailto:|data:|urn:)", re.I)
_DOMAIN = re.compile(
    r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|app|ai|co|edu|gov|info|me|sh|so|"
    r"xyz|cloud|page|site|tech|uk|de|fr|eu|us|ca|in|jp|cn|ru|gg|ly|to|tv|in)$",
    re.I,
)
_SHELL = re.compile(r"[|<>;&$`=*?{}\[\]\"']|&&")
_NUMERIC = re.compile(r"^v?\d+(?:[.,:x]\d+)*[a-z%]*$", re.I)
_BAD_CHARS = re.compile(r"[\s<>|\"'`*?{}\[\]()=,;!#%^$]")
_GLOB_BAD = re.compile(r"[\s<>|\"'`{}()=,;!#%^$]")
_GLOB = re.compile(r"\*|\?|\[[^\]/]+\]")
_NODE = re.compile(r"::\S*$")  # pytest node ids: `tests/test_cli.py::test_x[a-b]`
_FOLDER_WORD = re.compile(r"^[A-Za-z_.][\w.+-]*$")
_LINE_SUFFIX = re.compile(r"(?::\d+){1,2}$|#L\d+(?:-L?\d+)?$")
_BACKQUOTED = re.compile(r"`([^`\n]+)`")
_WORD = re.compile(r"\S+")
_TRAIL = ".,;:!?)]}>'\"…"
_LEAD = "([{<'\"\u201c\u2018"
_AROUND = _LEAD + _TRAIL + "`"


def find_paths(text: str) -> list[str]:
    """Paths a developer would recognise in `text`, normalized, in order, once each,
    leaving out those the text says are absent ("there is no tox.ini").

    Relative paths stay relative (`./a/../b.py` -> `b.py`), absolute stay absolute,
    `~/x` stays `~/x`; a directory written with a trailing slash keeps it; a glob
    (`docs/*.md`) stays a pattern."""
    mentions = _mentions(text)
    absent = {path for path, gone in mentions if gone}
    found: list[str] = []
    for path, _ in mentions:
        if path not in absent and path not in found:
            found.append(path)
    return found


# A body this short has its paths remembered (`remembered`): recall's drift asks them
# of the same hits call after call in a long-lived server. Keyed by the text itself,
# so an edited memory is simply another key; bounded in entries and in their length.
REMEMBERED_CHARS = 4096
REMEMBERED_BODIES = 2048


def remembered(text: str) -> list[str]:
    """`find_paths(text)`, worked out once for a short text while it is among the
    last REMEMBERED_BODIES asked."""
    return list(_remembered(text)) if len(text) <= REMEMBERED_CHARS else find_paths(text)


@functools.lru_cache(maxsize=REMEMBERED_BODIES)
def _remembered(text: str) -> tuple[str, ...]:
    return tuple(find_paths(text))


def absent_paths(text: str) -> list[str]:
    """The paths `text` says are not there ("we do not have a setup.py",
    "tox.ini was removed"): never stale for that absence."""
    found: list[str] = []
    for path, gone in _mentions(text):
        if gone and path not in found:
            found.append(path)
    return found


def _mentions(text: str) -> list[tuple[str, bool]]:
    """Each path mention in order, with whether the words around it say it is absent."""
    found: list[tuple[str, bool]] = []

    def add(candidate: str, start: int, end: int, *, quoted: bool) -> None:
        path = _as_path(candidate, quoted=quoted)
        if path is not None:
            found.append((path, _said_absent(text, start, end)))

    def words(start: int, end: int) -> None:
        for word in _WORD.finditer(text, start, end):
            product = _VERSIONED_PRODUCT.match(word.group().lstrip(_LEAD))
            if product and _VERSION_NEXT.match(text, word.end()):
                continue  # a product and its version, not a file
            add(word.group(), word.start(), word.end(), quoted=False)

    # Back-quoted spans in order, then the text outside them, keeping first-seen order.
    position = 0
    for match in _BACKQUOTED.finditer(text):
        words(position, match.start())
        span = match.group(1).strip()
        if " " in span and _whole_quoted_path(span):
            add(span, match.start(), match.end(), quoted=True)
        else:
            words(match.start(1), match.end(1))
        position = match.end()
    words(position, len(text))
    return found


# Words that say a path is not there, right before it ("there is no tox.ini",
# "we dropped setup.py", "use pyproject.toml instead of setup.py") or right after it
# ("setup.py was removed", "tox.ini no longer exists"). "removed from src/x.py"
# says the opposite of the file, so the word must stand right before the path.
_ABSENT_BEFORE = (
    r"(?:\b(?:there\s+is|there's|there\s+are|we\s+have|has|have|with)\s+no"
    r"|\bno\s+more|\bno|\bnot"  # `not`: the one not meant (`Readme.md, not README.md`)
    r"|\b(?:do|does|did)(?:\s+not|n't)\s+(?:have|use|need|ship|keep|exist)"
    r"|\b(?:has|have|had)\s*n[o']t\s+(?:got\s+)?"
    r"|\bno\s+longer\s+(?:\w+\s+)?(?:uses?|has|have|needs?|ships?|keeps?|contains?|includes?)"
    r"|\b(?:removed|deleted|dropped|retired|got\s+rid\s+of|instead\s+of|replaced|replaces))"
    r"(?:\s+(?:a|an|the|any|our|its|their|more|longer|file|files|folder))*\s*[`'\"(]?$"
)
_ABSENT_AFTER = (
    r"^[`'\")]?\s*(?:file\s+|folder\s+)?"
    r"(?:(?:was|were|is|are|has\s+been|have\s+been|got|been)\s+(?:now\s+|since\s+|long\s+)?"
    r"(?:removed|deleted|dropped|gone|retired)(?!\s+from)"
    r"|(?:is|are)\s+(?:not\s+there|no\s+more|no\s+longer\s+(?:there|used|needed))"
    r"|no\s+longer\s+exists?|(?:does|do)(?:\s+not|n't)\s+exist|(?:is|are)\s*n[o']t\s+there"
    r"|(?:was|were)\s+replaced)\b"
)


@functools.cache
def _absent() -> tuple[re.Pattern[str], re.Pattern[str]]:
    # Compiled when a body first names a path: most recalls' hits name none, and
    # these two are the longest of this module's patterns to compile.
    return re.compile(_ABSENT_BEFORE, re.I), re.compile(_ABSENT_AFTER, re.I)


def _said_absent(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 48) : start]
    # Only the clause the path stands in: a sentence or clause break ends it.
    before = re.split(r"[.;:!?\n]\s|[;\n]", before)[-1]
    after = re.split(r"[.;!?\n]\s|[;\n]", text[end : end + 48])[0]
    absent_before, absent_after = _absent()
    return bool(absent_before.search(before) or absent_after.search(after))


def _whole_quoted_path(span: str) -> bool:
    """A back-quoted span holding spaces is one path (`My Docs/a.txt`), not a command."""
    if _SHELL.search(span) or any(word.startswith("-") for word in span.split()):
        return False
    words = span.split()
    anchored = span.startswith(("/", "~/", "./", "../"))
    first_ok = anchored or "/" in words[0] or words[0][:1].isupper()
    if not first_ok:
        return False
    # A later word that starts a path of its own means two paths, not one.
    if any(word.startswith(("/", "~/", "./", "../")) for word in words[1:]):
        return False
    last = span.rstrip("/").rsplit("/", 1)[-1]
    return span.endswith("/") or _has_extension(last) or last in KNOWN_FILES


def _strip(token: str) -> str:
    token = token.lstrip(_LEAD)
    while token and token[-1] in _TRAIL:
        # A closing bracket that belongs to the token stays (rare in paths; drop it).
        token = token[:-1]
    return token


def _has_extension(name: str) -> bool:
    stem, dot, ext = name.rpartition(".")
    if not dot or not ext:
        return False
    if not stem:
        # A dotfile: `.env`, `.gitignore`, `.pre-commit-config.yaml`; but `.html` or
        # `.pyc` alone is a kind of file, not one.
        if ext.lower() in EXTENSION_ALONE and ext.lower() not in DOTFILES:
            return False
        return ext[:1].islower() and ext.replace("-", "").replace("_", "").isalnum()
    if ext.lower() not in EXTENSIONS or not ext.isalnum():
        return False
    if ext.lower() == "js" and stem.lower() in PRODUCTS:
        return False
    return bool(re.fullmatch(r"[\w.+@-]+", stem)) and not stem.isdigit()


def _as_path(raw: str, *, quoted: bool) -> str | None:
    if "/" not in raw and "." not in raw and raw.strip(_AROUND) not in KNOWN_FILES:
        return None  # most words: no separator, no extension, no known file name
    token = raw if quoted else _strip(raw)
    token = _NODE.sub("", token)
    if not token:
        return None
    token = _LINE_SUFFIX.sub("", token)
    if _URL.search(token) or "@" in token or "\\" in token:
        return None
    if not quoted and "*" in token:
        return _glob(token)
    if not quoted and _BAD_CHARS.search(token):
        return None
    if _placeholder(token):
        return None
    if token.startswith("~"):
        return _tilde(token)
    if token.startswith("/"):
        return _absolute(token)
    return _relative(token)


# Folders written to stand for any path in an example: `path/to/file.py`, `src/.../x.py`.
_PLACEHOLDER_RUNS = ("path/to/", "/path/to", "some/path", "...", "\u2026")


def _placeholder(token: str) -> bool:
    lowered = token.lower()
    return lowered.startswith("path/to") or any(run in lowered for run in _PLACEHOLDER_RUNS)


# A pattern longer or starrier than people write is not taken for one: matching
# stays linear in the paths it is tried on.
_GLOB_LONGEST = 200
_GLOB_STARS = 6


def _glob(token: str) -> str | None:
    """A file pattern (`requirements/*.in`, `src/**/*.py`, `test_*.py`), or None for
    emphasis, arithmetic and an extension alone (`*.py`)."""
    while len(token) > 2 and token[0] == token[-1] == "*":
        token = token[1:-1]  # markdown emphasis around a word: `*note*`, `**src/a.py**`
    if "*" not in token:
        return _as_path(token, quoted=False)
    if _GLOB_BAD.search(token) or _placeholder(token) or len(token) > _GLOB_LONGEST:
        return None
    if any(part.count("*") > 2 for part in token.split("/")) or token.count("*") > _GLOB_STARS:
        return None  # `*a*b*c*.py`: no one writes it, and each star multiplies the match's cost
    rooted = token.startswith(("/", "~/"))
    parts = [part for part in token.split("/") if part and part not in (".", "..")]
    if not parts:
        return None
    literal_folders = [part for part in parts[:-1] if not _GLOB.search(part)]
    last = parts[-1]
    stem, dot, ext = last.rpartition(".")
    named_file = bool(dot) and ext.isalnum() and ext.lower() in EXTENSIONS
    literal_stem = _GLOB.sub("", stem).strip("._-")
    if not (
        any(_FOLDER_WORD.match(folder) for folder in literal_folders)
        or (named_file and literal_stem and not _GLOB.search(ext))
    ):
        return None  # `*.py`, `**/*`, `2*3/4`: no folder or file name to hold on to
    first = parts[0]
    if not rooted and (
        (_DOMAIN.match(first) and not _has_extension(first)) or first.lower() in MIME_TOPS
    ):
        return None
    normal = _normal(token)
    return None if normal in ("", ".") else normal


def is_glob(path: str) -> bool:
    """Whether a found path is a pattern (`docs/*.md`) rather than one path."""
    return "*" in path


def weak(path: str) -> bool:
    """A path whose shape alone does not make it a file: no extension and no known
    file name (`pip/_internal`, `api/v1/users`, `docs/`), or made of placeholder
    names (`foo/bar.py`, `yourapp/views.py`). Missing and never seen by git, it is left out rather
    than reported as unverified: it is more often a word than a file to be written."""
    parts = [part for part in path.rstrip("/").split("/") if part not in ("", ".", "..")]
    if not parts:
        return True
    if any(part.lower() in PLACEHOLDER_NAMES or part.lower().startswith("your") for part in parts):
        return True
    last = parts[-1]
    return not (_has_extension(last) or last in KNOWN_FILES or _capitals_file(parts))


def _tilde(token: str) -> str | None:
    if not token.startswith("~/") or len(token) < 3:
        return None
    rest = _normal(token[2:])
    return None if rest in ("", ".") or rest.startswith("..") else "~/" + rest


def _absolute(token: str) -> str | None:
    parts = [part for part in token.split("/") if part]
    if not parts:
        return None
    if all(_NUMERIC.match(part) for part in parts):
        return None
    # `/etc` alone is a path; `/s` or `/2` is an abbreviation or a unit.
    if len(parts) == 1 and not (len(parts[0]) >= 3 or _has_extension(parts[0])):
        return None
    return _normal(token)


def _relative(token: str) -> str | None:
    explicit = token.startswith(("./", "../"))
    parts = [part for part in token.split("/") if part and part != "."]
    if not parts:
        return None
    if "/" not in token:
        name = parts[0]
        return name if (_has_extension(name) or name in KNOWN_FILES) else None
    if all(_NUMERIC.match(part) for part in parts):
        return None  # dates, fractions, ratios
    if not explicit and (
        (_DOMAIN.match(parts[0]) and not _has_extension(parts[0]))
        or parts[0].lower() in ("localhost", "127.0.0.1")
    ):
        return None  # `github.com/owner/repo` is a module or a URL without scheme
    last = parts[-1]
    if not explicit:
        if len(parts) == 2 and parts[0].lower() in MIME_TOPS and not token.endswith("/"):
            return None  # `application/json`, `text/html`
        words = [part for part in parts if part != ".."]
        if (
            not _has_extension(last)
            and not _capitals_file(words)
            and (
                all(part.isupper() for part in words)
                or (len(words) == 2 and any(part.isupper() or len(part) == 1 for part in words))
            )
        ):
            return None  # TCP/IP, I/O, CI/CD, n/a, w/o
        if not (
            token.endswith("/")
            or _has_extension(last)
            or last in KNOWN_FILES
            or parts[0] in SOURCE_ROOTS
            or parts[0].startswith(".")
            or len(parts) >= 3
            or any("_" in part for part in parts)
        ):
            return None  # and/or, read/write, client/server
    normal = _normal(token)
    return None if normal in ("", ".") else normal


def _capitals_file(words: list[str]) -> bool:
    """An all-capitals file name in a folder (`.github/CODEOWNERS`, `docs/LICENSE`,
    `docs/AUTHORS`): a known file name, or one under a dot folder or a source root.
    `TCP/IP` and `CI/CD` have neither."""
    if len(words) < 2 or not words[-1].isupper() or len(words[-1]) < 3:
        return False
    first = words[0]
    return words[-1] in KNOWN_FILES or first.startswith(".") or first in SOURCE_ROOTS


def _normal(token: str) -> str:
    directory = token.endswith("/")
    normal = posixpath.normpath(token)
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")
    return normal + "/" if directory and normal not in ("/", ".") else normal
