"""System-prompt text. Kept as data so tests can check coverage (every action, every error code)."""
