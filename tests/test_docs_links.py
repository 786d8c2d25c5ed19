"""docs/check_links.py, the internal link check of `make docs`, finds what it
must: a missing page, a missing anchor, a link leaving the site."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "check_links", ROOT / "docs" / "check_links.py"
)
check_links = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_links)


def _site(tmp_path, index):
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "f.html").write_text('<h1 id="f">f</h1><a href="#f">f</a>')
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "x.js").write_text("")
    # The theme's template in _static is not a page.
    (tmp_path / "_static" / "t.html").write_text("<a href=\"{{ pathto('a') }}\">")
    (tmp_path / "index.html").write_text(index)
    return tmp_path


def test_good_links_pass(tmp_path):
    site = _site(
        tmp_path,
        '<a href="api/f.html#f">f</a> <a href="api/">dir</a> '
        '<script src="_static/x.js"></script> <a href="https://example.org/#x">'
        '<a href="mailto:a@b.c">',
    )
    (site / "api" / "index.html").write_text("")
    assert check_links.broken_links(site) == []
    assert check_links.main(["check_links", str(site)]) == 0


def test_broken_file_anchor_and_escape_are_reported(tmp_path):
    site = _site(
        tmp_path,
        '<a href="api/g.html">g</a>\n<a href="api/f.html#nope">f</a>\n'
        '<a href="#top">top</a>\n<img src="../outside.png">',
    )
    broken = [(line, link) for _, line, link, _ in check_links.broken_links(site)]
    assert broken == [
        (1, "api/g.html"),
        (2, "api/f.html#nope"),
        (3, "#top"),
        (4, "../outside.png"),
    ]
    assert check_links.main(["check_links", str(site)]) == 1
