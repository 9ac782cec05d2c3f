# bua — two commands: `make run` and `make test` (see README.md).
VENV   := .venv
PY     := $(VENV)/bin/python
PYTHON ?= python3
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-py test-js test-installed deb deb-python check check-py check-js venv browser-deps ui-deps bench schema clean screenshots

# A stock Debian python3 has no venv module (python3-venv): installed when missing.
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# Debian's chromium for the real-browser tests (~40 s), node for the extension's unit tests.
# Real-browser tests: Debian's chromium (headless), plus Xvfb, openbox, xdotool and xprop for the headful
# background-tab test (a minimised window needs a real X server and window manager).
browser-deps:
	@test -x /usr/lib/chromium/chromium && command -v Xvfb >/dev/null && command -v openbox >/dev/null && \
		command -v xdotool >/dev/null && command -v xprop >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium xvfb openbox xdotool x11-utils; }
	@command -v node >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; }
	@command -v npm >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }

# The libraries Qt's X11 plugin needs (libxcb-icccm4, libxcb-cursor0, …), installed on Debian/Ubuntu when missing,
# as browser-deps does for Chromium; elsewhere `bua` names what to install itself.
ui-deps: venv
	@missing="$$($(PY) -m app.ui.xcb_check --packages)"; \
	if [ -n "$$missing" ] && command -v apt-get >/dev/null; then \
		echo "installing Qt's X11 libraries: $$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

run: venv ui-deps
	$(VENV)/bin/bua install
	$(VENV)/bin/bua

test: venv browser-deps ui-deps check test-js test-py test-installed

test-js:
	cd extension && node --test test/

# Checked types: ruff and mypy over the Python packages, tsc --checkJs over the extension (typescript pinned in
# extension/package.json, installed from its lock file).
check: check-py check-js

# Ruff over every Python folder (tests and bench too, with unused noqa refused), mypy --strict over the packages, and
# the contract both languages share: the generated protocol is not stale, every declared action has a handler and
# every handler a declaration, every control op the app sends has one table entry, code sent to the page uses only
# what it declares, and the protocol vectors classify alike in Python and in node.
check-py: venv
	$(PY) -m ruff check app native_host installer tests bench scripts
	$(PY) -m mypy
	$(PY) -m vulture
	$(PY) -m pytest -q -p no:cacheprovider tests/unit/protocol tests/unit/test_layers.py

check-js: browser-deps
	cd extension && npm ci --no-audit --no-fund --loglevel=error && npx tsc -p tsconfig.json && \
		node --test test/handlers.test.js test/protocol-vectors.test.js test/control-ops.test.js test/page-code.test.js

test-py:
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider

# The installed form (tests/installed): the sdist, the wheel built from it, installed non-editable into a fresh
# venv outside the repository (dependencies from pip's cache) and run from a temporary folder; and the .deb built
# from the same wheel, installed into a throwaway root with dpkg --root and removed.
test-installed: venv browser-deps
	@set -e; tmp=$$(mktemp -d /tmp/bua-installed.XXXXXX); trap 'rm -rf "$$tmp"' EXIT; start=$$(date +%s); \
	$(PY) -m build --outdir "$$tmp/dist" . >"$$tmp/build.log" 2>&1 || { cat "$$tmp/build.log"; exit 1; }; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "$$tmp"/dist/*.whl; \
	echo "installed form: built and installed in $$(( $$(date +%s) - start )) s"; \
	$(MAKE) -s deb-python; \
	$(PY) scripts/build_deb.py --wheel "$$tmp"/dist/*.whl --out "$$tmp/deb" --python $(DEB_PYTHON) >"$$tmp/deb.log" 2>&1 \
		|| { cat "$$tmp/deb.log"; exit 1; }; \
	echo "installed form: wheel, venv and .deb built in $$(( $$(date +%s) - start )) s"; \
	BUA_INSTALLED_VENV="$$tmp/venv" BUA_DEB="$$(ls "$$tmp"/deb/*.deb)" $(PY) -m pytest -q -p no:cacheprovider \
		tests/installed; \
	echo "installed form: $$(( $$(date +%s) - start )) s in all"

# The Debian package (scripts/build_deb.py): bua in its own venv under /opt/bua-browser on Debian's python3.
DEB_PYTHON ?= /usr/bin/python3
deb-python:
	@$(DEB_PYTHON) -c "import ensurepip, venv" 2>/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }

deb: venv deb-python
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PY) -m build --wheel --outdir "$$tmp" . >"$$tmp/build.log" 2>&1 || { cat "$$tmp/build.log"; exit 1; }; \
	$(PY) scripts/build_deb.py --wheel "$$tmp"/*.whl --out dist --python $(DEB_PYTHON)

# The peer suite's MCP servers (bench/peers/package.json, pinned): a failed install is reported, and the peer
# suite then prints why and leaves their columns out; Playwright's own browser download is skipped (Debian's
# chromium is used).
bench: venv browser-deps
	$(PY) -m pip install -q -e '.[test,bench]'
	cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error || \
		echo "bench: npm ci in bench/peers failed; the peer suite will skip Playwright MCP and chrome-devtools-mcp"
	$(PY) -m bench

# Screenshots of the real app under Xvfb, with trayer as the tray host (docs/screenshots/*.png).
screenshots: venv browser-deps
	@command -v xvfb-run >/dev/null && command -v trayer >/dev/null && /sbin/ldconfig -p | grep -q libxcb-cursor.so.0 || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			xvfb trayer libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1; }
	QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1440x960x24" $(PY) scripts/screenshots.py

schema: venv
	$(PY) -m app.protocol.codegen

clean:
	rm -rf $(VENV) bench/results/*.json
