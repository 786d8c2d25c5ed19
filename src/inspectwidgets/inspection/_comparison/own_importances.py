"""The boosting libraries' own importances, read as each library documents them.

scikit-learn's MDI and ESL's relative importance are read from scikit-learn's
trees. LightGBM, XGBoost and CatBoost models carry measures of their own,
which the comparison shows under what they are:

- **split gain** (``"gain"``): the training-loss reduction of every split on
  a feature, summed over the trees (LightGBM's ``importance_type="gain"``,
  XGBoost's ``"total_gain"``), as a share of all splits' gain: the boosting
  libraries' counterpart of MDI, with the same bias towards features offering
  many split points, computed on the training data;
- **split count** (``"split_count"``): how many splits use the feature
  (LightGBM's ``"split"``, XGBoost's ``"weight"``), as a share of all splits;
- **PredictionValuesChange** (``"prediction_values_change"``): CatBoost's
  default, how much the prediction changes on average when the feature's
  value changes, from the leaf values and the training rows' weights in
  them, as a share of the total (CatBoost scales it to 100).

Each is a share per model input (summing to 1); the comparison adds up the
shares of a raw column's inputs.
"""

from __future__ import annotations

import numpy as np

#: (key, label, units) of each of the libraries' own measures, for the
#: comparison's charts (beside MDI and ESL's relative importance).
OWN_MEASURES = (
    ("gain", "Split gain (train)", "share of the total split gain"),
    ("split_count", "Split count (train)", "share of the splits"),
    (
        "prediction_values_change",
        "PredictionValuesChange (train)",
        "share of CatBoost's total",
    ),
)


def library_of(model) -> str | None:
    """ "LightGBM", "XGBoost" or "CatBoost" for their scikit-learn estimators,
    None for any other model."""
    module = type(model).__module__.partition(".")[0]
    return {"lightgbm": "LightGBM", "xgboost": "XGBoost", "catboost": "CatBoost"}.get(
        module
    )


def own_importances(model) -> dict[str, np.ndarray]:
    """The library's own measures of a fitted LightGBM, XGBoost or CatBoost
    model, as shares per model input: ``{key: values}`` with keys of
    `OWN_MEASURES`; empty for other models (and for an XGBoost linear
    booster, which has no splits)."""
    library = library_of(model)
    n_inputs = int(model.n_features_in_) if library else 0
    if library == "LightGBM":
        booster = model.booster_
        raw = {
            "gain": booster.feature_importance(importance_type="gain"),
            "split_count": booster.feature_importance(importance_type="split"),
        }
    elif library == "XGBoost":
        if model.get_params().get("booster") == "gblinear":
            return {}
        booster = model.get_booster()
        names = booster.feature_names or [f"f{i}" for i in range(n_inputs)]
        raw = {
            key: _by_name(booster.get_score(importance_type=kind), names)
            for key, kind in (("gain", "total_gain"), ("split_count", "weight"))
        }
    elif library == "CatBoost":
        raw = {
            "prediction_values_change": model.get_feature_importance(
                type="PredictionValuesChange"
            )
        }
    else:
        return {}
    return {key: _shares(values, n_inputs) for key, values in raw.items()}


def _by_name(scores, names):
    """XGBoost's scores (only the features some split uses) per input."""
    return np.array([float(scores.get(name, 0.0)) for name in names])


def _shares(values, n_inputs):
    values = np.asarray(values, dtype=float).reshape(-1)
    if values.shape != (n_inputs,):
        raise ValueError(
            f"the model's own importances hold {values.size} values for its "
            f"{n_inputs} inputs."
        )
    total = values.sum()
    return values / total if total > 0 else values
