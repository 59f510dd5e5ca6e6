"""``farmtable serve``: the web server (filled in by the browser work)."""
