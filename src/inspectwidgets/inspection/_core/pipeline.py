"""Permuting after the preprocessing, where that is provably the same.

For a pipeline whose steps before the model each map every input column,
row by row, to its own output columns (one-hot encoding, scaling, imputing,
ordinal encoding, passthrough; a ColumnTransformer or a pipeline of these),
transforming a copy of X with one column's rows permuted gives the
transformed X with that column's output columns' rows permuted the same way.
So we transform X once and permute the transformed columns, instead of
transforming every permuted copy: the model then sees bit-for-bit the matrix
the pipeline would have given it.
"""

from dataclasses import dataclass

from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    MaxAbsScaler,
    MinMaxScaler,
    OneHotEncoder,
    OrdinalEncoder,
    RobustScaler,
    StandardScaler,
)

# Transformers whose output for a row depends only on that row's value of one
# input column, with one output column per input column. (A SimpleImputer that
# dropped an empty column or added indicators fails the width checks below.)
_ONE_OUTPUT_PER_COLUMN = (
    SimpleImputer,
    OrdinalEncoder,
    StandardScaler,
    MinMaxScaler,
    MaxAbsScaler,
    RobustScaler,
)


@dataclass
class TransformedView:
    """The final step of a pipeline and where each raw column lands."""

    model: object
    preprocessing: object
    output_columns: list  # raw column position -> list of output positions

    def transform(self, X):
        return self.preprocessing.transform(X)

    def map_columns(self, raw_columns):
        """Output columns of a group of raw columns, sorted."""
        return tuple(sorted({o for c in raw_columns for o in self.output_columns[c]}))


def _is_identity(transformer):
    """ColumnTransformer's own stand-in for "passthrough" columns."""
    return type(transformer) is FunctionTransformer and transformer.func is None


def _column_map(transformer, n_inputs):
    """Input column -> its output columns, for a transformer fitted on
    `n_inputs` columns that is provably column-wise; else None."""
    if transformer is None or isinstance(transformer, str):
        if transformer in (None, "passthrough"):
            return [[c] for c in range(n_inputs)]
        return [[] for _ in range(n_inputs)] if transformer == "drop" else None
    if getattr(transformer, "_sklearn_output_config", {}).get(
        "transform", "default"
    ) not in ("default", None):
        return None
    if type(transformer) is ColumnTransformer:
        return _column_transformer_map(transformer, n_inputs)
    if type(transformer) is Pipeline:
        return _chained_map([step for _, step in transformer.steps], n_inputs)
    if type(transformer) is OneHotEncoder:
        counts = list(getattr(transformer, "_n_features_outs", []))
    elif type(transformer) in _ONE_OUTPUT_PER_COLUMN or _is_identity(transformer):
        counts = [1] * n_inputs
    else:
        return None
    if len(counts) != n_inputs or sum(counts) != _n_outputs(transformer):
        return None
    starts = [sum(counts[:c]) for c in range(n_inputs)]
    return [list(range(s, s + n)) for s, n in zip(starts, counts, strict=True)]


def _n_outputs(transformer):
    """The transformer's output width, as it names its outputs (-1 if it
    cannot say: an identity FunctionTransformer keeps its width)."""
    if _is_identity(transformer):
        return getattr(transformer, "n_features_in_", -1)
    try:
        return len(transformer.get_feature_names_out())
    except (AttributeError, ValueError, TypeError):
        return -1


def _chained_map(steps, n_inputs):
    """The map of steps applied one after another."""
    mapping = [[c] for c in range(n_inputs)]
    for step in steps:
        width = 1 + max((o for outs in mapping for o in outs), default=-1)
        inner = _column_map(step, width)
        if inner is None:
            return None
        mapping = [sorted({o for m in outs for o in inner[m]}) for outs in mapping]
    return mapping


def _column_transformer_map(preprocessing, n_columns):
    inputs = getattr(preprocessing, "_transformer_to_input_indices", None)
    if inputs is None or getattr(preprocessing, "n_features_in_", None) != n_columns:
        return None
    output_columns = [[] for _ in range(n_columns)]
    for name, transformer, _ in preprocessing.transformers_:
        columns = list(inputs.get(name, []))
        if transformer == "drop" or not columns:
            continue
        inner = _column_map(transformer, len(columns))
        block = preprocessing.output_indices_[name]
        used = {o for outs in inner or [] for o in outs}
        if inner is None or used != set(range(block.stop - block.start)):
            return None
        for column, outs in zip(columns, inner, strict=True):
            output_columns[column].extend(block.start + o for o in outs)
    return output_columns


def columnwise_view(estimator, n_columns):
    """A :class:`TransformedView` of `estimator`, or None where not provably exact."""
    if not isinstance(estimator, Pipeline) or len(estimator.steps) < 2:
        return None
    preprocessing = [step for _, step in estimator.steps[:-1]]
    if all(step is None or isinstance(step, str) for step in preprocessing):
        return None  # nothing to transform
    output_columns = _chained_map(preprocessing, n_columns)
    if output_columns is None:
        return None
    return TransformedView(
        model=estimator.steps[-1][1],
        preprocessing=estimator[:-1],
        output_columns=output_columns,
    )


def final_estimator(estimator):
    """The model at the end of (possibly nested) pipelines."""
    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return estimator
