"""Check every internal link of the built site: `python docs/check_links.py DIR`.

Sphinx's own ``linkcheck`` builder needs the network; this reads the HTML
files under DIR and checks that each relative ``href`` and ``src`` names a file
of the site and, with a ``#fragment``, an ``id`` in that file. Links with a
scheme (``https:``, ``mailto:``) are left alone. Exits 1 listing the broken
ones.
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(name):
                self.ids.add(attrs[name])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append((self.getpos()[0], attrs[name]))


def _parse(path, cache):
    if path not in cache:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = page
    return cache[path]


def broken_links(root):
    """``[(page, line, link, reason)]`` for every broken internal link."""
    root = Path(root).resolve()
    # _static/ holds the theme's files (a Jinja template among them), not pages.
    pages = sorted(p for p in root.rglob("*.html") if "_static" not in p.parts)
    if not pages:
        raise SystemExit(f"{root}: no HTML files (build the site first: make docs)")
    cache, broken = {}, []
    for page in pages:
        for line, link in _parse(page, cache).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue
            target = page
            if parts.path:
                target = (page.parent / unquote(parts.path)).resolve()
                if target.is_dir():
                    target = target / "index.html"
                if root not in target.parents or not target.is_file():
                    broken.append((page, line, link, "no such file"))
                    continue
            fragment = unquote(parts.fragment)
            if (
                fragment
                and target.suffix == ".html"
                and fragment not in _parse(target, cache).ids
            ):
                broken.append((page, line, link, f"no id {fragment!r}"))
    return broken


def main(argv):
    if len(argv) != 2:
        raise SystemExit(f"usage: {argv[0]} BUILT_HTML_DIR")
    root = Path(argv[1])
    broken = broken_links(root)
    for page, line, link, reason in broken:
        print(f"{page.relative_to(root.resolve())}:{line}: {link}: {reason}")
    print(f"{len(broken)} broken internal links in {root}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
