"""The `synapse` command line: thin typer commands over `synapse_git.service`."""
