"""What the person has to do by hand after install: load the unpacked extension.

Branded Chrome ignores `--load-extension`, so "Load unpacked" in the
extensions page is the way in; the ID check catches a manifest without the key.
"""

from __future__ import annotations

from pathlib import Path

from installer.targets import Browser


def _where_to_open(browsers: list[Browser], custom_dir: Path | None) -> str:
    by_scheme: dict[str, list[str]] = {}
    for browser in browsers:
        by_scheme.setdefault(browser.scheme, []).append(browser.display_name)
    places = [f"{scheme}://extensions in {' or '.join(names)}" for scheme, names in by_scheme.items()]
    if custom_dir is not None:
        places.append(f"chrome://extensions in the browser started with --user-data-dir={custom_dir}")
    return "; ".join(places)


def load_unpacked_instructions(
    browsers: list[Browser], extension_dir: Path, extension_id: str, custom_dir: Path | None = None
) -> str:
    return "\n".join(
        [
            "Now load the bua extension (once per browser profile):",
            f"  1. Open {_where_to_open(browsers, custom_dir)}.",
            '  2. Turn on "Developer mode" (the switch at the top right).',
            '  3. Click "Load unpacked" and choose this folder:',
            f"       {extension_dir}",
            f"  4. Check that the extension's ID reads {extension_id}",
            "     (any other ID means the host will refuse it: the manifest's \"key\" is missing or changed).",
        ]
    )
