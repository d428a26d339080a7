"""One component per file (the trolli pattern)."""
