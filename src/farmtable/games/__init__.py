"""One package per game; each registers itself with :func:`farmtable.core.register` on import."""
