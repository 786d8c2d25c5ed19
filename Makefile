# Developer entry points. `make demo` and `make test` are all a fresh clone needs
# (see README.md). Nothing here activates the venv: tools run as $(VENV)/bin/...

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# uv installs (the venvs below, from PyPI's wheels): about 15 s for the dev
# environment where pip takes two minutes, and the same again for the wheel
# and oldest-version venvs. pip installs uv itself, into the project's venv.
UV := $(VENV)/bin/uv
UV_REQUIREMENT := uv>=0.13,<0.14
# uv leaves bytecode to the first import, and where PYTHONDONTWRITEBYTECODE is
# set (as on the CI machine) nothing writes it: every process (kernels, pytest
# and dask workers) compiled each module it imported, the largest part of a
# kernel's start. Here the first import writes it (__pycache__ is git-ignored),
# cheaper than uv's --compile-bytecode, which compiles every installed module.
# Measured in docs/development.md.
unexport PYTHONDONTWRITEBYTECODE
# Re-run the editable install when the project's metadata or the JS build inputs change.
STAMP := $(VENV)/.install.stamp
JS_STAMP := js/node_modules/.package-lock.json
PYTEST_ARGS ?=

# JupyterLab refuses to run as root unless told to (CI runs as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: venv demo lint format test test-fast test-js test-py test-notebooks \
	test-docs-site test-wheel test-oldest bench js clean docs doctest checks

venv: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(UV): | $(PY)
	$(PY) -m pip install --quiet "$(UV_REQUIREMENT)"

$(STAMP): pyproject.toml js/package.json js/package-lock.json | $(UV)
	# Editable install; its build hook also runs `npm install` and
	# `npm run build` in js/, producing src/inspectwidgets/static/.
	$(UV) pip install --python $(PY) -e ".[dev]"
	touch $@

# The server is rooted at notebooks/; default_url makes the printed URL open the
# notebook itself.
demo: venv
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --no-browser $(ALLOW_ROOT) \
		--LabApp.default_url=/lab/tree/quickstart.ipynb notebooks/quickstart.ipynb

# ruff and mypy on the Python (mypy on src/inspectwidgets, configured in
# pyproject.toml [tool.mypy]; tests/test_typing.py checks the public API is
# fully annotated); on the JS (js/src), tsc against the JSDoc types
# (js/tsconfig.json) and eslint (js/eslint.config.js).
lint: venv $(JS_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	cd js && npm run --silent typecheck
	cd js && npm run --silent lint

# Not part of `test`: rewrites files.
format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

$(JS_STAMP): js/package.json js/package-lock.json
	cd js && npm ci

test-js: $(JS_STAMP)
	cd js && npm test

# Rebuild the bundle by hand after editing js/ (or run `npm run dev` in js/).
js: $(JS_STAMP)
	cd js && npm run build

# The documentation site (docs/conf.py) in build/docs/html, from scratch:
# every page, the API reference generated from the docstrings, and the
# gallery's notebooks executed. A warning fails it (-W; --keep-going lists
# them all), and so does a broken internal link or anchor (docs/check_links.py:
# Sphinx's linkcheck needs the network). tests/browser/test_docs_site.py opens it.
DOCS_HTML := build/docs/html
docs: venv
	rm -rf $(DOCS_HTML) build/docs/doctrees docs/api/generated
	$(PY) -m sphinx -b html -W --keep-going -q -d build/docs/doctrees docs $(DOCS_HTML)
	$(PY) docs/check_links.py $(DOCS_HTML)
	@echo "open $(DOCS_HTML)/index.html"

# Tests spread over the cores (pytest-xdist). The full run hands out a test
# file per worker at a time, so a file's fixtures (a JupyterLab server, a
# fitted model) are made once; the inner loop has no costly fixture and hands
# out tests one by one, which balances better.
XDIST := -n auto --dist loadfile
XDIST_FAST := -n auto
# One native thread per test process: xdist already gives every core a worker,
# and OpenMP's threads in each (histogram boosting, BLAS) would spin against
# the other worker's for the same cores. It cut test-fast's CPU time by a
# quarter (docs/development.md). `make demo` keeps every thread.
TEST_TARGETS := test test-fast test-py test-notebooks test-docs-site test-wheel \
	test-oldest checks doctest
$(TEST_TARGETS): export OMP_NUM_THREADS := 1

# The inner loop: every pytest test but the `slow` groups (browser, notebooks,
# scale, drop-in; marked by folder in tests/conftest.py), then vitest (the JS
# half of every payload: a change on one side shows here, not only in the
# slow browser tests). Not part of `test`, which runs them all.
test-fast: venv $(JS_STAMP)
	$(PY) -m pytest -q -p no:cacheprovider $(XDIST_FAST) -m "not slow" $(PYTEST_ARGS)
	cd js && npm test --silent

# The Examples sections of the public docstrings, run as doctests.
doctest: venv
	$(PY) -m pytest -q -p no:cacheprovider $(XDIST_FAST) --doctest-modules src/inspectwidgets

# pytest exits 5 when it collects no test; that fails here like any other
# non-zero exit, with a hint. The 25 slowest tests are listed: where to look
# when `make test` grows.
test-py: venv
	$(if $(INSPECTWIDGETS_EXECUTED_NOTEBOOKS),rm -rf $(INSPECTWIDGETS_EXECUTED_NOTEBOOKS))
	$(PY) -m pytest $(XDIST) --durations=25 $(PYTEST_ARGS) || { rc=$$?; \
		if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; fi; \
		exit $$rc; }

# The package as a user gets it: the sdist and a wheel built from it (as pip
# does), both checked as PyPI will render them, then the sdist installed in a
# clean venv with no Node (as pip installs it where no wheel fits), and the
# tests of what packaging can break run against it (not against src/, which is
# not on that venv's path): every module and bundle shipped and loading
# (tests/test_packaging.py), the numba kernels compiling from site-packages
# and compiled again when what they compile in changes (test_kernel_cache.py), a
# widget's thread, and the `dask` extra (one forest's importances on a
# cluster, whose workers load the kernels from site-packages too). The numbers
# are the source's, tested by test-py.
WHEEL_VENV := build/wheel-venv
# An empty directory as the whole PATH: Node is in /usr/bin here, beside
# everything else, so leaving directories out of PATH would not hide it. The
# install needs nothing from PATH (uv and the venv's python are named by path).
NO_NODE_PATH := $(CURDIR)/build/no-node-path
test-wheel: venv
	rm -rf dist $(WHEEL_VENV) $(NO_NODE_PATH)
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*
	$(PYTHON) -m venv $(WHEEL_VENV)
	mkdir -p $(NO_NODE_PATH)
	# Proof that the install below cannot find Node or npm.
	env PATH=$(NO_NODE_PATH) $(WHEEL_VENV)/bin/python -c "import shutil; \
		found = [t for t in ('node', 'npm') if shutil.which(t)]; assert not found, found"
	# The sdist's build must use the bundle it carries: npm would fail here.
	# --refresh-package: build it again, never a wheel uv cached from an
	# earlier sdist. With the `dask` extra a user installs for clusters.
	env PATH=$(NO_NODE_PATH) $(UV) pip install --quiet \
		--refresh-package inspectwidgets --python $(WHEEL_VENV)/bin/python \
		"$$(ls dist/inspectwidgets-*.tar.gz)[dask]" pytest pytest-xdist
	$(WHEEL_VENV)/bin/python -c "import inspectwidgets as m; \
		assert '/site-packages/' in m.__file__, m.__file__; print('testing', m.__file__)"
	$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider $(XDIST) tests/test_packaging.py \
		tests/engine/shortcuts/test_tree_shortcut.py tests/engine/shortcuts/test_kernel_cache.py \
		tests/widgets/test_permutation_widget.py \
		tests/engine/scale/test_dask_backend.py::test_permutation_importance_forest_exact

# The oldest versions pyproject.toml accepts, installed in their own venv, and
# the engine's tests and scikit-learn's own inspection tests (tests/dropin)
# run against them: the declared range is the tested one. Keep these pins
# equal to the lower bounds in pyproject.toml. Left out: widgets computing on a
# cluster (test_widgets_on_dask.py), widget tests in the scale folder; the
# engine's dask backend is tested by test_dask_backend.py.
#
# The same run is the rerun under another OpenBLAS CPU kernel than this
# machine's (test-py ran on this one): where BLAS predicts, the last bits
# depend on the kernel, and the comparisons must hold on every one. Those are
# the test files that compare through tests/numerics.py, the one place that
# says where BLAS is on the path (the engine's, and BLAS_TESTS outside it); the
# others compare trees and our own reductions, which no BLAS kernel computes.
# Prescott (SSE3) runs on every x86-64 CPU. One run for both, not a third
# run of those files on the newest versions. The venv is kept in build/.
BLAS_KERNEL ?= Prescott
BLAS_TESTS = $(shell grep -rl --include='test_*.py' "from numerics import" tests/common tests/widgets tests/plotting)
OLDEST_VENV := build/oldest-venv
OLDEST_PINS := scikit-learn==1.6.1 numpy==2.0.2 scipy==1.15.3 pandas==2.2.3 \
	joblib==1.4.0 threadpoolctl==3.5.0 "dask[distributed]==2025.1.0"
test-oldest: venv
	test -x $(OLDEST_VENV)/bin/python || $(PYTHON) -m venv $(OLDEST_VENV)
	# The pins beside the package: uv resolves the rest (numba, matplotlib,
	# the widget libraries) to versions that go with them. The JS bundle is
	# already built by `venv`.
	# effector: the published ALE tests/engine/effects compares with; fippy:
	# the conditional importance tests/engine/permutation compares with;
	# lightgbm, xgboost-cpu and catboost: the tree walk's tests of their
	# models (tests/engine/shortcuts) run on the oldest scikit-learn too.
	$(UV) pip install --quiet --python $(OLDEST_VENV)/bin/python -e . $(OLDEST_PINS) \
		pytest pytest-xdist effector fippy "lightgbm>=4.6" "xgboost-cpu>=3.0" \
		"catboost>=1.2.8"
	$(UV) pip check --python $(OLDEST_VENV)/bin/python
	OPENBLAS_CORETYPE=$(BLAS_KERNEL) $(OLDEST_VENV)/bin/python -c "import sklearn, numpy, \
		scipy, pandas, threadpoolctl; \
		print('oldest:', *(f'{m.__name__} {m.__version__}' for m in \
		(sklearn, numpy, scipy, pandas))); \
		print('OpenBLAS kernels:', sorted({i.get('architecture') for i in \
		threadpoolctl.threadpool_info() if i['internal_api'] == 'openblas'}))"
	OPENBLAS_CORETYPE=$(BLAS_KERNEL) $(OLDEST_VENV)/bin/python -m pytest -q -p no:cacheprovider \
		$(XDIST) tests/engine tests/dropin $(BLAS_TESTS) \
		--ignore=tests/engine/scale/test_widgets_on_dask.py

# The notebooks alone (`make test` runs them within test-py). With
# EXECUTED_NOTEBOOKS set, each notebook's executed copy (outputs and widget
# state) is written there, where `docs` takes it instead of executing the
# notebook again (docs/conf.py), while their cells match.
EXECUTED_NOTEBOOKS := $(CURDIR)/build/executed-notebooks
test-notebooks: venv
	rm -rf $(EXECUTED_NOTEBOOKS)
	INSPECTWIDGETS_EXECUTED_NOTEBOOKS=$(EXECUTED_NOTEBOOKS) \
		$(PY) -m pytest -q -p no:cacheprovider $(XDIST_FAST) -m notebook tests/test_notebooks.py

# The browser test of the built documentation site (after `docs`).
DOCS_SITE_TESTS := tests/browser/test_docs_site.py
test-docs-site: venv
	$(PY) -m pytest -q -p no:cacheprovider $(XDIST_FAST) $(DOCS_SITE_TESTS)

# Lint, vitest and the doctests side by side: lint is mostly one process at a
# time, vitest a short burst, and the doctests wait in one worker while numba
# compiles the kernels for the first time; one after the other, each left a
# core idle. Their outputs are printed whole, each when it ends.
checks: venv $(JS_STAMP)
	$(MAKE) --no-print-directory -j3 --output-sync=target lint test-js doctest

# The full check. Each suite runs once, in this order: lint, vitest and the
# doctests (`checks`); every pytest test but the site's, the notebooks among
# them, in one pool on both cores (as a phase of their own, the notebooks left
# a core idle while the last one ran); the documentation, which shows the
# notebooks' executed copies that run wrote; the site's browser test; the two
# reruns, which keep only what their environment can break (see each target).
test: export INSPECTWIDGETS_EXECUTED_NOTEBOOKS = $(EXECUTED_NOTEBOOKS)
test: PYTEST_ARGS += --deselect $(DOCS_SITE_TESTS)
test: checks test-py docs test-docs-site test-wheel test-oldest

# Every benchmark, quick: speed ratios against scikit-learn (never asserted)
# and our results checked against scikit-learn's (a difference fails).
bench: venv
	$(PY) benchmarks/permutation.py --quick
	$(PY) benchmarks/partial_dependence.py --quick
	$(PY) benchmarks/trees.py --quick
	$(PY) benchmarks/widget.py --quick
	$(PY) benchmarks/scale.py --quick

# numba's on-disk cache of the shortcuts' kernels, in the __pycache__ beside
# each kernel's file (inspection/_shortcuts/kernels.py).
clean:
	rm -rf src/inspectwidgets/static build dist .pytest_cache .ruff_cache tests/output
	find src -path '*/__pycache__/*' \( -name '*.nbi' -o -name '*.nbc' \) -delete
