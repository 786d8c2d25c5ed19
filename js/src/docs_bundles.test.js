// The documentation site's loader (docs/_static/iw_embed.js) takes a bundle's
// name from the page's widget state: only this site's bundle names, resolved
// in its own _static/ folder, are accepted.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleUrl } from "../../docs/_static/iw_bundles.js";

// The bundles build.mjs writes (its ENTRIES' keys), the names docs/conf.py
// puts in `_module`.
const ENTRIES = readFileSync(resolve(import.meta.dirname, "../build.mjs"), "utf8")
  .match(/const ENTRIES = \{([^}]*)\}/)[1]
  .matchAll(/^\s*(\w+):/gm);
const BUNDLES = [...ENTRIES].map((match) => match[1]);

const BASE = "https://example.org/docs/_static/iw_embed.js";

describe("bundleUrl", () => {
  it("resolves every bundle the build writes in the loader's folder", () => {
    expect(BUNDLES).toContain("permutation_widget");
    expect(BUNDLES.length).toBeGreaterThanOrEqual(5);
    for (const name of BUNDLES) {
      expect(bundleUrl(name, ".js", BASE)).toBe(
        `https://example.org/docs/_static/${name}.js`,
      );
      expect(bundleUrl(name, ".css", BASE)).toBe(
        `https://example.org/docs/_static/${name}.css`,
      );
    }
  });

  it("works from a file:// page too", () => {
    expect(
      bundleUrl("pd_widget", ".js", "file:///home/me/site/_static/iw_embed.js"),
    ).toBe("file:///home/me/site/_static/pd_widget.js");
  });

  it.each([
    "//evil.example/x",
    "https://evil.example/x",
    "../secret",
    "/abs",
    "pd_widget.js",
    "pd_widget/../../x",
    "javascript:alert(1)",
    "data:text/javascript,alert(1)",
    "PD_WIDGET",
    "pd-widget",
    " pd_widget",
    "pd_widget\n",
    "%2e%2e",
    "",
    "\u202epd_widget",
    "x".repeat(100_000),
  ])("refuses bad name %#", (name) => {
    expect(() => bundleUrl(name, ".js", BASE)).toThrow(
      /not the name of one of this site's widget bundles/,
    );
  });

  it.each([undefined, null, 3, ["pd_widget"], { toString: () => "pd_widget" }])(
    "refuses the non-string %j",
    (name) => {
      expect(() => bundleUrl(name, ".js", BASE)).toThrow(/not the name/);
    },
  );

  it("quotes at most 80 characters of a refused name", () => {
    let message = "";
    try {
      bundleUrl("<".repeat(10_000), ".js", BASE);
    } catch (error) {
      message = error.message;
    }
    expect(message.length).toBeLessThan(160);
  });
});

describe("the built bundles", () => {
  it("all have names the loader accepts", () => {
    const folder = resolve(import.meta.dirname, "../../src/inspectwidgets/static");
    let built;
    try {
      built = readdirSync(folder).filter((f) => f.endsWith(".js"));
    } catch {
      return; // not built yet: build.mjs's entries are checked above
    }
    for (const file of built)
      expect(() => bundleUrl(file.slice(0, -3), ".js", BASE)).not.toThrow();
  });
});
