"""The real-host fixtures (`core`, `host`) of test_relay, for the other host test modules too."""

from tests.unit.native_host.test_relay import core, host  # noqa: F401
