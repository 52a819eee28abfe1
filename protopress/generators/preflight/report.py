"""A preflight's result: one line per check, and the small formatting every
check shares (points shown in mm, boxes compared within a tolerance)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from protopress.generators.units import to_mm

TOLERANCE = 0.1  # points: boxes and mark coordinates this close are equal


@dataclass(frozen=True)
class PreflightCheck:
    name: str  # pages, page boxes, fonts, colours, crop marks, images
    ok: bool
    message: str
    page: int | None = None  # 1-based; None for a whole-file line

    def __str__(self) -> str:
        where = "" if self.page is None else f" page {self.page}"
        return f"{'PASS' if self.ok else 'FAIL'} {self.name}{where}: {self.message}"

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class PreflightReport:
    file: str
    pages: int
    checks: list[PreflightCheck]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def __str__(self) -> str:
        return "\n".join(map(str, self.checks))

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "pages": self.pages,
            "ok": self.ok,
            "checks": [check.to_json() for check in self.checks],
        }


def box_of(array) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in array)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def inside(inner, outer) -> bool:
    return (
        inner[0] >= outer[0] - TOLERANCE
        and inner[1] >= outer[1] - TOLERANCE
        and inner[2] <= outer[2] + TOLERANCE
        and inner[3] <= outer[3] + TOLERANCE
    )


def distinct(positions: list[float]) -> list[float]:
    result: list[float] = []
    for position in sorted(positions):
        if not result or position - result[-1] >= TOLERANCE:
            result.append(position)
    return result


def mm(points: float) -> str:
    return f"{round(to_mm(points), 1) + 0.0:g}"


def mm_box(box) -> str:
    return "[" + ", ".join(mm(v) for v in box) + "] mm"
