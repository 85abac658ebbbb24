from synapse_git.cli.app import main

raise SystemExit(main())
