// Bundle the front-end entries into ../src/inspectwidgets/static/ (git-ignored,
// shipped in the wheel). Run by `npm run build`, which hatch-jupyter-builder
// calls during `pip install` / `python -m build`; `npm run dev` rebuilds on change.
//
// One entry per widget, each the `_esm` of its Python class: the output file
// is static/<name>.js. Every dependency (codecs.js, ui/, charts/, the widget's
// own folder, d3) is bundled into it; no CDN imports at run time. To add a
// widget, add its entry here, its files to `ensured-targets` in
// pyproject.toml, and point the class's `_esm` and `_css` at them.
import * as esbuild from "esbuild";

const ENTRIES = {
  // Each widget entry imports its CSS (ui/theme.css, its charts' CSS, its own),
  // which esbuild emits beside it: permutation_widget.css, comparison_widget.css,
  // pd_widget.css, interaction_widget.css, inspector_widget.css.
  permutation_widget: "src/permutation_widget.js",
  comparison_widget: "src/comparison_widget.js",
  pd_widget: "src/pd_widget.js",
  interaction_widget: "src/interaction_widget.js",
  inspector_widget: "src/inspector_widget.js",
};

const watch = process.argv.includes("--watch");

/** @type {import("esbuild").BuildOptions} */
const options = {
  entryPoints: ENTRIES,
  outdir: "../src/inspectwidgets/static",
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  logLevel: "info",
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
