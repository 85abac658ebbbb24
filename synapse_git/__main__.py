# The console script's own entry: `python -m synapse_git` takes the same fast paths.
from synapse_git.cli.entry import main

raise SystemExit(main())
