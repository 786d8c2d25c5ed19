"""One parameter list per engine: the streamed and one-shot functions agree,
and each accepts scikit-learn's parameters with scikit-learn's defaults."""

import inspect

import pytest
from sklearn import inspection as sklearn_inspection

import inspectwidgets

PAIRS = [
    ("permutation_importance", "iter_permutation_importance"),
    ("partial_dependence", "iter_partial_dependence"),
    ("conditional_permutation_importance", "iter_conditional_permutation_importance"),
    ("subgroup_permutation_importance", "iter_subgroup_permutation_importance"),
]
# Several models' permutation importance: permutation_importance's parameters
# for every model (test_compare_takes_permutation_importances_parameters).
STREAMED_ONLY = [
    ("compare_permutation_importance", "iter_compare_permutation_importance"),
]
# The scikit-learn function whose parameters an engine function takes.
# Arguments a function requires beyond estimator, X and y.
REQUIRED = {"subgroup_permutation_importance": {"subgroups": [0]}}
SKLEARN_FUNCTION = {
    "conditional_permutation_importance": "permutation_importance",
    "subgroup_permutation_importance": "permutation_importance",
}


@pytest.mark.parametrize("one_shot, streamed", PAIRS + STREAMED_ONLY)
def test_streamed_function_takes_the_one_shot_parameters(one_shot, streamed):
    full = inspect.signature(getattr(inspectwidgets, one_shot)).parameters
    stream = inspect.signature(getattr(inspectwidgets, streamed)).parameters
    own = {"callback", "return_result"}
    assert list(stream) == [name for name in full if name not in own]
    for name, parameter in stream.items():
        assert parameter == full[name], name


@pytest.mark.parametrize("one_shot, streamed", PAIRS)
def test_sklearn_parameters_with_sklearns_defaults(one_shot, streamed):
    ours = inspect.signature(getattr(inspectwidgets, one_shot)).parameters
    sklearn_function = SKLEARN_FUNCTION.get(one_shot, one_shot)
    theirs = inspect.signature(getattr(sklearn_inspection, sklearn_function)).parameters
    for name, parameter in theirs.items():
        assert name in ours, name
        assert ours[name].kind == parameter.kind, name
        assert ours[name].default == parameter.default, name


@pytest.mark.parametrize("one_shot, streamed", PAIRS + STREAMED_ONLY)
def test_streamed_function_refuses_an_unknown_argument(one_shot, streamed):
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_repeat'"):
        getattr(inspectwidgets, streamed)(
            None, None, None, n_repeat=3, **REQUIRED.get(one_shot, {})
        )
    with pytest.raises(TypeError, match="callback"):
        getattr(inspectwidgets, streamed)(
            None, None, None, callback=print, **REQUIRED.get(one_shot, {})
        )


def test_conditional_takes_permutation_importances_parameters():
    """The conditional variant is permutation_importance plus the subgroup
    trees' knobs: every shared parameter the same, in the same order."""
    marginal = inspect.signature(inspectwidgets.permutation_importance).parameters
    conditional = inspect.signature(
        inspectwidgets.conditional_permutation_importance
    ).parameters
    own = ["max_depth", "min_samples_leaf", "alpha", "X_fit", "max_fit_samples"]
    assert [n for n in conditional if n not in own] == list(marginal)
    for name, parameter in marginal.items():
        assert conditional[name] == parameter, name


def test_compare_takes_permutation_importances_parameters():
    """Several models' importance is permutation_importance's for each model:
    `models` for `estimator`, every other shared parameter the same, in the
    same order; no held-out resamples (n_bootstrap), its own result."""
    single = inspect.signature(inspectwidgets.permutation_importance).parameters
    several = inspect.signature(
        inspectwidgets.compare_permutation_importance
    ).parameters
    assert list(several)[0] == "models"
    left_out = {"estimator", "n_bootstrap", "return_result"}
    assert [n for n in several if n in single] == [
        n for n in single if n not in left_out
    ]
    for name in several:
        if name in single and name not in ("confidence_level", "callback"):
            assert several[name] == single[name], name
    assert several["confidence_level"].default == 0.95
