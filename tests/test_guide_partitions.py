"""The examples of docs/guide/partitions.md run and print what the page shows."""
import doctest
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "partitions.md"


def test_partitions_guide_examples():
    res = doctest.testfile(str(GUIDE), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 5 and res.failed == 0
