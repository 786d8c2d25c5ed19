"""The build hook's function (pyproject.toml, [tool.hatch.build.hooks.jupyter-builder]).

hatch-jupyter-builder's ``npm_builder`` looks npm up on PATH before it checks whether
the bundle needs building, so an sdist, which carries the built bundle, would not
install on a machine without Node. Here the check comes first: npm is needed only
when a file under ``source_dir`` is newer than the bundle in ``build_dir`` (or the
bundle is missing), and then ``npm_builder`` runs as before.
"""

from hatch_jupyter_builder import npm_builder
from hatch_jupyter_builder.utils import is_stale


def build(target_name, version, *, build_dir, source_dir, **kwargs):
    if not is_stale(build_dir, source_dir):
        print(f"build_js: {build_dir} is newer than {source_dir}; npm not needed")
        return
    npm_builder(
        target_name, version, build_dir=build_dir, source_dir=source_dir, **kwargs
    )
