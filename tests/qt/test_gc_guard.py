"""Qt objects caught in reference cycles are destroyed on the GUI thread, never in a worker thread."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject, QTimer

from app.ui.gc_guard import GuiThreadCollector


class Cyclic(QObject):
    """A QObject with a running timer, kept alive only by a reference cycle."""

    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.start(10_000)
        self.me = self


def churn_in_a_worker() -> None:
    """Allocate container objects in another thread, as store and bridge workers do (this is where the automatic
    collector would run, and destroy the cycle there)."""
    def work() -> None:
        junk = [[i] for i in range(200_000)]
        del junk
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()


def test_cycles_holding_qt_objects_are_collected_on_the_gui_thread(qapp):
    collector = GuiThreadCollector()
    collector.start()
    try:
        assert not gc.isenabled(), "no automatic collection while the app runs"
        for _ in range(20):
            Cyclic()
        churn_in_a_worker()  # a Qt warning here ("Timers cannot be stopped from another thread") fails the test
        collector.collect_when_due()
    finally:
        collector.stop()
    assert gc.isenabled(), "given back at the end"
    assert not [o for o in gc.get_objects() if isinstance(o, Cyclic)], "collected, here"
