# Two set-up commands for a fresh machine (see README):
#   make run   installs what is missing and starts the main job
#   make test  installs what is missing and runs every check CI runs
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)
# Debian packages the browser tests need; installed only when missing.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint typecheck pytest install system-deps clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

system-deps:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-dejavu-core; \
	fi

run: install
	$(BIN)/koth serve

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy --strict src

pytest: install system-deps
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

test: lint typecheck pytest

clean:
	rm -rf $(VENV)
