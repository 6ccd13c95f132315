# Two set-up commands for a fresh machine (see README):
#   make run   installs what is missing and starts the main job
#   make test  installs what is missing and runs every check CI runs
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck pytest install clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/koth play cards --vs random

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy --strict src

pytest: install
	$(BIN)/python -m pytest -n auto -p no:cacheprovider

test: lint typecheck pytest

clean:
	rm -rf $(VENV)
