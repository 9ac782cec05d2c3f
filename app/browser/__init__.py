"""Starting a browser with a dedicated bua profile (used by `bua browser`, `bua demo` and the tests)."""
