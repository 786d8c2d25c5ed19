// @vitest-environment node
// (esbuild refuses jsdom's TextEncoder; nothing here draws.)
// What a front end we cannot run here (VS Code's notebook renderer) and one
// with no theme at all (a saved page, Colab) require of the widgets, checked
// on the sources and on the bundles as build.mjs writes them
// (docs/front_ends.md):
// - every widget's CSS reads only our `--iw-*` variables; the host's
//   (`--jp-*`, `--vscode-*`, marimo's) are read in ui/theme.css alone, each
//   with a fallback;
// - with no host variable defined, text keeps a readable contrast;
// - each bundle is an ES module whose default export has `render`, using no
//   `require`, AMD `define` or Jupyter global;
// - every CSS rule is scoped to a widget root.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const JS = resolve(import.meta.dirname, "..");
const SRC = join(JS, "src");
const THEME = join(SRC, "ui", "theme.css");

const ENTRIES = Object.fromEntries(
  [
    ...readFileSync(join(JS, "build.mjs"), "utf8")
      .match(/const ENTRIES = \{([^}]*)\}/)[1]
      .matchAll(/^\s*(\w+):\s*"([^"]+)"/gm),
  ].map((match) => [match[1], join(JS, match[2])]),
);

/** @param {string} dir @returns {string[]} */
function cssFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".css"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** @param {string} css */
const withoutComments = (css) => css.replace(/\/\*[\s\S]*?\*\//g, "");

/** Declarations `[property, value]` of a stylesheet. @param {string} css */
function declarations(css) {
  return [...withoutComments(css).matchAll(/([\w-]+)\s*:\s*([^;{}]*)/g)].map((m) => [
    m[1],
    m[2].trim(),
  ]);
}

/** The names `var()` reads in `value`. @param {string} value */
const varNames = (value) => [...value.matchAll(/var\(\s*--([\w-]+)/g)].map((m) => m[1]);

// The rule at the top of theme.css that maps every host's variables.
const MAPPING = withoutComments(readFileSync(THEME, "utf8")).match(
  /(^|\n)\.inspectwidgets \{([^}]*)\}/,
)[2];
const OURS = Object.fromEntries(
  declarations(MAPPING).filter(([name]) => name.startsWith("--iw-")),
);

/**
 * `value` with every `var()` replaced as a page with no host variables
 * resolves it: our own `--iw-*` variables by their value, any other by its
 * fallback (`null` where it has none: the declaration would be invalid).
 *
 * @param {string} value
 * @returns {string | null}
 */
function resolveVars(value) {
  const start = value.indexOf("var(");
  if (start < 0) return value;
  let depth = 0;
  let comma = -1;
  let end = start + 4;
  for (; end < value.length; end++) {
    const c = value[end];
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) break;
      depth--;
    } else if (c === "," && depth === 0 && comma < 0) comma = end;
  }
  const name = value.slice(start + 4, comma < 0 ? end : comma).trim();
  const inner =
    name.startsWith("--iw-") && !name.startsWith("--iw-marimo-") && name in OURS
      ? OURS[name]
      : comma < 0
        ? null
        : value.slice(comma + 1, end).trim();
  if (inner === null) return null;
  const resolved = resolveVars(inner);
  if (resolved === null) return null;
  return resolveVars(value.slice(0, start) + resolved + value.slice(end + 1));
}

/** sRGB channels 0..1 and alpha of `#rgb`, `#rrggbb` or `rgb[a](...)`. @param {string} colour */
function parseColour(colour) {
  const hex = colour.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
  if (hex) {
    const digits =
      hex[1].length === 3 ? [...hex[1]].map((d) => d + d) : hex[1].match(/../g);
    return { rgb: digits.map((d) => parseInt(d, 16) / 255), alpha: 1 };
  }
  const fn = colour.match(/^rgba?\(([^)]*)\)$/);
  if (!fn) throw new Error(`not a colour this test reads: ${colour}`);
  const parts = fn[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  return { rgb: parts.slice(0, 3).map((v) => v / 255), alpha: parts[3] ?? 1 };
}

/** WCAG contrast ratio of `text` over the opaque `background`. */
function contrast(text, background) {
  const bg = parseColour(background).rgb;
  const fg = parseColour(text);
  const over = fg.rgb.map((c, i) => c * fg.alpha + bg[i] * (1 - fg.alpha));
  const luminance = (rgb) =>
    rgb
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [luminance(over), luminance(bg)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

describe("theme variables", () => {
  it("are read from the host in ui/theme.css only", () => {
    const files = cssFiles(SRC);
    expect(files.length).toBeGreaterThan(5);
    const foreign = [];
    for (const file of files) {
      const decls = declarations(readFileSync(file, "utf8"));
      const ownNames = new Set(decls.map(([name]) => name).filter((n) => n.startsWith("--")));
      for (const [property, value] of decls) {
        for (const name of varNames(value)) {
          const ours = name.startsWith("iw-") || ownNames.has(`--${name}`);
          // The host's variables: only where theme.css maps them to ours.
          const mapping = file === THEME && property.startsWith("--iw-");
          if (!ours && !mapping) {
            foreign.push(`${relative(JS, file)}: ${property}: var(--${name})`);
          }
        }
      }
    }
    expect(foreign).toEqual([]);
  });

  it("each host variable has a fallback", () => {
    const css = withoutComments(readFileSync(THEME, "utf8"));
    // marimo's are read into --iw-marimo-*, which are read with fallbacks.
    expect(css.match(/var\(--(jp|vscode|iw-marimo)-[\w-]+\s*\)/g)).toBeNull();
    expect(Object.keys(OURS).length).toBeGreaterThan(10);
    for (const [name, value] of Object.entries(OURS)) {
      expect(resolveVars(value), name).not.toBeNull();
    }
  });

  it.each([
    ["--iw-fg", "--iw-bg"],
    ["--iw-fg-muted", "--iw-bg"],
    ["--iw-fg", "--iw-bg-alt"],
    ["--iw-fg", "--iw-input-bg"],
    ["--iw-fg", "--iw-button-bg"],
    ["--iw-accent-fg", "--iw-accent"],
    ["--iw-error", "--iw-bg"],
    ["--iw-warn", "--iw-bg"],
  ])("with no host variables, %s on %s is readable", (text, background) => {
    const ratio = contrast(resolveVars(OURS[text]), resolveVars(OURS[background]));
    expect(ratio).toBeGreaterThanOrEqual(4.5);
  });

  it("the resolver reads fallbacks, ours, and refuses a var() with none", () => {
    expect(resolveVars("var(--jp-x, var(--vscode-y, #123456))")).toBe("#123456");
    expect(resolveVars("1px solid var(--iw-bg)")).toBe(`1px solid ${resolveVars(OURS["--iw-bg"])}`);
    expect(resolveVars("var(--jp-x)")).toBeNull();
    expect(contrast("#000", "#fff")).toBeCloseTo(21, 5);
    expect(contrast("rgba(0, 0, 0, 0)", "#fff")).toBeCloseTo(1, 5);
  });
});

describe("the bundles, as VS Code's renderer loads them", () => {
  /** @type {Record<string, {js: string, css: string}>} */
  const bundles = {};
  let dir = "";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "iw-bundles-"));
    const built = await esbuild.build({
      entryPoints: ENTRIES,
      outdir: dir,
      bundle: true,
      format: "esm",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    for (const file of built.outputFiles) {
      writeFileSync(file.path, file.contents);
      const name = relative(dir, file.path).replace(/\.(js|css)$/, "");
      bundles[name] ??= { js: "", css: "" };
      bundles[name][file.path.endsWith(".css") ? "css" : "js"] = file.text;
    }
  }, 30_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds every entry of build.mjs, each with its CSS", () => {
    expect(Object.keys(bundles).sort()).toEqual(Object.keys(ENTRIES).sort());
    for (const { js, css } of Object.values(bundles)) {
      expect(js.length).toBeGreaterThan(1000);
      expect(css.length).toBeGreaterThan(1000);
    }
  });

  // Importing the five bundles (under 1 MB of JS) takes seconds on a
  // busy machine: more than vitest's default 5 s when the cores are shared.
  it("are ES modules with a default export holding render", { timeout: 30_000 }, async () => {
    for (const name of Object.keys(ENTRIES)) {
      const module = await import(pathToFileURL(join(dir, `${name}.js`)).href);
      expect(typeof module.default.render, name).toBe("function");
    }
  });

  it("use no require, AMD define or Jupyter global", () => {
    const forbidden = [
      /\brequire\s*\(/,
      /\bdefine\s*\(\s*\[/,
      /\bdefine\.amd\b/,
      /\bjupyterapp\b/,
      /\bJupyter\./,
      /\bIPython\b/,
      /\bgoogle\.colab\b/,
      /\bacquireVsCodeApi\b/,
    ];
    for (const [name, { js }] of Object.entries(bundles)) {
      for (const pattern of forbidden) expect(js, `${name}: ${pattern}`).not.toMatch(pattern);
    }
  });

  it("scope every CSS rule to a widget root", () => {
    // The roots' classes: .inspectwidgets (every widget), and the
    // inspector's .iw-inspector beside it.
    const root = /\.(inspectwidgets|iw-inspector)\b/;
    for (const [name, { css }] of Object.entries(bundles)) {
      const selectors = [...withoutComments(css).matchAll(/([^{}]+)\{/g)]
        .map((m) => m[1].trim())
        .filter((s) => !s.startsWith("@") && !/^(from|to|[\d.]+%)$/.test(s));
      expect(selectors.length, name).toBeGreaterThan(20);
      const unscoped = selectors.flatMap((s) => s.split(",")).filter((s) => !root.test(s));
      expect(unscoped, name).toEqual([]);
    }
  });

  it("read no host variable without a fallback", () => {
    for (const [name, { css }] of Object.entries(bundles)) {
      expect(css.match(/var\(--(jp|vscode)-[\w-]+\)/g), name).toBeNull();
    }
  });
});
