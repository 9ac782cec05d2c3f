"""bua: an LLM agent working in the person's own, logged-in Chrome."""

__version__ = "0.1.0"

DISTRIBUTION = "bua-browser"
"""The name bua is published under on the package index (`bua` there is another project)."""
