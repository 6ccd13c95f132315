# Two set-up commands for a fresh machine (see README):
#   make run   installs what is missing and starts the main job
#   make test  installs what is missing and runs every check CI runs
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYPROJECT_SUM := $(shell cksum < pyproject.toml | cut -d' ' -f1)
#: everything (tests, research and simulation tools); make test
STAMP := $(VENV)/.installed-dev-$(PYPROJECT_SUM)
#: what serving needs, and no more; make run
RUN_STAMP := $(VENV)/.installed-run-$(PYPROJECT_SUM)
# Debian packages the browser tests need; installed only when missing.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The compiled build for the checkout (docs/performance.md): the wheel's build hook
# (hatch_build.py) compiles it, from a copy of the sources, into its own folder, which
# PYTHONPATH puts ahead of the editable sources; it is rebuilt when any source changes.
BUILD := .build
COMPILED_SITE := $(BUILD)/compiled
SOURCES_SUM := $(shell cat pyproject.toml hatch_build.py docs/rules/*.md $$(find src -name '*.py' | LC_ALL=C sort) | cksum | cut -d' ' -f1)
COMPILED_STAMP := $(COMPILED_SITE)/.built-$(SOURCES_SUM)
#: the tests that exercise the compiled modules (the framework's per-step code, the games'
#: rules and all that drives them)
COMPILED_TESTS := tests/test_build.py tests/core tests/games/board tests/games/cards \
	tests/agents tests/interop tests/sim

.PHONY: run test lint typecheck pytest install system-deps clean compiled test-compiled messages

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP) $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[server]'
	@rm -f $(VENV)/.installed-run-*
	@touch $(RUN_STAMP)

install: $(STAMP)
	@# a compiled module left in src/ (an in-place compiled build) would shadow its source
	@find src -name '*.so' -print -delete | sed 's/^/removed stale compiled module /'

$(COMPILED_STAMP): $(STAMP)
	rm -rf $(BUILD)/copy $(BUILD)/wheel $(COMPILED_SITE)
	mkdir -p $(BUILD)/copy $(BUILD)/wheel
	cp -r pyproject.toml README.md hatch_build.py src $(BUILD)/copy/
	mkdir -p $(BUILD)/copy/docs && cp -r docs/rules $(BUILD)/copy/docs/  # shipped in the wheel
	find $(BUILD)/copy -name '__pycache__' -prune -exec rm -rf {} +
	find $(BUILD)/copy -name '*.so' -delete
	cd $(BUILD)/copy && $(abspath $(BIN))/python -m pip wheel \
		--quiet --no-deps --wheel-dir ../wheel .
	$(BIN)/python -m pip install --quiet --no-deps --target $(COMPILED_SITE) $(BUILD)/wheel/*.whl
	rm -rf $(BUILD)/copy
	@touch $@

compiled: install $(COMPILED_STAMP)
	@echo "compiled build in $(COMPILED_SITE): run with PYTHONPATH=$(COMPILED_SITE)"

system-deps:
	@# only the packages whose command is missing: a machine whose Node.js comes from elsewhere
	@# (npm bundled) must not be asked for Debian's npm, which conflicts with it
	@pkgs=""; \
	[ -x $(CHROMIUM) ] || pkgs="$$pkgs chromium fonts-dejavu-core"; \
	command -v caddy >/dev/null || pkgs="$$pkgs caddy"; \
	command -v npm >/dev/null || pkgs="$$pkgs nodejs npm"; \
	if [ -n "$$pkgs" ]; then \
		echo "installing Debian packages for the browser, deployment and script-lint checks:$$pkgs"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$pkgs; \
	fi

run: $(RUN_STAMP)
	$(BIN)/koth serve

lint: install system-deps
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	scripts/lint-js

typecheck: install
	$(BIN)/mypy --strict src

pytest: install system-deps
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider --durations=30

test-compiled: compiled system-deps
	PYTHONPATH=$(COMPILED_SITE) KOTH_EXPECT_COMPILED=1 \
		$(BIN)/python -m pytest -n 2 -p no:cacheprovider $(COMPILED_TESTS)

test: lint typecheck pytest test-compiled

clean:
	rm -rf $(VENV) $(BUILD)

# The translation catalogs (docs/translating.md): every marked text of src/koth into
# messages.pot, then into each language's messages.po (new texts come in untranslated;
# the catalog test fails until they are translated). The .po files are compiled in
# memory when the app starts: there is no .mo file to build.
LOCALE := src/koth/locale
PYBABEL_EXTRACT := extract -F $(LOCALE)/babel.cfg -k N_ -k N_plural:1,2 -k plural:1,2 --no-location \
	--omit-header --sort-output --no-wrap --project=koth
messages: $(RUN_STAMP)
	$(BIN)/pybabel $(PYBABEL_EXTRACT) -o $(LOCALE)/messages.pot src/koth
	$(BIN)/pybabel update -i $(LOCALE)/messages.pot -d $(LOCALE) --no-wrap \
		--ignore-obsolete --no-fuzzy-matching
