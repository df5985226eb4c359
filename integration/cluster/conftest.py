"""Fixtures: a two-process cluster (integration/cluster/cluster.py) on the PostgreSQL that
scripts/cluster-test.sh started (SESAME_CLUSTER_DSN)."""

import os
import pathlib
import signal
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "interop"))
from cluster import running_cluster  # noqa: E402

for _name in ("NO_PROXY", "no_proxy"):
    os.environ[_name] = ",".join(filter(None, [os.environ.get(_name), "localhost", "127.0.0.1"]))


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


signal.signal(signal.SIGTERM, _interrupt)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    dsn = os.environ.get("SESAME_CLUSTER_DSN")
    assert dsn, "SESAME_CLUSTER_DSN is not set (run scripts/cluster-test.sh)"
    with running_cluster(tmp_path_factory.mktemp("cluster"), dsn) as running:
        yield running
