"""A dask cluster given by its address (issue 22): ``simulate(...,
scheduler="tcp://host:port")`` and ``pybcv simulate --scheduler`` give the
local run's results; an address that is no address, that nothing answers
at, or where something that is not a dask scheduler listens, ends in a clear
error naming the option and the address (pybcv/engine/simulation.py
check_scheduler), never a traceback or dask's own message."""
import socket
import threading

import numpy as np
import pytest

from pybcv.cli import main
from pybcv.engine import load_result, simulate
from pybcv.engine.simulation import SCHEDULER_TIMEOUT_S

distributed = pytest.importorskip("distributed")

KW = dict(tests=["mcnemar_5x2bcv", "t_5x2cv"], reps=4, seed=8, backend="python")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", dashboard_address=None) as cl:
        assert cl.scheduler_address.startswith("tcp://")
        yield cl


def _same(a, b):
    assert np.array_equal(a.reps, b.reps)
    for k in a.pvalue:
        assert np.array_equal(a.pvalue[k], b.pvalue[k], equal_nan=True)
        assert np.array_equal(a.statistic[k], b.statistic[k], equal_nan=True)


def test_a_cluster_by_its_address_gives_the_local_results(cluster, tmp_path):
    ref = simulate("simple", **KW)
    _same(ref, simulate("simple", scheduler=cluster.scheduler_address, chunk=1, **KW))
    out = str(tmp_path / "run")
    assert main(["simulate", "--dataset", "simple", "--reps", "4", "--seed", "8", "--backend",
                 "python", "--tests", "mcnemar_5x2bcv,t_5x2cv",
                 "--scheduler", cluster.scheduler_address, "--out", out, "--quiet"]) == 0
    _same(ref, load_result(out))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_listener():
    """Something that accepts connections and never speaks dask."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                pass
    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


@pytest.mark.parametrize("address,kind,words", [
    ("nonsense", ValueError, "give an address as tcp://host:port"),
    ("http://127.0.0.1:80", ValueError, "give an address as tcp://host:port"),
    ("tcp://127.0.0.1:99999", ValueError, "give an address as tcp://host:port"),
    ("tcp://127.0.0.1:{free}", ConnectionError, "cannot reach tcp://127.0.0.1:{free}"),
    ("127.0.0.1:{free}", ConnectionError, "cannot reach 127.0.0.1:{free}"),
])
def test_a_wrong_or_unreachable_address_is_named(address, kind, words, tmp_path, capsys):
    free = _free_port()
    address, words = address.format(free=free), words.format(free=free)
    with pytest.raises(kind) as e:
        simulate("simple", scheduler=address, out=str(tmp_path / "py"), **KW)
    assert str(e.value).startswith("scheduler: ") and words in str(e.value)
    assert not (tmp_path / "py").exists()            # refused before anything is written
    argv = ["simulate", "--dataset", "simple", "--reps", "2", "--backend", "python",
            "--scheduler", address, "--out", str(tmp_path / "run"), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"--scheduler: {words}" in err and "Traceback" not in err


def test_an_address_where_no_dask_scheduler_answers(silent_listener, tmp_path, capsys):
    words = f"no dask scheduler answered at {silent_listener} within {SCHEDULER_TIMEOUT_S:g} s"
    with pytest.raises(ConnectionError) as e:
        simulate("simple", scheduler=silent_listener, **KW)
    assert str(e.value).startswith(f"scheduler: {words}")
    assert main(["rq1", "run", "--datasets", "pima", "--reps", "2", "--scheduler", silent_listener,
                 "--out", str(tmp_path / "rq1")]) == 2
    err = capsys.readouterr().err
    assert f"--scheduler: {words}" in err and "Traceback" not in err


def test_workers_without_pybcv_are_named_as_the_cause(monkeypatch):
    """A worker whose Python lacks pybcv fails each chunk with "No module
    named 'pybcv'" (the exception's name does not survive the trip): the
    error says it is the workers and how to start them; another missing
    module is left as it is."""
    from pybcv.engine import simulation as S

    class Fut:
        def __init__(self, err):
            self.err = err

        def result(self):
            raise self.err

    class Client:
        def __init__(self, err):
            self.err = err

        def submit(self, *a, **k):
            return Fut(self.err)

    monkeypatch.setattr(distributed, "as_completed", lambda fs: iter(fs))
    with pytest.raises(ModuleNotFoundError, match=r"a dask worker of the scheduler cannot import "
                                                  r"pybcv .*distributed\.cli\.dask_worker"):
        S._run_dask({}, [[0]], lambda recs: None, Client(ModuleNotFoundError("No module named 'pybcv'")))
    with pytest.raises(ModuleNotFoundError, match=r"has another or an incomplete pybcv "
                                                  r"\(no pybcv\.engine\)"):
        S._run_dask({}, [[0]], lambda recs: None,
                    Client(ModuleNotFoundError("No module named 'pybcv.engine'")))
    with pytest.raises(ModuleNotFoundError, match=r"^No module named 'torch'$"):
        S._run_dask({}, [[0]], lambda recs: None, Client(ModuleNotFoundError("No module named 'torch'")))
