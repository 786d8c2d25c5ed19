import { describe, expect, it, vi } from "vitest";

import {
  DEFAULT_WIDTH,
  measureWidth,
  observeTheme,
  truncate,
  wrapLabel,
} from "./chart_base.js";

describe("wrapLabel", () => {
  it("keeps text that fits on one line", () => {
    expect(wrapLabel("prediction", 36, 3)).toEqual(["prediction"]);
    expect(wrapLabel("  ", 36, 3)).toEqual([]);
  });

  it("puts one clause per line when each fits", () => {
    expect(
      wrapLabel(
        "partial dependence (prediction), change from the first grid value",
        36,
        3,
      ),
    ).toEqual([
      "partial dependence (prediction),",
      "change from the first grid value",
    ]);
  });

  it("balances wrapped words, every word kept", () => {
    const text =
      "centered log-odds of class versicolor, change from the first grid value";
    const lines = wrapLabel(text, 36, 3);
    expect(lines).toEqual([
      "centered log-odds of",
      "class versicolor, change",
      "from the first grid value",
    ]);
    expect(lines.join(" ")).toBe(text);
  });

  it("cuts over-long words and ends with an ellipsis past maxLines", () => {
    expect(wrapLabel("a".repeat(12), 5, 3)).toEqual(["aaaaa", "aaaaa", "aa"]);
    const lines = wrapLabel("one two three four five six seven", 9, 2);
    expect(lines).toEqual(["one two", "three fo…"]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(9);
  });
});

describe("helpers", () => {
  it("truncate keeps short names and shortens long ones", () => {
    expect(truncate("age", 10)).toBe("age");
    expect(truncate("abcdefghij", 5)).toBe("abcd…");
  });
});

describe("measureWidth", () => {
  it("keeps a container's last width while it has no layout", () => {
    const container = document.createElement("div");
    let width = 0;
    Object.defineProperty(container, "clientWidth", { get: () => width });
    expect(measureWidth(container)).toBe(DEFAULT_WIDTH); // never laid out
    width = 368;
    expect(measureWidth(container)).toBe(368);
    width = 0; // hidden for a moment (a theme change in JupyterLab)
    expect(measureWidth(container)).toBe(368);
    width = 500;
    expect(measureWidth(container, 10)).toBe(500);
  });
});

describe("observeTheme", () => {
  it("calls back when JupyterLab switches theme, until stopped", async () => {
    const onChange = vi.fn();
    const stop = observeTheme(onChange);
    document.body.setAttribute("data-jp-theme-light", "false");
    await Promise.resolve();
    expect(onChange).toHaveBeenCalledTimes(1);
    // Other attributes of <body> are not a theme change.
    document.body.setAttribute("data-other", "x");
    await Promise.resolve();
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
    document.body.setAttribute("data-jp-theme-light", "true");
    await Promise.resolve();
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
