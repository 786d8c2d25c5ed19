"""The Examples sections of the public functions run and print what they say."""

import doctest

import pytest

from inspectwidgets.inspection._effects import ale, interaction, result


@pytest.mark.parametrize("module", [ale, interaction, result], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
