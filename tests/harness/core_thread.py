"""The real core on a background loop, for sync tests (see app.core.background)."""

from app.core.background import CoreThread

__all__ = ["CoreThread"]
