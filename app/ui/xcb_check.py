"""Which system libraries Qt's X11 platform plugin needs, which of them fail to load, and the apt line for them.

Qt aborts the whole process ("could not load the Qt platform plugin xcb")
when a library of its xcb plugin is missing, so this runs before Qt: it reads
the libraries the plugin and its Qt helper library name (ELF DT_NEEDED), skips
the ones PySide6 bundles, and tries to load each of the rest. No Qt import.

`python -m app.ui.xcb_check --packages` prints the Debian packages to install
(nothing when all load): `make run` uses it.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import struct
import sys
from pathlib import Path

PLUGIN_FILES = ("plugins/platforms/libqxcb.so", "lib/libQt6XcbQpa.so.6")
PACKAGE_EXCEPTIONS = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libGLdispatch.so.0": "libglvnd0",
    "libgcc_s.so.1": "libgcc-s1",
    "libz.so.1": "zlib1g",
    "libm.so.6": "libc6",
    "libpthread.so.0": "libc6",
    "libdl.so.2": "libc6",
    "librt.so.1": "libc6",
}
SONAME = re.compile(r"^(?P<name>lib[\w.+-]*?)\.so\.(?P<version>\d+)")
DT_NEEDED, DT_STRTAB, PT_LOAD, PT_DYNAMIC = 1, 5, 1, 2


def qt_dir() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "Qt"


def needed(path: Path) -> list[str]:
    """The DT_NEEDED names of an ELF shared object ([] when it is not one)."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF":
        return []
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        (phoff,) = struct.unpack_from(order + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
        header, entry = order + "IIQQQQQ", order + "qQ"
    else:
        (phoff,) = struct.unpack_from(order + "I", data, 0x1C)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 0x2A)
        header, entry = order + "IIIIII", order + "iI"
    loads: list[tuple[int, int, int]] = []
    dynamic: tuple[int, int] | None = None
    for i in range(phnum):
        fields = struct.unpack_from(header, data, phoff + i * phentsize)
        if wide:
            p_type, _flags, offset, vaddr, _paddr, filesz, _memsz = fields
        else:
            p_type, offset, vaddr, _paddr, filesz, _memsz = fields
        if p_type == PT_LOAD:
            loads.append((vaddr, offset, filesz))
        elif p_type == PT_DYNAMIC:
            dynamic = (offset, filesz)
    if dynamic is None:
        return []
    size = struct.calcsize(entry)
    tags = [struct.unpack_from(entry, data, dynamic[0] + i) for i in range(0, dynamic[1], size)]
    strtab = next((value for tag, value in tags if tag == DT_STRTAB), None)
    if strtab is None:
        return []
    base = next((offset + strtab - vaddr for vaddr, offset, filesz in loads if vaddr <= strtab < vaddr + filesz), None)
    if base is None:
        return []
    names = []
    for tag, value in tags:
        if tag == DT_NEEDED:
            end = data.index(b"\0", base + value)
            names.append(data[base + value:end].decode("ascii", "replace"))
    return names


def debian_package(soname: str) -> str:
    """libxcb-icccm.so.4 -> libxcb-icccm4, libX11-xcb.so.1 -> libx11-xcb1, libxkbcommon-x11.so.0 ->
    libxkbcommon-x11-0 (Debian's library package naming)."""
    if soname in PACKAGE_EXCEPTIONS:
        return PACKAGE_EXCEPTIONS[soname]
    match = SONAME.match(soname)
    if match is None:
        return soname
    name, version = match["name"].lower(), match["version"]
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def system_libraries(qt: Path) -> list[str]:
    """The plugin's libraries that PySide6 does not bundle, in the order named."""
    bundled = {p.name for p in (qt / "lib").glob("*.so*")}
    found: list[str] = []
    for relative in PLUGIN_FILES:
        path = qt / relative
        if path.exists():
            found += [n for n in needed(path) if n not in bundled and n not in found]
    return found


def missing_libraries(qt: Path | None = None) -> list[str]:
    """Libraries of the xcb plugin that do not load here (the first missing name each failure reports)."""
    qt = qt or qt_dir()
    if qt is None or not sys.platform.startswith("linux"):
        return []
    missing: list[str] = []
    for soname in system_libraries(qt):
        try:
            ctypes.CDLL(soname)
        except OSError as err:
            reported = str(err).split(":", 1)[0].strip()
            name = reported if SONAME.match(reported) else soname
            if name not in missing:
                missing.append(name)
    return missing


def apt_line(missing: list[str]) -> str:
    packages = sorted({debian_package(name) for name in missing})
    return "sudo apt-get install " + " ".join(packages)


def main(argv: list[str]) -> int:
    missing = missing_libraries()
    if "--packages" in argv:
        print(" ".join(sorted({debian_package(name) for name in missing})))
        return 0
    if missing:
        print(f"missing: {', '.join(missing)}\n{apt_line(missing)}")
        return 1
    print("Qt's X11 plugin has every library it needs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
