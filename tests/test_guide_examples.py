"""The examples of docs/guide/partitions.md, models.md and losses.md run and
print what the pages show."""
import doctest
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide"


@pytest.mark.parametrize("page", ["partitions.md", "models.md", "losses.md"])
def test_guide_examples(page):
    res = doctest.testfile(str(GUIDE / page), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 3 and res.failed == 0
