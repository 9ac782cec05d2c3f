"""The app's side of the pipe: local socket server, one BrowserBridge per browser profile, the pool."""

from app.bridge.abort import AbortSignal
from app.bridge.bridge import BrowserBridge
from app.bridge.pool import BrowserBridgePool

__all__ = ["AbortSignal", "BrowserBridge", "BrowserBridgePool"]
