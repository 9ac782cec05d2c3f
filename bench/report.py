"""Percentiles, the printed table and the JSON file under bench/results/."""

from __future__ import annotations

import json
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

RESULTS = Path(__file__).resolve().parent / "results"


def wall_once(fn: Callable[[], Any]) -> Callable[[], float]:
    """A sampler: one wall-clock sample of fn(), in seconds."""
    def sample() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    return sample


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    """n wall-clock samples of fn(), in seconds."""
    sample = wall_once(fn)
    return [sample() for _ in range(n)]


async def _timed_response(call: Callable[[], Awaitable[Any]]) -> float:
    """One `await call()` (a bridge Response, which must be ok), in seconds."""
    start = time.perf_counter()
    response = await call()
    elapsed = time.perf_counter() - start
    assert response.ok, response.error
    return elapsed


def timed_on_loop(core: Any, call: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    """n samples of `await call()` (a bridge Response) timed on the core's own event loop, where the agent issues
    its browser calls: no thread hop in the measurement."""
    async def samples() -> list[float]:
        return [await _timed_response(call) for _ in range(n)]
    return core.call(samples(), timeout=300)


def on_loop_once(core: Any, call: Callable[[], Awaitable[Any]]) -> Callable[[], float]:
    """A sampler for interleaved(): one `await call()` timed on the core's own loop (see timed_on_loop)."""
    return lambda: core.call(_timed_response(call), timeout=60)


def interleaved(samplers: dict[str, Callable[[], float]], n: int) -> dict[str, list[float]]:
    """n samples of each sampler (returning seconds), taken in turn (A, B, C, A, B, C, …), so that what is
    compared meets the same load on a shared machine; a ratio of two series taken one after the other also
    measures how the load changed in between."""
    samples: dict[str, list[float]] = {name: [] for name in samplers}
    for _ in range(n):
        for name, sample in samplers.items():
            samples[name].append(sample())
    return samples


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Row:
    suite: str
    name: str
    n: int
    p50_ms: float | None = None
    p95_ms: float | None = None
    value: float | str | None = None
    unit: str = ""
    note: str = ""

    @classmethod
    def timing(cls, suite: str, name: str, samples_s: list[float], note: str = "") -> "Row":
        ms = [s * 1000 for s in samples_s]
        return cls(suite, name, len(ms), round(percentile(ms, 50), 3), round(percentile(ms, 95), 3), note=note)


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    goals: list[dict[str, Any]] = field(default_factory=list)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row

    def goal(self, name: str, measured: float, limit: float, unit: str) -> None:
        self.goals.append({"goal": name, "measured": round(measured, 3), "limit": limit, "unit": unit,
                           "met": measured <= limit})

    def render(self) -> str:
        lines = [f"{'suite':<10} {'measure':<52} {'n':>5} {'p50 ms':>9} {'p95 ms':>9}  value"]
        for r in self.rows:
            p50 = f"{r.p50_ms:9.3f}" if r.p50_ms is not None else " " * 9
            p95 = f"{r.p95_ms:9.3f}" if r.p95_ms is not None else " " * 9
            value = "" if r.value is None else f"{r.value} {r.unit}".strip()
            lines.append(f"{r.suite:<10} {r.name:<52} {r.n:>5} {p50} {p95}  {value} {r.note}".rstrip())
        if self.goals:
            lines.append("")
            lines.append("goals:")
            for g in self.goals:
                mark = "MET " if g["met"] else "MISS"
                lines.append(f"  [{mark}] {g['goal']}: {g['measured']} {g['unit']} (limit {g['limit']})")
        return "\n".join(lines)

    def write(self) -> Path:
        RESULTS.mkdir(parents=True, exist_ok=True)
        payload = {
            "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "machine": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": __import__("os").cpu_count()},
            "rows": [asdict(r) for r in self.rows],
            "goals": self.goals,
        }
        path = RESULTS / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
        text = json.dumps(payload, indent=2)
        path.write_text(text)
        (RESULTS / "latest.json").write_text(text)
        return path
