"""Checks for continuous integration: a change against the team file, with no store."""
