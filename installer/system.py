"""The machine the installer works on, as a value that tests can swap.

Everything the installer reads from the environment goes through `Platform`,
so the macOS and Windows code paths run on Linux against a temporary root and
never touch the real home directory.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

System = Literal["linux", "darwin", "win32"]


def current_system() -> System:
    """`sys.platform` folded onto the three layouts the browsers use."""
    if sys.platform == "win32":
        return "win32"
    if sys.platform == "darwin":
        return "darwin"
    return "linux"


@dataclass(frozen=True)
class Platform:
    """The operating system, the home directory and the environment to use."""

    system: System
    home: Path
    env: Mapping[str, str] = field(default_factory=dict)
    applications: tuple[Path, ...] = ()
    """macOS folders that hold `.app` bundles."""

    @classmethod
    def current(cls) -> Platform:
        home = Path.home()
        return cls(
            system=current_system(),
            home=home,
            env=dict(os.environ),
            applications=(Path("/Applications"), home / "Applications"),
        )

    def which(self, name: str) -> str | None:
        """`name` on this platform's PATH (an empty PATH finds nothing)."""
        path = self.env.get("PATH", "")
        return shutil.which(name, path=path) if path else None

    def xdg_config_home(self) -> Path:
        """Linux browsers keep their profiles under $XDG_CONFIG_HOME (default ~/.config)."""
        value = self.env.get("XDG_CONFIG_HOME", "")
        return Path(value) if value and Path(value).is_absolute() else self.home / ".config"

    def local_app_data(self) -> Path:
        """Windows %LOCALAPPDATA%, where the browsers keep their "User Data"."""
        value = self.env.get("LOCALAPPDATA", "")
        return Path(value) if value else self.home / "AppData" / "Local"
