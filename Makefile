# Two commands on a fresh machine (only python3 and make needed):
#   make demo   runs the application on the embedded SQLite database
#   make test   lint, type checks, the whole test suite and the doctests of src/, with coverage
# Both bootstrap .venv from requirements.lock first.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Extra arguments for pytest, e.g. `make test PYTEST_ARGS="tests/web -x"` or `PYTEST_ARGS="-n 2"`.
PYTEST_ARGS ?=
# Test processes (pytest-xdist): the suite runs on both cores of the CI machine. `worksteal`: an
# idle worker takes half of another's queue; tests/conftest.py orders the tests for it.
PYTEST_WORKERS ?= 2
XDIST := -n $(PYTEST_WORKERS) --dist worksteal

.PHONY: demo test test-fast test-db lint typecheck pytest bench clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

demo: $(STAMP)
	$(BIN)/python -m bridgeko.demo

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Every test and the doctests of src/, slow ones included; prints the line coverage of src/.
pytest: $(STAMP)
	$(BIN)/pytest $(XDIST) --cov --cov-report=term:skip-covered $(PYTEST_ARGS)

# While developing: the same without the slow tests (the demo, the showcase), the browser tests
# and coverage; no lint or type checks.
test-fast: $(STAMP)
	$(BIN)/pytest $(XDIST) -m "not slow and not e2e" $(PYTEST_ARGS)

# The tests that use the database (marked `database` by tests/conftest.py), without coverage
# and without the browser tests' screenshots (`make test` takes them): `.ci/run` runs them
# again on PostgreSQL (DATABASE_URL=postgres://... make test-db).
test-db: $(STAMP)
	BRIDGEKO_NO_SCREENSHOTS=1 $(BIN)/pytest $(XDIST) -m database $(PYTEST_ARGS)

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .coverage .coverage.*
