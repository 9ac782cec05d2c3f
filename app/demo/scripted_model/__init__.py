"""An offline Messages-API server: the real wire format (streaming included), replies computed by policies
from what the tools really returned. Used by the tests, the bench and `bua demo`."""

from app.demo.scripted_model.server import ScriptedModelServer

__all__ = ["ScriptedModelServer"]
