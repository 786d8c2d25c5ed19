"""The values partial dependence averages, from the model's outputs.

Shared by partial dependence and the effects engine (ALE, interaction
strength), which take them the same way.
"""

import numpy as np

# Probabilities are clipped to [LOG_ODDS_EPS, 1] before taking logs.
LOG_ODDS_EPS = np.finfo(np.float64).eps


def centered_log_odds(proba):
    """ESL eq. 10.52: ``f_k = log p_k - (1/K) sum_l log p_l`` per row, with
    probabilities clipped to ``[LOG_ODDS_EPS, 1]`` so that 0 gives a finite
    (very negative) log."""
    log_p = np.log(np.clip(proba, LOG_ODDS_EPS, 1))
    return log_p - log_p.mean(axis=1, keepdims=True)


def output_quantity(result, output, name=str):
    """What a result's values of output `output` are, for a label: the
    class's probability, centered log-odds or decision function; None for a
    regressor's prediction (its unit is the target's own).

    `result` is a partial dependence or accumulated local effects result
    (``output_names``, ``scale``, ``response_method``); `name` writes the
    class label for the medium (``isolate`` in the page, ``visible`` in a
    figure). One sentence for the widget's axis and the figure's, so the two
    name the class alike (#52 item 4).
    """
    if result.output_names is None:
        return None
    label = name(result.output_names[output])
    if result.scale == "log_odds":
        return f"centered log-odds of class {label}"
    if result.response_method == "decision_function":
        return f"decision function, class {label}"
    return f"probability of class {label}"


class Responses:
    """What the values are: the model's method, the scale and the output
    columns (classes) kept."""

    def __init__(self, response_method, scale, output_columns):
        self.response_method, self.scale = response_method, scale
        self.output_columns = output_columns

    @property
    def methods(self):
        """The prediction methods the values are made of."""
        return ["predict_proba"] if self.scale == "log_odds" else [self.response_method]

    def __call__(self, predict, check_finite=True):
        """Values of shape (n_rows, n_outputs) from ``predict(method)``,
        processed as scikit-learn processes them: the positive class of a
        binary classifier unless `output_columns` chose others; centered
        log-odds on ``scale="log_odds"``. Refused if not all finite, unless
        the caller checks them itself (`check_finite` False: see
        :meth:`check_finite`)."""
        columns = self.output_columns
        if self.scale == "log_odds":
            values = centered_log_odds(predict("predict_proba"))
            if columns is None and values.shape[1] == 2:
                columns = [1]
        else:
            values = predict(self.response_method)
            if columns is None and self.response_method == "predict_proba":
                # scikit-learn's _get_response_values: the positive class,
                # classes_[-1], of a binary classifier.
                values = values[:, 1] if values.shape[1] == 2 else values
        values = values.reshape(values.shape[0], -1)
        if check_finite:
            self.check_finite(values)
        # C order: averages sum in the same order as for a full response.
        return values if columns is None else np.ascontiguousarray(values[:, columns])

    def check_finite(self, values):
        """A ValueError if any of `values` is NaN or infinite. A caller that
        sums the values anyway may check the sums instead, and the values
        only when a sum is not finite: NaN and infinities reach the sum."""
        if not np.isfinite(values).all():
            # An average over them would be NaN (or inf) at every point: say
            # where it comes from instead of drawing an empty curve.
            methods = " / ".join(self.methods)
            raise ValueError(
                f"The estimator's {methods} returned NaN or infinite values on "
                "X (or on copies of X with the feature set to a grid value), "
                "so their averages would not be finite. Check the estimator's "
                "predictions on X."
            )


PROBABILITIES_NOT_AFFINE = (
    "a boosting classifier's probabilities are its link of the summed leaves, "
    "and partial dependence averages them row by row"
)
"""Why a boosting classifier's probabilities have no exact H² through the
trees' structure (scikit-learn's, LightGBM's, XGBoost's and CatBoost's)."""
