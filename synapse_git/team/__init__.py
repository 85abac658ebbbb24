"""Team memory (docs/team.md). The package itself holds only where its file lives, so
the commit hook, which checks a staged team file on every commit, learns the name
without loading the records module that parses it."""

# The tracked team file, from the top of the work tree.
FILE = ".synapse/memories.jsonl"
