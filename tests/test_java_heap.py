"""PYBCV_JAVA_HEAP too small for the JVM (issue 22): a clear error naming the
variable, before R starts, never a process the JVM ends."""
import pytest

from pybcv.cli import main
from r_bridge import session


@pytest.mark.parametrize("value", ["1", "2048k", "3m"])
def test_a_heap_too_small_to_start_the_jvm_is_refused(monkeypatch, value):
    monkeypatch.setenv("PYBCV_JAVA_HEAP", value)
    with pytest.raises(session.JavaHeapError, match=rf"PYBCV_JAVA_HEAP='{value}' is .* bytes, below "
                                                    r"the 8 MB the JVM needs to start"):
        session.java_heap_setting()
    monkeypatch.setenv("PYBCV_JAVA_HEAP", "12m")
    assert session.java_heap_setting() == "12m"


def test_cli_says_it_plainly(monkeypatch, capsys):
    monkeypatch.setenv("PYBCV_JAVA_HEAP", "1")
    rc = main(["compare", "--a", "J48", "--b", "majority", "--n", "60", "--quiet"])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith("pybcv: error: ") and "PYBCV_JAVA_HEAP='1' is 1 bytes" in err, err
    assert "PYBCV_TRACEBACK" not in err and "Traceback" not in err
