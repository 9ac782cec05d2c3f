"""bua: an LLM agent working in the person's own, logged-in Chrome."""

__version__ = "0.1.0"
