"""Optional offline semantic recall (docs/semantic.md): installed with
`pip install 'synapse-git[semantic]'`; nothing here runs without it."""
