"""Tree models flattened into the node arrays the walks read.

Permutation importance and partial dependence predict copies of X in which a
few columns (a feature, a group, a one-hot block) take other values. For
scikit-learn's tree models, ``routing`` walks each row through each tree
once with all of the row's copies, and ``replay`` turns the leaf values
into what the model's own ``predict``, ``predict_proba``, ``predict_log_proba``
or ``decision_function`` returns on the stacked copies, bit for bit: the same
input dtype, comparisons, leaf values, summation order, start and link. This
module gathers a model's trees for them (:class:`TreeModel`).

Used for DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*,
GradientBoosting* (initial model "zero" or a constant dummy) and
HistGradientBoosting* (numeric and categorical splits, missing values) of
scikit-learn (``kinds`` says which exactly), and for LightGBM's
LGBMClassifier and LGBMRegressor, read from its model text: their
:class:`TreeModel` holds a ``flavour`` (``lightgbm.LightGBMTrees``) that
makes LightGBM's input and responses. A forest with ``n_jobs`` > 1
adds its trees in whatever order its threads finish; we add them in order, as
it does with one job.
"""

import functools

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import check_array

from ..._core.compat import _openmp_effective_n_threads
from . import replay
from .kinds import (
    CLASSIFIERS,
    FORESTS,
    GRADIENT_BOOSTING,
    HIST_GRADIENT_BOOSTING,
    other_library,
    unsupported,
)
from .lightgbm import LightGBMTrees, is_lightgbm
from .nodes import (
    CATEGORICAL,
    FEATURE,
    FEATURE_MASK,
    FLAGS_SHIFT,
    LEFT,
    TREE_BLOCK_BYTES,
    WalkTrees,
    _Nodes,
)


class TreeModel:
    """A fitted tree model flattened for the walks of ``routing``.

    Build with :meth:`of`, which returns None for a model or input the
    shortcut does not reproduce exactly.
    """

    path = "tree"  # what results report as their path (computed_by)
    # Why X is left to the model where as_model_input gives None.
    unreadable = "X holds NaN or infinity"

    def __init__(self, model, nodes, n_outputs, *, dtype, start, finite):
        self.model = model
        self.classifier = type(model) in CLASSIFIERS
        self.forest = type(model) in FORESTS
        self.dtype, self.start, self.finite = dtype, start, finite
        self.n_outputs = n_outputs
        blocks = nodes.blocks
        self.n_trees = len(blocks)
        self.roots = np.array([b[0] for b in blocks], dtype=np.int64)
        self.outputs = np.array([b[3] for b in blocks], dtype=np.int64)
        self.nodes = np.concatenate([b[1] for b in blocks])
        self.leaf_value = np.ascontiguousarray(np.concatenate([b[2] for b in blocks]))
        self.bitsets = (
            np.concatenate(nodes.bitsets).astype(np.uint32)
            if nodes.bitsets
            else np.zeros((0, 2, 8), dtype=np.uint32)
        )
        self.max_depth = nodes.max_depth
        # Raw column -> the column the trees read (histogram gradient
        # boosting's own encoder puts categorical columns first).
        self.column_of = None
        # Boosting's private parts the replay needs after the trees, read
        # here (see `of`): its loss's step from raw predictions to a
        # regressor's predict or a classifier's probabilities (None where the
        # trees' sums are those already), histogram boosting's encoder.
        self.link, self.preprocessor = None, None
        # Why the responses are not an affine function of the leaf sums,
        # where the model says so itself (XGBoost's, ``from_xgboost``; the
        # exact H² checks scikit-learn's kinds on its own): None otherwise.
        self.bent_link = None
        # Another library's steps before and after its trees (its input,
        # its responses: ``lightgbm.LightGBMTrees``); None for scikit-learn's
        # and XGBoost's (a subclass, ``from_xgboost.XGBoostTrees``).
        self.flavour = None

    @classmethod
    def of(cls, model, X, methods):
        """The flattened `model`, or None where the shortcut does not apply
        (:func:`unsupported` says why) or where the model's private
        attributes are not what the shortcut reads (a scikit-learn that moved
        or reshaped them): the generic path then predicts it."""
        reader = other_library(model)
        if reader is not None:  # XGBoost's, CatBoost's: their own subclass
            return reader.TREES.of(model, X, methods)
        if unsupported(model, X, methods) is not None:
            return None
        try:
            trees = _flattened(model)
        except _MOVED:
            return None
        width = trees.leaf_value.shape[1]
        if trees.start.shape != (1, int(trees.outputs.max()) + width):
            return None
        return trees

    def bytes_per_copy(self, n_rows, n_columns=1):
        """Memory one copy costs the shortcut: the values of its columns, its
        leaf sums (twice, while reordered copy-major), beside the responses
        the caller counts (:meth:`predict` with `block_bytes` holds them a
        block of rows at a time). Measured with tracemalloc, scoring
        included, per row and copy (benchmarks/trees.py's models, 10,000 rows, chunks of
        about 50 copies): 36 bytes for a forest's classes (counted here 36,
        by the caller 24), 48 for its probabilities, classes and log-loss
        (36 and 72), 24 for histogram boosting's (24 and 24)."""
        itemsize = np.dtype(self.dtype).itemsize
        return n_rows * (itemsize * n_columns + 16 * self.n_outputs)

    def as_model_input(self, X):
        """X as the trees read it (C order, as the walk reads rows), or None
        where the model's own checks must decide (the generic path): float32
        holding NaN or infinity for scikit-learn's trees, forests and
        gradient boosting; float64 after its own encoder for histogram
        gradient boosting, which routes missing values itself; as LightGBM's
        predict reads it for LightGBM's models (``lightgbm``)."""
        if self.flavour is not None:
            return self.flavour.as_model_input(X)
        if not self.finite:
            if self.preprocessor is not None:
                X = self.preprocessor.transform(X)
            return check_array(X, dtype=self.dtype, ensure_all_finite=False, order="C")
        X = check_array(X, dtype=self.dtype, ensure_all_finite=False, order="C")
        return X if np.isfinite(X).all() else None

    def predicts_walk_rows(self):
        """Whether the model's own predict, given rows as
        :meth:`as_model_input` makes them, predicts what it predicts for the
        rows they were made of: its own first step makes the same array
        (float32 for scikit-learn's trees, forests and gradient boosting;
        float64 for histogram gradient boosting without categorical
        features, whose encoder would otherwise come first), and it was not
        fitted on named columns (it would warn of an array without them).
        Not claimed for LightGBM's (category codes, zeros read as missing)."""
        if self.flavour is not None or hasattr(self.model, "feature_names_in_"):
            return False
        return self.finite or self.preprocessor is None

    def predict_threads(self, n_workers=1):
        """Threads for each walk while `n_workers` walks run at once: the
        threads the model's own predict would use (a forest's ``n_jobs``,
        histogram gradient boosting's OpenMP threads, one for a single tree or
        gradient boosting), shared among the workers, at least one each. So
        the walk is compared with scikit-learn on the cores the model itself
        takes, and a run's own ``n_jobs`` never oversubscribes them.
        LightGBM's predict takes its ``n_jobs``."""
        if self.flavour is not None:
            return self.flavour.predict_threads(n_workers)
        kind = type(self.model)
        if self.forest:
            own = min(effective_n_jobs(self.model.n_jobs), self.n_trees)
        elif kind in HIST_GRADIENT_BOOSTING:
            own = _openmp_effective_n_threads()
        else:
            own = 1
        return max(1, own // n_workers)

    def predict(self, X, copies, methods, donor=None, n_threads=1, block_bytes=None):
        """The model's `methods` on copies of `X` stacked in order, as
        ``method(batcher.build(copies, donor))`` returns them (see
        ``batching``): in copy ``(rows, columns)``, row ``i`` takes `columns`
        from row ``rows[i]`` of X, or, with a `donor`, from donor row `rows`
        for every row. X and `donor` come from :meth:`as_model_input`.
        `n_threads` walk disjoint ranges of rows (the walks release the GIL;
        each row's sums are the same whatever the ranges). With `block_bytes`,
        copies of X's own rows are walked and made responses a block of rows
        at a time, holding about that many bytes besides the responses
        (predictions are row by row: the same bits).
        """
        return replay.predict(self, X, copies, methods, donor, n_threads, block_bytes)

    def responses(self, raw, methods):
        """What each of `methods` returns, from the leaf sums `raw` of shape
        (n_rows, n_outputs), by the model's own steps after its trees."""
        return replay.leaf_responses(self, raw, methods)

    def _averaged(self, raw):
        """A forest's leaf sums divided by its trees, as its predict does."""
        if self.forest:
            raw /= self.n_trees
        return raw

    def _empty(self, n_rows, n_copies):
        """Leaf sums before the first tree, per row, output and copy (the
        copies side by side, as the walks add to them): what the model
        starts from."""
        shape = (n_rows, self.n_outputs, n_copies)
        return np.broadcast_to(self.start[:, :, None], shape).copy()

    @functools.cached_property
    def walk_trees(self):
        """The trees as the walks take them (``nodes.WalkTrees``)."""
        return WalkTrees(self.roots, self.outputs, self.nodes, self.bitsets,
                         self.leaf_value, self.max_depth)  # fmt: skip

    @functools.cached_property
    def _tree_blocks(self):
        """Bounds of runs of consecutive trees whose nodes and leaf values
        fit in TREE_BLOCK_BYTES (at least one tree each), for
        :func:`route_copies`."""
        ends = np.append(self.roots[1:], len(self.nodes))
        node_bytes = self.nodes.strides[0] + self.leaf_value.strides[0]
        bounds, size = [0], 0
        for t, tree_bytes in enumerate((ends - self.roots) * node_bytes):
            if size and size + tree_bytes > TREE_BLOCK_BYTES:
                bounds.append(t)
                size = 0
            size += tree_bytes
        return np.array([*bounds, self.n_trees], dtype=np.int64)

    def _is_grid(self, columns, values):
        """Whether :func:`route_grid` may walk the values `values` of
        `columns`: one column, increasing, none missing, never tested by a
        categorical split."""
        if len(columns) != 1 or np.isnan(values).any():
            return False
        return bool(
            np.all(values[1:, 0] >= values[:-1, 0])
            and columns[0] not in self._categorical_columns
        )

    @functools.cached_property
    def _categorical_columns(self):
        """The columns some categorical split tests."""
        test = self.nodes[self.nodes[:, LEFT] != -1, FEATURE]
        categorical = (test >> FLAGS_SHIFT) & CATEGORICAL != 0
        return set(np.unique(test[categorical] & FEATURE_MASK).tolist())


# What reading a private attribute that moved or changed shape raises (see
# compat.py's promise of plain prediction). Caught around the flattening
# alone, which reads them; a bug of ours there falls back too, but the tests
# ask for algorithm="tree", which then fails, so it cannot pass unseen.
_MOVED = (AttributeError, KeyError, TypeError, ValueError)


def _flattened(model):
    """`model` as a :class:`TreeModel` (a model the shortcut supports)."""
    if is_lightgbm(model):
        return _lightgbm(model)
    kind = type(model)
    if kind in HIST_GRADIENT_BOOSTING:
        return _hist_gradient_boosting(model)
    if kind in GRADIENT_BOOSTING:
        return _gradient_boosting(model)
    trees = model.estimators_ if kind in FORESTS else [model]
    nodes = _Nodes()
    for estimator in trees:
        tree = estimator.tree_
        if kind in CLASSIFIERS:
            # tree_.value holds class fractions: predict_proba's rows.
            value = tree.value[:, 0, : int(model.n_classes_)]
        else:
            value = tree.value[:, :, 0]
        nodes.add(tree.max_depth, tree.children_left, tree.children_right,
                  tree.feature, tree.threshold, tree.missing_go_to_left,
                  value)  # fmt: skip
    n_outputs = nodes.blocks[0][2].shape[1]
    # A forest's predict adds its trees into zeros; -0.0 is the exact
    # identity of addition, so a single tree's leaf value comes out as is.
    start = np.full((1, n_outputs), 0.0 if kind in FORESTS else -0.0)
    return TreeModel(model, nodes, n_outputs, dtype=np.float32, start=start,
                     finite=True)  # fmt: skip


def _gradient_boosting(model):
    """GradientBoosting*: stage by stage, tree k of a stage adding
    ``learning_rate * value`` to raw output k, from the initial model's raw
    prediction (one row: the constant initial models give every row the
    same)."""
    nodes = _Nodes()
    for stage in model.estimators_:
        for k, estimator in enumerate(stage):
            tree = estimator.tree_
            # predict_stages multiplies each leaf value in float64 as it adds.
            value = model.learning_rate * tree.value[:, 0, 0]
            nodes.add(tree.max_depth, tree.children_left, tree.children_right,
                      tree.feature, tree.threshold, tree.missing_go_to_left,
                      value, output=k)  # fmt: skip
    row = np.zeros((1, model.n_features_in_), dtype=np.float32)
    start = model._raw_predict_init(row)
    trees = TreeModel(model, nodes, start.shape[1], dtype=np.float32, start=start,
                      finite=True)  # fmt: skip
    if trees.classifier:
        trees.link = model._loss.predict_proba
    return trees


def _hist_gradient_boosting(model):
    """HistGradientBoosting*: iteration by iteration, predictor k of an
    iteration adding its leaf value to raw output k, from the baseline, on
    float64 input after the model's own categorical encoder."""
    known_sets, set_of_feature = model._bin_mapper.make_known_categories_bitsets()
    nodes = _Nodes()
    for iteration in model._predictors:
        for k, predictor in enumerate(iteration):
            n = predictor.nodes
            leaf = n["is_leaf"] != 0
            categorical = n["is_categorical"] != 0
            categories = None
            if categorical.any():
                at = np.flatnonzero(categorical)
                categories = (
                    categorical,
                    predictor.raw_left_cat_bitsets[n["bitset_idx"][at]],
                    known_sets[set_of_feature[n["feature_idx"][at]]],
                )
            nodes.add(
                n["depth"].max(),
                # uint32 children: -1 must not wrap around.
                np.where(leaf, -1, n["left"].astype(np.int64)),
                np.where(leaf, -1, n["right"].astype(np.int64)),
                n["feature_idx"], n["num_threshold"], n["missing_go_to_left"],
                n["value"], output=k, categories=categories,
            )  # fmt: skip
    # raw_predictions = zeros; raw_predictions += baseline.
    start = np.zeros_like(model._baseline_prediction) + model._baseline_prediction
    trees = TreeModel(model, nodes, start.shape[1], dtype=np.float64, start=start,
                      finite=False)  # fmt: skip
    loss = model._loss
    trees.link = loss.predict_proba if trees.classifier else loss.link.inverse
    trees.preprocessor = model._preprocessor
    if trees.preprocessor is not None:
        trees.column_of = _encoded_columns(trees.preprocessor)
    return trees


def _lightgbm(model):
    """LGBMClassifier and LGBMRegressor: tree i adding its leaf value to raw
    output i % K from +0.0 (LightGBM's ``PredictRaw``), on float64 input as
    its predict reads X (see ``lightgbm``)."""
    flavour = LightGBMTrees.of(model)
    n_outputs = flavour.n_outputs
    trees = TreeModel(model, flavour.nodes(), n_outputs, dtype=np.float64,
                      start=np.zeros((1, n_outputs)), finite=False)  # fmt: skip
    trees.classifier = flavour.classifier
    trees.flavour = flavour
    return trees


def _encoded_columns(preprocessor):
    """Raw column -> output column of histogram gradient boosting's own
    ColumnTransformer: an ordinal encoder for the categorical columns, a
    validation for the others, one output per input each, encoder first."""
    inputs = preprocessor._transformer_to_input_indices
    column_of = np.empty(preprocessor.n_features_in_, dtype=np.int64)
    for name, block in preprocessor.output_indices_.items():
        columns = inputs.get(name, [])
        column_of[list(columns)] = np.arange(block.start, block.stop)
    return column_of
