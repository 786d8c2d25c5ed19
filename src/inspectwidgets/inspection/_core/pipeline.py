"""Permuting after the preprocessing, where that is provably the same.

For ``Pipeline([ColumnTransformer(...), model])`` whose transformers each map
every input column, row by row, to its own output columns (one-hot encoding,
scaling, ordinal encoding, passthrough), transforming a copy of X with one
column's rows permuted gives the transformed X with that column's output
columns' rows permuted the same way. So we transform X once and permute the
transformed columns, instead of transforming every permuted copy: the model
then sees bit-for-bit the matrix the pipeline would have given it.
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
# dropped an empty column or added indicators fails the width check below.)
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


def _outputs_per_column(transformer, n_inputs):
    if isinstance(transformer, str):
        return [1] * n_inputs if transformer == "passthrough" else [0] * n_inputs
    if type(transformer) is OneHotEncoder:
        return list(getattr(transformer, "_n_features_outs", []))
    if type(transformer) in _ONE_OUTPUT_PER_COLUMN or _is_identity(transformer):
        return [1] * n_inputs
    return None


def columnwise_view(estimator, n_columns):
    """A :class:`TransformedView` of `estimator`, or None where not provably exact."""
    if not isinstance(estimator, Pipeline) or len(estimator.steps) != 2:
        return None
    preprocessing, model = estimator.steps[0][1], estimator.steps[1][1]
    if type(preprocessing) is not ColumnTransformer:
        return None
    if getattr(preprocessing, "_sklearn_output_config", {}).get(
        "transform", "default"
    ) not in (
        "default",
        None,
    ):
        return None
    inputs = getattr(preprocessing, "_transformer_to_input_indices", None)
    if inputs is None:
        return None
    output_columns = [[] for _ in range(n_columns)]
    for name, transformer, _ in preprocessing.transformers_:
        columns = list(inputs.get(name, []))
        if transformer == "drop" or not columns:
            continue
        counts = _outputs_per_column(transformer, len(columns))
        block = preprocessing.output_indices_[name]
        if (
            counts is None
            or len(counts) != len(columns)
            or sum(counts) != block.stop - block.start
        ):
            return None
        start = block.start
        for column, count in zip(columns, counts, strict=True):
            output_columns[column].extend(range(start, start + count))
            start += count
    return TransformedView(
        model=model, preprocessing=preprocessing, output_columns=output_columns
    )


def final_estimator(estimator):
    """The model at the end of (possibly nested) pipelines."""
    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return estimator
