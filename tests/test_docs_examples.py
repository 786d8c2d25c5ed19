"""Every ```python block of every docs page runs as written.

A reader copies a page's blocks into a fresh interpreter, top to bottom, so
each page runs here in a fresh Python process of its own, its blocks in order
in one namespace: a block may use what an earlier block on the page defined,
never what another page did. A block that is not meant to run (output, a
session with prompts, a sketch with placeholders) takes another fence
(```text, ```pycon), so nothing here skips a ```python block.

Run alone, ``python tests/test_docs_examples.py docs/page.md`` executes one
page and names the failing block by its line in the page.
"""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
# A fence may be indented (a block inside a list item); it closes at the first
# ``` line after it.
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^`\n]*)$")
BLOCK_TIMEOUT = 600  # seconds, a whole page

# A page's subprocess; each carries the `slow` mark (tests/conftest.py).
pytestmark = pytest.mark.slow


def python_blocks(text):
    """The ```python blocks of a page's text, as (line, source) pairs in page
    order: the line (1-based) of the block's first code line, and its source
    with the fence's indentation removed."""
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].lstrip().startswith("```"):
            end += 1
        if opening["info"].strip() == "python":
            body = textwrap.dedent("\n".join(lines[i + 1 : end]))
            blocks.append((i + 2, body + "\n"))
        i = end + 1
    return blocks


def run_page(page):
    """Execute a page's python blocks in order, in one namespace. A failure
    names the page and the block's line, in the traceback's file name."""
    page = Path(page)
    namespace = {"__name__": "__main__"}
    for line, source in python_blocks(page.read_text()):
        # Blank lines before the source make the traceback's line numbers the
        # page's own.
        code = compile("\n" * (line - 1) + source, f"{page.name}", "exec")
        exec(code, namespace)


PAGES = sorted(p for p in DOCS.glob("*.md") if python_blocks(p.read_text()))


def test_pages_found():
    assert PAGES, f"no docs page in {DOCS} has a ```python block"


def test_blocks_are_found_in_lists_and_fences_close():
    text = (
        "# t\n```python\na = 1\n```\n- item\n\n  ```python\n  b = a + 1\n  ```\n"
        "```text\nnot = run(\n```\n```pycon\n>>> 1\n```\n"
    )
    assert python_blocks(text) == [(3, "a = 1\n"), (8, "b = a + 1\n")]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_runs(page, tmp_path):
    # A fresh interpreter per page, as a reader has; matplotlib draws off
    # screen, and the page's files (save_html, figures) land in tmp_path.
    env = {**os.environ, "MPLBACKEND": "Agg"}
    process = subprocess.run(
        [sys.executable, __file__, str(page)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )
    if process.returncode != 0:
        pytest.fail(f"{page.name} failed:\n{process.stderr[-6000:]}", pytrace=False)


if __name__ == "__main__":
    run_page(sys.argv[1])
