"""Numeric arrays for the comm: little-endian binary buffers, never JSON lists."""

import numpy as np


def binary_array(values):
    """``{"data": memoryview, "dtype": "float32", "shape": [...]}`` for JS.

    ipywidgets sends memoryviews found anywhere in a trait's value as binary
    buffers; the front end decodes them with ``decodeArray`` (js/src/codecs.js).
    """
    array = np.ascontiguousarray(values, dtype="<f4")
    return {
        "data": memoryview(array.reshape(-1)),
        "dtype": "float32",
        "shape": list(array.shape),
    }


def decode_binary_array(payload):
    """The inverse of :func:`binary_array` (for tests and Python consumers)."""
    data = np.frombuffer(payload["data"], dtype="<f4")
    return data.reshape(payload["shape"])
