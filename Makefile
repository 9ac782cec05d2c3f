# bua — two commands: `make run` and `make test` (see README.md).
VENV   := .venv
PY     := $(VENV)/bin/python
PYTHON ?= python3
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-py test-js venv browser-deps bench schema clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# Debian's chromium for the real-browser tests (FIELD-NOTES: ~40 s), node for the extension's unit tests.
browser-deps:
	@test -x /usr/lib/chromium/chromium || command -v chromium >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v node >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; }

run: venv
	$(VENV)/bin/bua install
	$(VENV)/bin/bua

test: venv browser-deps test-js test-py

test-js:
	cd extension && node --test test/

test-py:
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider

bench: venv browser-deps
	$(PY) -m bench

schema: venv
	$(PY) -m app.protocol.schema_export

clean:
	rm -rf $(VENV) bench/results/*.json
