"""Garbage collection on the GUI thread only.

Python's cyclic collector runs in whichever thread happens to allocate when a
threshold is crossed: a store call in an executor thread, or the bridge's
worker. A Qt object caught in a collected cycle is then destroyed on that
thread ("QObject::~QObject: Timers cannot be stopped from another thread",
seen in the chat window's e2e test). As qutebrowser does, automatic
collection is switched off while the app runs and a timer on the GUI thread
collects instead, by the same generation thresholds.

The timer must be frequent: with automatic collection off, every object made
between two ticks waits in the youngest generation, and one collection then
examines them all (at 500 ms a tick, a generation-1 collection during an agent
run took 50-66 ms, the UI's longest stall). Objects alive when the app has
started (modules, Qt, the SDK) are frozen out of collections, so a full one
walks only what the app made since.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 50
YOUNG_ROUNDS = 3
"""Generation 1 is collected after this many generation-0 collections (Python's default is 10): a tick's
survivors can be thousands of objects, and a generation-1 collection examines all those since the last one."""
FULL_EVERY_S = 30.0
"""A full collection walks every object (tens of ms with Qt and the SDK loaded): at most this often."""


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_when_due)
        self._last_full = time.monotonic()

    def start(self) -> None:
        gc.disable()
        gc.collect()
        gc.freeze()
        self._timer.start()

    def collect_when_due(self) -> None:
        """Collect the oldest generation that is due, as the automatic collector would (which also holds back full
        collections; here they come at most every FULL_EVERY_S, and generation 1 after YOUNG_ROUNDS)."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        if counts[2] > thresholds[2] and time.monotonic() - self._last_full >= FULL_EVERY_S:
            gc.collect(2)
            self._last_full = time.monotonic()
        elif counts[1] >= YOUNG_ROUNDS:
            gc.collect(1)
        elif counts[0] > thresholds[0]:
            gc.collect(0)

    def stop(self) -> None:
        """Collect what is left here, on the GUI thread, and give collection back to Python."""
        self._timer.stop()
        gc.unfreeze()
        gc.collect()
        if self._was_enabled:
            gc.enable()
