"""Bounded memory: a finished task's screenshots become thumbnails (full images on disk, capped) and old finished
tasks leave memory for the store."""

from __future__ import annotations

import asyncio
import base64
import io
import os
import stat
import time

from PIL import Image

from app.agent.task_board import Milestone, TaskBoard
from app.store.db import Store
from app.store.screenshots import ScreenshotArchive, decode_data_url


def _png(width: int = 1280, height: int = 800, shade: int = 0) -> str:
    image = Image.new("RGB", (width, height), (shade % 256, 80, 160))
    out = io.BytesIO()
    image.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def _run_task(board: TaskBoard, task_id: str, shots: int = 2) -> list[str]:
    board.start(task_id, f"task {task_id}")
    urls = [_png(shade=i) for i in range(shots)]
    for step, url in enumerate(urls, 1):
        board.post_milestone(Milestone(task_id, step, "screenshot", f"step {step}", url))
    board.finish(task_id, "completed")
    return urls


def test_a_finished_task_keeps_thumbnails_in_memory_and_full_images_on_disk(tmp_path):
    store = Store(tmp_path)
    board = TaskBoard(ScreenshotArchive(tmp_path / "screenshots"), store.save_task)
    urls = _run_task(board, "t1")
    milestones = board.tasks["t1"].milestones
    for milestone, full in zip(milestones, urls, strict=True):
        assert milestone.screenshot.startswith("data:image/jpeg;base64,")
        thumb = Image.open(io.BytesIO(decode_data_url(milestone.screenshot)[1]))
        assert thumb.width == 320 and thumb.height == 200
        assert len(milestone.screenshot) < len(full) / 2
        assert open(milestone.screenshot_file, "rb").read() == decode_data_url(full)[1], "the full image, unchanged"
        assert stat.S_IMODE(os.stat(milestone.screenshot_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "screenshots").st_mode) == 0o700
    [stored] = store.task_history()
    assert stored["task_id"] == "t1" and stored["status"] == "completed"
    assert [m["screenshot_file"] for m in stored["milestones"]] == [m.screenshot_file for m in milestones]
    store.close()


def test_the_disk_cap_drops_the_oldest_images_first(tmp_path):
    archive = ScreenshotArchive(tmp_path / "shots", cap_bytes=1)
    first = archive.save("a", _png(64, 64, 1))
    time.sleep(0.01)
    archive.cap_bytes = first.stat().st_size * 2 + 10
    second = archive.save("b", _png(64, 64, 2))
    time.sleep(0.01)
    third = archive.save("c", _png(64, 64, 3))
    assert not first.exists() and second.exists() and third.exists()
    assert archive.size() <= archive.cap_bytes
    assert archive.load(first) is None and archive.load(third).startswith("data:image/png;base64,")


def test_old_finished_tasks_leave_memory_but_not_the_store(tmp_path):
    store = Store(tmp_path)
    board = TaskBoard(None, store.save_task, keep_finished=3)
    board.start("running", "still going")
    for i in range(10):
        _run_task(board, f"t{i}", shots=1)
    assert sorted(board.tasks) == ["running", "t7", "t8", "t9"], "running tasks are never evicted"
    assert [t["task_id"] for t in store.task_history()] == [f"t{i}" for i in reversed(range(10))]
    store.close()


def test_on_a_running_loop_the_work_happens_off_the_loop(tmp_path):
    board = TaskBoard(ScreenshotArchive(tmp_path / "s"))

    async def body() -> None:
        _run_task(board, "t-async", shots=1)
        deadline = time.monotonic() + 10
        while board.tasks["t-async"].milestones[0].screenshot_file is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    asyncio.run(body())
    milestone = board.tasks["t-async"].milestones[0]
    assert milestone.screenshot_file and milestone.screenshot.startswith("data:image/jpeg")


def test_a_broken_screenshot_is_dropped_not_fatal(tmp_path):
    board = TaskBoard(ScreenshotArchive(tmp_path / "s"))
    board.start("t", "x")
    board.post_milestone(Milestone("t", 1, "screenshot", "s", "data:image/png;base64,AAAA"))
    board.finish("t", "completed")
    assert board.tasks["t"].milestones[0].screenshot is None


def test_a_board_with_nowhere_to_put_things_keeps_what_it_holds():
    board = TaskBoard(keep_finished=2)
    urls = _run_task(board, "t", shots=1)
    assert board.tasks["t"].milestones[0].screenshot == urls[0]
    for i in range(3):
        _run_task(board, f"more-{i}", shots=1)
    assert sorted(board.tasks) == ["more-1", "more-2"], "still capped"
