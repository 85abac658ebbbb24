"""Vocabulary (docs/recall.md, "Words of the same meaning"): a small, general
table of developer vocabulary whose words mean one thing (`db` and
`database`, `auth` and `login`, `slow` and `latency`).

A note rarely uses the question's words: a question about the `db` finds the
note that says `database` only if something says they are one. Each query
word is also searched as the other words of its group, in both directions,
and a memory holding one of them holds the word at a lower level than the
word itself or a form of it (coverage.SYNONYM). The table is general
vocabulary, written without looking at any store's words; a group holds only
words a developer would use for one another in most sentences, so an
ambiguous word (`ship`, `page`, `order`, `key`) is left out.
"""

from __future__ import annotations

import functools
import re
from typing import Protocol

from synapse_git.recall import word_forms

# One group a line. A word matches another form of itself through its family
# (word_forms.family) when that key is long enough to mean one word; a short
# word (`db`, `env`) matches only as written. A phrase is written with `_`
# (`sign_in`), matched in a note as written and searched as a phrase.
_TABLE = """
db database
repo repository
config configuration configure settings conf
auth authentication authenticate login signin sign_in log_in
authz authorization authorize permission privilege
logout signout sign_out log_out
signup registration register sign_up
env environment
deps dependency dependencies
lib library package
perf performance latency slow slowness throughput
crash panic segfault abort coredump
hang freeze stuck unresponsive deadlock
remove delete erase purge wipe
docs documentation doc readme wiki
test testing tests spec
flaky intermittent nondeterministic
err error exception
warn warning
bug defect
fix patch hotfix
rollback revert undo downgrade roll_back
upgrade update bump
deploy deployment rollout
install installation setup
init initialize initialise initialization bootstrap
start launch startup boot
stop shutdown halt
restart reboot
cache caching memoize
job task
queue broker
cron schedule scheduler scheduled periodic nightly
backup snapshot
host server machine
container docker
k8s kubernetes
ci pipeline
pr pull_request merge_request
secret credential
password passwd passphrase pwd
monitoring metrics telemetry observability
alert alerting pager paging
outage incident downtime
postmortem retrospective
timeout timed_out deadline
retry retries backoff
ratelimit rate_limit throttle throttling quota
email mail
notification notify
encrypt encryption encrypted cipher
tls ssl https certificate cert
endpoint route url
function func fn method
param parameter argument arg
dir directory folder
prod production
staging preprod
dev development
admin administrator superuser
i18n internationalization translation localization l10n locale
a11y accessibility
timezone tz
duplicate dedupe deduplicate
invalid malformed corrupt
null nil
expire expiry expiration ttl lifetime
max maximum limit cap
min minimum
owner maintainer codeowners
approve approval signoff sign_off
lint linter
debug troubleshoot diagnose
trace tracing
bench benchmark
cmd command
cli command_line
shell terminal console
txn transaction
req request
resp response
msg message
impl implementation
tmp temp temporary
allowlist whitelist
blocklist blacklist denylist
save persist
publish emit
subscribe consume consumer
validate validation verify
diff compare
async asynchronous background
frontend ui front_end
backend back_end
pii personal_data
hash digest checksum
serialize serialization marshal
str string
int integer
bool boolean
dict dictionary hashmap
conn connection
cpu processor
disk storage volume
lb load_balancer ingress
webhook callback
date datetime timestamp
bill invoice
js javascript
ts typescript
py python
pg postgres postgresql psql
regex regexp regular_expression
vuln vulnerability cve
deprecated obsolete
concurrent simultaneous parallel
kb kilobyte
mb megabyte
gb gigabyte
img image picture
stacktrace traceback backtrace stack_trace
autoscale autoscaling autoscaler
"""

MAX_EQUIVALENTS = 8
# A family key this short is shared by unrelated words (`settings` -> `set`).
_FAMILY_AT = 4


def _keys(entry: str) -> set[str]:
    keys = {entry}
    if " " not in entry and len(word_forms.family(entry)) >= _FAMILY_AT:
        keys.add(word_forms.family(entry))
    return keys


def _groups() -> dict[str, tuple[str, ...]]:
    """Each entry and its family key -> its whole group."""
    out: dict[str, tuple[str, ...]] = {}
    for line in _TABLE.strip().splitlines():
        entries = [word.replace("_", " ") for word in line.split()]
        for entry in entries:
            for key in _keys(entry):
                out.setdefault(key, tuple(entries))
    return out


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    return _groups()


# A word that, in a question holding the question word beside it, asks for a
# kind of answer (`how long`: a duration): a note holding the answer states it
# in these words, seldom in the question's.
_ASKED: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "long": (("how", ("seconds", "minutes", "hours", "days", "weeks", "months", "ttl", "expire")),),
}


@functools.lru_cache(maxsize=65536)
def equivalents(word: str, asked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The other words of `word`'s group, not forms of `word` itself (at most
    MAX_EQUIVALENTS), or none; `asked` are the question's stopwords, which give
    some words the sense of the answer they ask for (`how long`: a duration)."""
    for opener, answer in _ASKED.get(word, ()):
        if opener in asked:
            return answer
    table = _table()
    own = word_forms.family(word)
    group = table.get(word)
    if group is None and len(own) >= _FAMILY_AT:
        group = table.get(own)
    others = [e for e in group or () if e != word and word_forms.family(e) != own]
    return tuple(others[:MAX_EQUIVALENTS])


@functools.lru_cache(maxsize=4096)
def _pattern(entries: tuple[str, ...]) -> re.Pattern[str]:
    # `sign in`, `sign-in` and `Sign  in` are one phrase to a reader and to FTS5.
    words = (r"\W+".join(re.escape(part) for part in e.split()) for e in entries)
    return re.compile(r"\b(?:" + "|".join(words) + r")\b")


class Text(Protocol):
    """A text as coverage.Words sees it: asked word by word, so that a text that
    holds a word as written is never cut into all its words (the slow path)."""

    folded: str

    def has(self, word: str) -> bool: ...

    def has_family(self, word: str) -> bool: ...


def held(found: tuple[str, ...], text: Text) -> bool:
    """Whether `text` holds one of the words `found` (a term's equivalents): as
    written, as another form of a long enough word, or as a phrase."""
    for entry in found:
        if " " in entry:
            continue
        if text.has(entry):
            return True
        if len(word_forms.family(entry)) >= _FAMILY_AT and text.has_family(entry):
            return True
    phrases = tuple(e for e in found if " " in e)
    return bool(phrases) and bool(_pattern(phrases).search(text.folded))
