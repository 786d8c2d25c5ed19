"""The one place the engine calls a model's method (predict, fit) on data.

A model's own error then says where it arose: "could not convert string to
float: 'up'" from deep inside a pipeline does not tell a user that the data
they passed as X holds a column the model was not fitted on.
"""


def call_model(model, method, X, /, *args, data="X", **kwargs):
    """``getattr(model, method)(X, *args, **kwargs)``; a plain ValueError it
    raises is raised again naming the model, the method and the `data` it
    was called on, with the model's own message kept whole (scikit-learn's
    tests match on it) and chained.

    Subclasses of ValueError (NotFittedError, InvalidParameterError) pass
    unchanged: callers catch them by type.
    """
    try:
        return getattr(model, method)(X, *args, **kwargs)
    except ValueError as error:
        if type(error) is not ValueError:
            raise
        raise ValueError(
            f"{type(model).__name__}.{method} failed on {data}: {error}"
        ) from error
