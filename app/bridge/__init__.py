"""The app's side of the pipe: local socket server, one BrowserBridge per browser profile, the pool."""

from app.bridge.bridge import BrowserBridge
from app.bridge.pool import BrowserBridgePool

__all__ = ["BrowserBridge", "BrowserBridgePool"]
