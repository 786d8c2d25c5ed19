"""The linear shortcut: copies of X through a linear model without
predicting them.

A linear model's decision function is ``d(x) = x · W + b`` (``W`` of shape
(n_columns, n_outputs)). A copy of X whose columns ``g`` take row ``π(i)``'s
values in row ``i`` has ``d_i = d(x_i) - x_ig · W_g + x_π(i)g · W_g``: X's own
decisions less the columns' contribution, plus the contribution of the rows
they come from. So a copy costs a gather of one precomputed contribution per
row, not a product over every column; partial dependence's copies (a donor
row's values for every row) cost an addition. Behind a column-wise pipeline
(``_core.pipeline.columnwise_view``) X is the transformed matrix, whatever the
transforms (scaling, one-hot encoding, imputing).

The model's own steps after its decision function (a GLM's inverse link,
predict_proba's expit or softmax, predict's threshold or argmax with its
ties) are the model's own methods, run on a shallow copy of the model whose
decision function returns the decisions computed here (see
:func:`replayed`). Only the decisions' last bits differ from the model's:
the sums run in another order (BLAS on X · W).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy import sparse
from sklearn.linear_model import (
    ElasticNet,
    GammaRegressor,
    Lasso,
    LinearRegression,
    LogisticRegression,
    PoissonRegressor,
    Ridge,
    SGDClassifier,
    SGDRegressor,
    TweedieRegressor,
)
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC, LinearSVR
from sklearn.utils import check_array

from ..._core.compat import _openmp_effective_n_threads
from ..._core.pipeline import columnwise_view
from ..kernels import load, loaded

# Exact types only: a subclass may predict otherwise.
_CLASSIFIERS = (LogisticRegression, SGDClassifier, LinearSVC)
# Whose predict is their decision function as it is: no link, no threshold.
_PREDICT_IS_DECISION = (
    LinearRegression,
    Ridge,
    Lasso,
    ElasticNet,
    SGDRegressor,
    LinearSVR,
)
_SUPPORTED = (
    *_PREDICT_IS_DECISION,
    PoissonRegressor,
    GammaRegressor,
    TweedieRegressor,
    *_CLASSIFIERS,
)
# What each kind's prediction methods call for X · W + b (private methods of
# scikit-learn's linear models, read here, beside the code that replays
# them): a copy of the model answering them with our decisions runs the
# model's own code for everything after.
_DECISION_HOOKS = ("decision_function", "_decision_function", "_linear_predictor")
_METHODS = {"predict", "predict_proba", "predict_log_proba", "decision_function"}
# Column groups' contributions a LinearModel keeps (each X's rows by
# outputs): a run's first round visits every feature before the next rounds
# come back to each (the jobs' order), so every group's is kept within
# _KEPT_BYTES, and at least _KEPT_GROUPS (the chunks in flight).
_KEPT_GROUPS = 4
_KEPT_BYTES = 2**26
# The rows of copies from which summing their errors pays for loading numba
# in a new process (below it, predicting them costs less than loading: timed
# in benchmarks/results/linear.md).
_SUMMED_FROM = 2**24


def linear_sums():
    """The compiled sums (``sums``), loaded on first use (``kernels.load``)."""
    return load("linear.sums")


def sums_loaded():
    """Whether :func:`linear_sums` is loaded in this process, its sums
    compiled (or read from numba's cache) for some arrays."""
    module = loaded("linear.sums")
    return bool(getattr(getattr(module, "error_sum", None), "signatures", None))


def unsupported_linear(model, methods):
    """Why the linear shortcut cannot predict `model` (None if it can)."""
    kind = type(model)
    if kind not in _SUPPORTED:
        names = ", ".join(k.__name__ for k in _SUPPORTED)
        return (
            f"{kind.__name__} is not one of the linear models it reproduces ({names})"
        )
    coef = getattr(model, "coef_", None)
    if coef is None or sparse.issparse(coef):
        return "its coef_ is sparse (sparsify()) or missing"
    if set(vars(model)) & (_METHODS | set(_DECISION_HOOKS)):
        return "a prediction method is replaced on the model itself"
    needed = {m for m in methods if m not in _METHODS or not hasattr(model, m)}
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    return None


class LinearModel:
    """A fitted linear model as its weights, answering the prediction
    methods of copies of one X (see the module doc).

    The protocol of the tree shortcut's ``TreeModel``: :meth:`predict` of
    copies ``(rows, columns)`` stacked in order, with or without a donor.
    """

    path = "linear"  # what results report as their path (computed_by)

    def __init__(self, model, X):
        self.model = model
        coef = np.asarray(model.coef_)
        # (n_columns, n_outputs), as the model multiplies X by it.
        self.weights = coef.reshape(1, -1).T if coef.ndim == 1 else coef.T
        self.intercept = np.asarray(model.intercept_)
        self.n_outputs = self.weights.shape[1]
        # A classifier's decision function ravels one column; a regressor's
        # output has the shape of its coef_ (1-D, or a column per target).
        self.ravel = coef.ndim == 1 or (
            type(model) in _CLASSIFIERS and coef.shape[0] == 1
        )
        self.X = X
        self.base = self._dot(X, slice(None)) + self.intercept
        # The last few column groups' contributions: a run's chunks take a
        # feature's repeats one after another (the tree walk's job order).
        self._parts = {}
        self._columns = None  # every column's contribution (_column_parts)
        self._lock = threading.Lock()

    def __getstate__(self):
        # Shipped to a remote backend's workers: without its lock and cache.
        state = dict(self.__dict__, _parts={}, _columns=None)
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @classmethod
    def of(cls, model, X):
        """`model` on `X` as the model reads it, or None where X is not a
        finite float matrix (the model's own checks then speak)."""
        rows = as_model_input(X, ensure_all_finite=False)
        if rows is None:
            return None
        linear = cls(model, rows)
        # X's NaN and infinities reach its decisions (0 * inf is NaN; no
        # product skips a zero weight): one pass over X less than checking X.
        return linear if np.isfinite(linear.base).all() else None

    def predicts_walk_rows(self):
        return False

    def predict_threads(self, n_workers=1):
        """Threads for :meth:`error_sums` while `n_workers` chunks run at
        once: as many as scikit-learn's compiled code takes (the model's
        own predict runs on BLAS's threads), shared among the workers, at
        least one each. :meth:`predict` takes one: its copies are gathers,
        and numpy's products take BLAS's own threads."""
        return max(1, _openmp_effective_n_threads() // n_workers)

    def bytes_per_copy(self, n_rows, n_columns=1):
        """A copy's decisions, and the contributions it gathers from."""
        return 16 * n_rows * self.n_outputs

    def _dot(self, X, columns):
        """``X[:, columns] · W[columns]``, dense, shape (n_rows, n_outputs)."""
        if (
            isinstance(X, np.ndarray)
            and isinstance(columns, list)
            and len(columns) == 1
        ):
            # One column: a product by its weights, no copy of the column.
            return X[:, columns[0], None] * self.weights[columns[0]]
        part = X[:, columns]
        if isinstance(part, np.ndarray):
            # numpy's own loops, not BLAS: OpenBLAS's threads spin for a while
            # after each call, on the cores that the run's own threads (the
            # one-pass grid's row blocks, a run's chunks) then compute on
            # (benchmarks/results/linear.md). A few ms at 100,000 x 50.
            return np.einsum("ij,jk->ik", part, self.weights[columns])
        product = part @ self.weights[columns]
        return np.asarray(product.todense() if sparse.issparse(product) else product)

    def decisions(self, copies, donor=None):
        """The decision function of the copies of X, stacked: shape
        (n_copies * n_rows, n_outputs)."""
        n_rows = self.X.shape[0]
        out = np.empty((len(copies), n_rows, self.n_outputs), self.base.dtype)
        for columns in dict.fromkeys(tuple(c) for _, c in copies):
            blocks = [b for b, (_, c) in enumerate(copies) if tuple(c) == columns]
            own, rest = self._parts_of(columns)
            if donor is None:
                # One output: 1-D gathers, faster than a column's.
                own, rest, into = (
                    (own[:, 0], rest[:, 0], out[..., 0])
                    if self.n_outputs == 1
                    else (own, rest, out)
                )
                for b in blocks:
                    np.add(rest, own[copies[b][0]], out=into[b])
            else:
                rows = [copies[b][0] for b in blocks]
                given = self._dot(donor[rows], list(columns))[:, None]
                if len(blocks) == len(copies):  # one group: no gathered copy
                    np.add(rest[None], given, out=out)
                else:
                    out[blocks] = rest[None] + given
        return out.reshape(-1, self.n_outputs)

    def _parts_of(self, columns):
        """X's contribution of `columns` and the rest of its decisions."""
        own = self._own(columns)
        return own, self.base - own

    def _own(self, columns):
        """X's contribution of `columns` (a tuple), kept for the next copies."""
        with self._lock:
            own = self._parts.get(columns)
        if own is None:
            own = self._dot(self.X, list(columns))
            kept = max(_KEPT_GROUPS, _KEPT_BYTES // max(own.nbytes, 1))
            with self._lock:
                self._parts[columns] = own
                while len(self._parts) > kept:
                    del self._parts[next(iter(self._parts))]
        return own

    def _column_parts(self):
        """Every column's contribution to the decisions of a one-output
        model, shape (n_columns, n_rows), made once in one pass over X (a
        column of a C-ordered X reads all of it: benchmarks/results/linear.md
        times both); None where they would take more than _KEPT_BYTES."""
        with self._lock:
            if self._columns is None and self.X.nbytes <= _KEPT_BYTES:
                columns = np.empty(self.X.shape[::-1])
                linear_sums().contributions(self.X, self.weights[:, 0], columns)
                self._columns = columns
            return self._columns

    def sums_errors(self, n_copies):
        """Whether :meth:`error_sums` applies, and pays, for `n_copies`
        copies of X: a regressor whose prediction is its decision function,
        with one output, on a dense X; on fewer than _SUMMED_FROM rows of
        copies only where the sums are loaded already (numba loads with
        them); and where the sums can
        follow numpy's order (``sums.numpys_block``)."""
        return (
            type(self.model) in _PREDICT_IS_DECISION
            and self.ravel
            and isinstance(self.X, np.ndarray)
            and (self.X.shape[0] * n_copies >= _SUMMED_FROM or sums_loaded())
            and linear_sums().numpys_block() is not None
        )

    def error_sums(self, X, copies, y, weight, n_threads=1):
        """Each copy's ``sum(weight * (y - prediction) ** 2)`` (no weight if
        None), where copies are as :meth:`predict` takes them, each of one
        column, for a model that :meth:`sums_errors`: the same bits as
        ``vectorized_metrics.squared_error_sums`` of :meth:`predict`'s
        output, without the copies' predictions (``sums``). `y` and
        `weight` are float64; `n_threads` take shares of the copies (the
        sums release the GIL)."""
        model = self if X is self.X else LinearModel(self.model, X)
        sums_module = linear_sums()
        error_sum, block = sums_module.error_sum, sums_module.numpys_block()
        base = model.base[:, 0]
        every = model._column_parts()
        owns = {
            column: model._own((column,))[:, 0] if every is None else every[column]
            for column in {columns[0] for _, columns in copies}
        }
        sums = np.empty(len(copies))

        def share(low, high):
            for c in range(low, high):
                rows, columns = copies[c]
                sums[c] = error_sum(y, base, owns[columns[0]], weight, rows, block)

        n_shares = max(1, min(n_threads, len(copies)))
        bounds = np.linspace(0, len(copies), n_shares + 1).astype(int)
        if n_shares == 1:
            share(0, len(copies))
        else:
            with ThreadPoolExecutor(n_shares) as pool:
                list(pool.map(share, bounds[:-1], bounds[1:]))
        return sums

    def grid_parts(self, columns, donor):
        """For partial dependence: X's decisions less the contribution of
        `columns` (n_rows, n_outputs), and each `donor` row's contribution
        (n_donors, n_outputs). A row's decisions at a grid point are their
        sum."""
        rest = self._parts_of(tuple(columns))[1]
        return rest, self._dot(donor, list(columns))

    def returns_decisions(self, method):
        """Whether the model's `method` returns its decisions as they are,
        so that averages of its values are averages of the decisions."""
        return method == "decision_function" or (
            method == "predict" and type(self.model) in _PREDICT_IS_DECISION
        )

    def respond(self, method, decisions):
        """The model's `method` on rows whose decisions are `decisions`
        (n_rows, n_outputs), which it may overwrite."""
        return replayed(
            self.model, method, decisions.reshape(-1) if self.ravel else decisions
        )

    def predict(self, X, copies, methods, donor=None, n_threads=1, block_bytes=None):
        """The model's `methods` on copies of X stacked in order, as
        ``TreeModel.predict`` gives them: in copy ``(rows, columns)`` row
        ``i`` takes `columns` from row ``rows[i]`` of X, or from donor row
        `rows` for every row. `X` is the matrix this model was made for
        (or rows ``low:high`` of it, recomputed)."""
        model = self if X is self.X else LinearModel(self.model, X)
        d = model.decisions(copies, donor)
        # The model's methods may write into the decisions (predict_proba's
        # expit does): each but the last gets a copy.
        last = len(methods) - 1
        return {
            method: self.respond(method, d if i == last else d.copy())
            for i, method in enumerate(methods)
        }


def as_model_input(X, ensure_all_finite=True):
    """`X` as scikit-learn's linear models validate it (float64, or float32
    kept; CSR kept), or None where they would refuse it (NaN, strings;
    non-finite values only if `ensure_all_finite`)."""
    try:
        return check_array(
            X,
            accept_sparse="csr",
            dtype=(np.float64, np.float32),
            ensure_all_finite=ensure_all_finite,
        )
    except (ValueError, TypeError):
        return None


def replayed(model, method, decisions):
    """``model.method`` on rows whose decision function is `decisions`:
    the model's own code, on a shallow copy of it whose decision function
    (whichever private name its methods call) returns them. The method may
    write into `decisions` (each method calls its hook once)."""
    stand_in = object.__new__(type(model))
    stand_in.__dict__.update(model.__dict__)
    for hook in _DECISION_HOOKS:
        setattr(stand_in, hook, lambda X, d=decisions: d)
    return getattr(stand_in, method)(decisions)


def take(model, X, methods, donor=None):
    """``(LinearModel, X, donor)`` as the model reads them where the linear
    shortcut applies to `model` on `X` (and `donor`), else why not (a
    str)."""
    reason = unsupported_linear(model, methods)
    if reason is not None:
        return reason
    linear = LinearModel.of(model, X)
    donor_in = None if donor is None else as_model_input(donor)
    # float64 only: on float32 the model sums in float32, whose rounding
    # the shortcut's other order would not reproduce to 1e-12 (and a grid
    # value float32 cannot hold makes pandas upcast the copies).
    if (
        linear is not None
        and linear.X.dtype == np.float64
        and (donor is None or (donor_in is not None and donor_in.dtype == np.float64))
    ):
        return linear, linear.X, donor_in
    return "the data reaching the model is not a finite float64 matrix"


def check(estimator, X, methods):
    """Why the linear shortcut cannot take `estimator` (a column-wise
    pipeline's final step, if so) whatever X's values, or None: for
    ``algorithm="linear"``, before any work."""
    view = columnwise_view(estimator, X.shape[1])
    if view is None and isinstance(estimator, Pipeline):
        return (
            "the pipeline's steps before its model are not all column-wise "
            "(scalers, SimpleImputer, OneHotEncoder, OrdinalEncoder, "
            "passthrough, and ColumnTransformers or pipelines of these)"
        )
    return unsupported_linear(estimator if view is None else view.model, methods)
