"""Build the Debian package from the wheel: `make deb` (dist/bua-browser_<version>_<arch>.deb).

Layout (no maintainer scripts: every file is static, so `dpkg -r` removes all of it):
  /opt/bua-browser/venv                the wheel and its dependencies in their own venv on Debian's python3
  /opt/bua-browser/bin/bua-native-host the native host, for the system-wide manifests
  /usr/bin/bua                         -> /opt/bua-browser/venv/bin/bua
  /etc/opt/chrome/native-messaging-hosts/com.bua.native_host.json   Google Chrome, every user
  /etc/chromium/native-messaging-hosts/com.bua.native_host.json     Chromium, every user
  /usr/share/applications/bua.desktop, /usr/share/icons/hicolor/scalable/apps/bua.svg

The venv is built in a staging folder and made to live at /opt/bua-browser/venv by rewriting the staging
prefix in its scripts (pip writes absolute shebangs); its byte code is compiled under the final paths. The host finds each
person's BUA_HOME itself (platformdirs), so the system-wide manifests serve every user; the extension is
loaded per browser profile as always (`bua install` places it and prints the steps).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = Path("/opt/bua-browser")
HOST_NAME = "com.bua.native_host"
MANIFEST_DIRS = ("etc/opt/chrome/native-messaging-hosts", "etc/chromium/native-messaging-hosts")


def run(*command: str | Path) -> None:
    subprocess.run([str(c) for c in command], check=True)


def extension_id() -> str:
    sys.path.insert(0, str(ROOT))
    from installer.extension_id import read_extension_id

    return read_extension_id(ROOT / "extension")


def build_venv(stage: Path, wheel: Path, python: str) -> Path:
    venv = stage / PREFIX.relative_to("/") / "venv"
    run(python, "-m", "venv", venv)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile", str(wheel)],
                   check=True, env=env)
    staged, final = str(venv), str(PREFIX / "venv")
    for script in (venv / "bin").iterdir():
        if script.is_file() and not script.is_symlink():
            data = script.read_bytes()
            if staged.encode() in data:
                script.write_bytes(data.replace(staged.encode(), final.encode()))
    # Byte-code compiled here, named by the final paths and never re-checked against the sources, so Python
    # writes no .pyc under /opt at run time and `dpkg -r` finds only the package's own files.
    # Some dependencies ship templates named *.py that are not Python (PySide6's deploy recipes): compileall's
    # status counts those, so it is not checked; whatever is imported gets compiled.
    subprocess.run([str(venv / "bin" / "python"), "-m", "compileall", "-q", "-j", "0", "-s", str(stage), "-p", "/",
                    "--invalidation-mode", "unchecked-hash", str(venv / "lib")], check=False, stdout=subprocess.DEVNULL)
    return venv


def write_system_files(stage: Path, ext_id: str) -> None:
    host = stage / PREFIX.relative_to("/") / "bin" / "bua-native-host"
    host.parent.mkdir(parents=True)
    host.write_text("#!/bin/sh\n# bua native-messaging host for every user (the Debian package).\n"
                    f'exec {PREFIX}/venv/bin/python -m native_host "$@"\n')
    host.chmod(0o755)
    manifest = {"name": HOST_NAME, "description": "bua: lets the bua desktop app drive this browser",
                "path": str(PREFIX / "bin" / "bua-native-host"), "type": "stdio",
                "allowed_origins": [f"chrome-extension://{ext_id}/"]}
    for folder in MANIFEST_DIRS:
        (stage / folder).mkdir(parents=True)
        (stage / folder / f"{HOST_NAME}.json").write_text(json.dumps(manifest, indent=2) + "\n")
    (stage / "usr/bin").mkdir(parents=True)
    (stage / "usr/bin/bua").symlink_to(PREFIX / "venv" / "bin" / "bua")
    for source, target in ((ROOT / "packaging/deb/bua.desktop", "usr/share/applications/bua.desktop"),
                           (ROOT / "packaging/deb/bua.svg", "usr/share/icons/hicolor/scalable/apps/bua.svg")):
        (stage / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, stage / target)


def control(version: str, arch: str, python: str, size_kb: int) -> str:
    minor = subprocess.run([python, "-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"],
                           check=True, capture_output=True, text=True).stdout.strip()
    return "\n".join([
        "Package: bua-browser", f"Version: {version}", f"Architecture: {arch}", "Maintainer: bua developers",
        f"Depends: python3 (>= {minor}), python3 (<< {minor.split('.')[0]}.{int(minor.split('.')[1]) + 1})",
        "Recommends: chromium | google-chrome-stable", "Section: web", "Priority: optional",
        f"Installed-Size: {size_kb}", "Description: lets an LLM agent work in your own, logged-in Chrome",
        " bua drives your browser through its extension and a native-messaging host, with the safety model",
        " described in its README. Run `bua install` once per user to place the extension.", ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--python", default="/usr/bin/python3", help="Debian's python3 (the venv links to it)")
    args = parser.parse_args()
    version = args.wheel.name.split("-")[1]
    arch = subprocess.run(["dpkg", "--print-architecture"], check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bua-deb-") as tmp:
        stage = Path(tmp) / "root"
        build_venv(stage, args.wheel.resolve(), args.python)
        write_system_files(stage, extension_id())
        size_kb = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
        (stage / "DEBIAN").mkdir()
        (stage / "DEBIAN" / "control").write_text(control(version, arch, args.python, size_kb))
        args.out.mkdir(parents=True, exist_ok=True)
        deb = args.out / f"bua-browser_{version}_{arch}.deb"
        run("dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "--build", stage, deb)
    print(deb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
