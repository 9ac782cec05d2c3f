"""Garbage collection on the GUI thread only.

Python's cyclic collector runs in whichever thread happens to allocate when a
threshold is crossed: a store call in an executor thread, or the bridge's
worker. A Qt object caught in a collected cycle is then destroyed on that
thread ("QObject::~QObject: Timers cannot be stopped from another thread",
seen in the chat window's e2e test). As qutebrowser does, automatic
collection is switched off while the app runs and a timer on the GUI thread
collects instead, by the same generation thresholds.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500
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
        self._timer.start()

    def collect_when_due(self) -> None:
        """Collect the oldest generation whose count has passed its threshold, as the automatic collector would
        (which also holds back full collections; here they come at most every FULL_EVERY_S)."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        if counts[2] > thresholds[2] and time.monotonic() - self._last_full >= FULL_EVERY_S:
            gc.collect(2)
            self._last_full = time.monotonic()
        elif counts[1] > thresholds[1]:
            gc.collect(1)
        elif counts[0] > thresholds[0]:
            gc.collect(0)

    def stop(self) -> None:
        """Collect what is left here, on the GUI thread, and give collection back to Python."""
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()
