"""The real dask.distributed cluster the scale tests run on: two worker
processes of one thread each, started once per test module that uses the
`client` fixture."""

import os

import pytest


@pytest.fixture(scope="module")
def client():
    # CI installs the dev extra, which has dask: never skipped there.
    if not os.environ.get("CI"):
        pytest.importorskip("distributed")
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client
