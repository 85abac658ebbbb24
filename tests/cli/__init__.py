"""Tests of the command line, one module per module of synapse_git/cli."""
