"""call_model: a model's own ValueError says where it arose, and nothing else
changes."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression

from inspectwidgets.inspection._core.predictions import call_model


class _Raising:
    def __init__(self, error):
        self.error = error

    def predict(self, X):
        raise self.error


def test_a_plain_value_error_names_the_model_the_method_and_the_data():
    original = ValueError("could not convert string to float: 'up'")
    with pytest.raises(ValueError) as caught:
        call_model(_Raising(original), "predict", np.zeros((2, 2)))
    message = str(caught.value)
    assert message.startswith("_Raising.predict failed on X: ")
    assert message.endswith("could not convert string to float: 'up'")
    assert caught.value.__cause__ is original


def test_the_data_named_is_the_callers():
    with pytest.raises(ValueError, match="failed on a training fold of X and y"):
        call_model(
            _Raising(ValueError("bad")),
            "predict",
            np.zeros((2, 2)),
            data="a training fold of X and y",
        )


@pytest.mark.parametrize("error", [NotFittedError("not fitted"), TypeError("type")])
def test_other_errors_and_value_error_subclasses_pass_unchanged(error):
    with pytest.raises(type(error)) as caught:
        call_model(_Raising(error), "predict", np.zeros((2, 2)))
    assert caught.value is error


def test_results_and_arguments_pass_through():
    X, y = np.arange(10.0).reshape(5, 2), np.arange(5.0)
    model = call_model(LinearRegression(), "fit", X, y)
    np.testing.assert_array_equal(
        call_model(model, "predict", X), LinearRegression().fit(X, y).predict(X)
    )
