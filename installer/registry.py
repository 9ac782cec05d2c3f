"""The Windows registry (HKEY_CURRENT_USER only), behind a small protocol.

Chrome on Windows finds a native-messaging host through the default value of
`HKCU\\Software\\<vendor>\\NativeMessagingHosts\\<host name>`. `WinRegistry`
talks to the real registry; `InMemoryRegistry` lets tests run the Windows
code path on any OS.
"""

from __future__ import annotations

import sys
from typing import Protocol


class Registry(Protocol):
    def set_default_value(self, key_path: str, value: str) -> None: ...

    def get_default_value(self, key_path: str) -> str | None: ...

    def delete_key(self, key_path: str) -> bool:
        """Delete a key without subkeys; False if it did not exist."""
        ...

    def key_exists(self, key_path: str) -> bool: ...


class WinRegistry:
    """HKEY_CURRENT_USER through `winreg`, imported only when used (Windows only)."""

    def set_default_value(self, key_path: str, value: str) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, key_path, 0, winreg.KEY_WRITE) as key:
            winreg.SetValueEx(key, "", 0, winreg.REG_SZ, value)

    def get_default_value(self, key_path: str) -> str | None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key_path) as key:
                value, _type = winreg.QueryValueEx(key, "")
        except FileNotFoundError:
            return None
        return value if isinstance(value, str) else None

    def delete_key(self, key_path: str) -> bool:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        try:
            winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key_path)
        except FileNotFoundError:
            return False
        return True

    def key_exists(self, key_path: str) -> bool:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        try:
            winreg.OpenKey(winreg.HKEY_CURRENT_USER, key_path).Close()
        except FileNotFoundError:
            return False
        return True


class InMemoryRegistry:
    """A dict standing in for HKCU; key paths compare case-insensitively, as on Windows."""

    def __init__(self) -> None:
        self.keys: dict[str, str | None] = {}

    @staticmethod
    def _norm(key_path: str) -> str:
        return key_path.strip("\\").lower()

    def create_key(self, key_path: str) -> None:
        self.keys.setdefault(self._norm(key_path), None)

    def set_default_value(self, key_path: str, value: str) -> None:
        self.keys[self._norm(key_path)] = value

    def get_default_value(self, key_path: str) -> str | None:
        return self.keys.get(self._norm(key_path))

    def delete_key(self, key_path: str) -> bool:
        return self.keys.pop(self._norm(key_path), _MISSING) is not _MISSING

    def key_exists(self, key_path: str) -> bool:
        norm = self._norm(key_path)
        return any(key == norm or key.startswith(norm + "\\") for key in self.keys)


_MISSING = object()
