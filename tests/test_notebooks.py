"""Execute every notebook in notebooks/ top to bottom.

The notebooks run in a ``python3`` kernel. Run from the project's venv, that
kernelspec is the one ipykernel installs into the venv (jupyter_core searches
``sys.prefix`` first inside a virtual environment), and jupyter_client starts
it with ``sys.executable``; ``test_python3_kernel_is_this_interpreter`` checks
that, so the notebooks import the inspectwidgets installed here.

With ``INSPECTWIDGETS_EXECUTED_NOTEBOOKS`` set to a folder, each notebook that
ran is written there with its outputs and widget state: `make test` runs the
notebooks once, here, and the documentation's gallery shows these copies
instead of executing the notebooks again (docs/conf.py).
"""

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
KERNEL_NAME = "python3"
CELL_TIMEOUT = 600  # seconds
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
EXECUTED = os.environ.get("INSPECTWIDGETS_EXECUTED_NOTEBOOKS")

pytestmark = pytest.mark.notebook


def test_notebooks_found():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


def test_python3_kernel_is_this_interpreter():
    spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    executable = spec.argv[0]
    # jupyter_client replaces a bare "python"/"python3" with sys.executable.
    if executable in {"python", "python3", f"python{sys.version_info[0]}"}:
        executable = sys.executable
    assert os.path.realpath(executable) == os.path.realpath(sys.executable), (
        f"the {KERNEL_NAME!r} kernelspec in {spec.resource_dir} starts "
        f"{spec.argv[0]!r}, not this interpreter {sys.executable!r}"
    )


def _ipc_kernel_manager(runtime):
    """A python3 kernel talking over Unix sockets in `runtime`, not TCP ports:
    a port found free can be taken by another test process before the kernel
    binds it ("Address already in use"). The folder is short: a socket's path
    must stay under 108 bytes."""
    from jupyter_client.manager import KernelManager

    return KernelManager(
        kernel_name=KERNEL_NAME,
        transport="ipc",
        connection_file=os.path.join(runtime, "kernel.json"),
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path):
    # Imported here: nbformat's schema validator takes seconds to load, paid
    # by every pytest run that only collects this file.
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    runtime = tempfile.mkdtemp(prefix="iw-nb-")
    client = NotebookClient(
        nb,
        km=_ipc_kernel_manager(runtime),
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except CellExecutionError as exc:
        # The message holds the failing cell's source and traceback.
        error = ANSI_ESCAPE.sub("", str(exc))
    else:
        if EXECUTED:
            Path(EXECUTED).mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, Path(EXECUTED) / path.name)
        unpictured = _widgets_without_picture(nb)
        assert not unpictured, (
            f"{path.name}: the widget output of cell(s) {unpictured} holds no PNG: "
            "a reader without a kernel (GitHub, nbviewer, nbconvert's HTML) sees "
            "nothing there. A later cell must end after the widget's run (wait())."
        )
        return
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
    pytest.fail(f"{path.name} failed:\n{error}", pytrace=False)


def _widgets_without_picture(nb):
    """The numbers of the code cells that show a widget with no PNG beside it."""
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    return [
        number
        for number, cell in enumerate(code_cells, 1)
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
        and "image/png" not in output["data"]
    ]
