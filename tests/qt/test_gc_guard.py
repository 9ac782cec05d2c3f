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


def test_what_lived_at_start_is_frozen_out_and_young_objects_are_collected_in_small_rounds(qapp):
    """A collection examines only objects made since the app started, and generation 1 is collected every
    YOUNG_ROUNDS generation-0 rounds, so no single collection examines a long run's worth of survivors."""
    from app.ui.gc_guard import YOUNG_ROUNDS

    collector = GuiThreadCollector()
    collector.start()
    try:
        assert gc.get_freeze_count() > 1000, "the objects of start-up are out of the collector's way"
        generations: list[int] = []

        def note(phase: str, info: dict) -> None:
            if phase == "start":
                generations.append(info["generation"])
        gc.callbacks.append(note)
        try:
            for _ in range(3 * (YOUNG_ROUNDS + 1)):
                survivors = [[i] for i in range(2_000)]
                collector.collect_when_due()
                del survivors
        finally:
            gc.callbacks.remove(note)
        assert generations.count(1) >= 2 and 2 not in generations, generations
        assert max(len(list(g)) for g in _runs_of_zero(generations)) <= YOUNG_ROUNDS, generations
    finally:
        collector.stop()
    assert gc.get_freeze_count() == 0, "given back at the end"


def _runs_of_zero(generations: list[int]) -> list[list[int]]:
    runs: list[list[int]] = [[]]
    for generation in generations:
        if generation == 0:
            runs[-1].append(generation)
        else:
            runs.append([])
    return runs
