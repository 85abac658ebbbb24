"""Optional offline semantic recall (docs/semantic.md): installed with
`pip install -e '.[semantic]'`; nothing here runs without it."""
