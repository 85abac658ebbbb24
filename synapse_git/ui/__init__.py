"""`synapse ui`: a local web page to look at memory, its drift and its team (docs/ui.md)."""
