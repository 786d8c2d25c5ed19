import { describe, expect, it } from "vitest";

import {
  MAX_NAME_CHARS,
  MAX_RULE_CHARS,
  columnFormat,
  cutName,
  formatNumber,
  formatSeconds,
  isolate,
  isolateRule,
  isolateWhole,
  nameOption,
  showName,
  visibleName,
} from "./format.js";

describe("helpers", () => {
  it("formatNumber and formatSeconds are short and readable", () => {
    expect(formatNumber(0.452)).toBe("0.452");
    expect(formatNumber(-0.0512)).toBe("−0.0512");
    expect(formatNumber(1234.5)).toBe("1,235");
    expect(formatNumber(0.0000123)).toBe("1.23e-5");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(NaN)).toBe("n/a");
    expect(formatSeconds(3.21)).toBe("3.2 s");
    expect(formatSeconds(42.4)).toBe("42 s");
    expect(formatSeconds(125)).toBe("2 min 5 s");
    expect(formatSeconds(120)).toBe("2 min");
    expect(formatSeconds(0)).toBe("<0.1 s");
    expect(formatSeconds(0.04)).toBe("<0.1 s");
    expect(formatSeconds(0.06)).toBe("0.1 s");
    expect(formatNumber(0.000874)).toBe("0.000874");
    expect(formatNumber(0.0001)).toBe("0.0001");
  });

  it("columnFormat keeps one notation for a whole column", () => {
    const importance = columnFormat([0.0122, 0.0035, 0.000874, 0.00001, 0]);
    const column = [0.0122, 0.0035, 0.000874, 0.000012, -0.000012, 0, -3e-7];
    expect(column.map(importance)).toEqual([
      "0.0122",
      "0.0035",
      "0.000874",
      "0.000012",
      "−0.000012",
      "0",
      "0",
    ]);
    const large = columnFormat(Float32Array.from([2900, 12.5, -0.5]));
    expect([2900, 12.5, -0.5].map(large)).toEqual(["2,900", "12.5", "−0.5"]);
    const tiny = columnFormat([8.74e-5, 1.2e-6, 0]);
    expect([8.74e-5, 1.2e-6, 0].map(tiny)).toEqual(["8.74e-5", "1.2e-6", "0"]);
    const none = columnFormat(null);
    expect([NaN, Infinity, 0.5].map(none)).toEqual(["n/a", "n/a", "0.5"]);
  });
});

describe("isolate", () => {
  it("sets a name apart with FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE", () => {
    expect(isolate("age")).toBe("\u2068age\u2069");
    expect(isolate(3)).toBe("\u20683\u2069");
    // An override inside ends at the isolate's end (the browser lays it
    // out: tests/browser/test_shared_review.py checks the order drawn).
    const text = `${isolate("\u202eevil")} = 1`;
    expect(text.indexOf("\u2069")).toBeLessThan(text.indexOf(" = 1"));
  });
});

describe("visibleName", () => {
  it("draws names that differ invisibly apart, as the figures draw them", () => {
    // Cyrillic а, a trailing space, a zero-width joiner, a non-breaking space.
    const names = ["age", "age ", "\u0430ge", "a\u200dge", "a\u00a0ge"];
    const shown = names.map(visibleName);
    expect(shown).toEqual(["age", "age\u2423", "\\u0430ge", "a\\u200dge", "a\\xa0ge"]);
    expect(new Set(shown).size).toBe(names.length);
    expect(visibleName(" x")).toBe("\u2423x");
    expect(visibleName("x\u0000y")).toBe("x\\x00y");
  });

  it("leaves a plain name, one script alone and bidi controls as they are", () => {
    for (const name of ["age", "naïve", "Москва", "μ (mean)", "年齢", "a b", "\u202eevil"])
      expect(visibleName(name)).toBe(name);
  });

  it("is what isolate() and truncate() draw", () => {
    expect(isolate("age ")).toBe("\u2068age\u2423\u2069");
  });
});

describe("cutName", () => {
  it("cuts a long name to MAX_NAME_CHARS, ending with an ellipsis", () => {
    expect(cutName("age")).toBe("age");
    const exact = "x".repeat(MAX_NAME_CHARS);
    expect(cutName(exact)).toBe(exact);
    const cut = cutName(`${exact}y`);
    expect(cut).toBe(`${"x".repeat(MAX_NAME_CHARS - 1)}…`);
    expect(cutName("abcdef", 4)).toBe("abc…");
  });

  it("never cuts a character outside the BMP in half", () => {
    const faces = "😀".repeat(MAX_NAME_CHARS); // 2 UTF-16 units each
    expect(cutName(faces)).toBe(faces);
    const cut = cutName(`${faces}😀`);
    expect(Array.from(cut)).toHaveLength(MAX_NAME_CHARS);
    expect(cut.endsWith("😀…")).toBe(true);
  });

  it("bounds every label: a 1 MB name, as visibleName, isolate and a truncated tick draw it", () => {
    const huge = "n".repeat(1_000_000);
    expect(visibleName(huge)).toHaveLength(MAX_NAME_CHARS);
    expect(isolate(huge)).toHaveLength(MAX_NAME_CHARS + 2);
    // Escapes count after the cut: a long name of zero-width joiners.
    expect(visibleName("\u200d".repeat(10_000))).toHaveLength(MAX_NAME_CHARS);
  });
});

describe("showName", () => {
  const huge = "n".repeat(1_000_000);

  it("draws an HTML label cut, the whole name in its title", () => {
    const span = document.createElement("span");
    showName(span, huge);
    expect(span.textContent).toBe(visibleName(huge));
    expect(span.getAttribute("title")).toBe(huge);
    // A short name drawn as itself has no title to add; an earlier one goes.
    showName(span, "age");
    expect(span.textContent).toBe("age");
    expect(span.hasAttribute("title")).toBe(false);
  });

  it("gives an SVG label a <title> child (SVG has no title attribute)", () => {
    const ns = "http://www.w3.org/2000/svg";
    const text = document.createElementNS(ns, "text");
    showName(text, huge);
    showName(text, `${huge}m`); // redrawn: one title, the new name's
    const titles = text.querySelectorAll("title");
    expect(titles).toHaveLength(1);
    expect(titles[0].textContent).toBe(`${huge}m`);
    expect(text.firstChild?.nodeValue).toBe(visibleName(huge));
    expect(text.hasAttribute("title")).toBe(false);
    showName(text, "age");
    expect(text.textContent).toBe("age");
    expect(text.querySelector("title")).toBeNull();
  });

  it("draws a composed label as given, the name whole on hover", () => {
    const span = document.createElement("span");
    showName(span, huge, `${isolate(huge)} (n = 40)`);
    expect(span.textContent).toBe(`${isolate(huge)} (n = 40)`);
    expect(span.title).toBe(huge);
    showName(null, huge); // a node not drawn yet: nothing to do
    // A hover title composed of the name and more holds it whole.
    expect(isolateWhole(huge)).toBe(`\u2068${huge}\u2069`);
  });
});

describe("nameOption", () => {
  it("keeps the whole name as the value, draws it cut, whole on hover", () => {
    const huge = "m".repeat(1_000_000);
    const option = nameOption(huge);
    expect(option.value).toBe(huge);
    expect(option.textContent).toBe(visibleName(huge));
    expect(option.title).toBe(huge);
    const menu = document.createElement("select");
    menu.append(nameOption("r2"), option);
    menu.value = huge;
    expect(menu.selectedIndex).toBe(1);
    // A short name as itself; a label apart from its value (a menu of keys).
    expect(nameOption("r2").outerHTML).toBe('<option value="r2">r2</option>');
    expect(nameOption("Gini importance", "mdi").value).toBe("mdi");
  });
});

describe("isolateWhole", () => {
  it("keeps the whole name, for a title shown on hover", () => {
    const long = "a".repeat(MAX_NAME_CHARS + 5);
    expect(isolateWhole(long)).toBe(`\u2068${long}\u2069`);
    expect(isolate(long)).toBe(`\u2068${"a".repeat(MAX_NAME_CHARS - 1)}…\u2069`);
    expect(isolateWhole("age ")).toBe("\u2068age␣\u2069");
  });
});

describe("isolateRule", () => {
  it("cuts a rule at MAX_RULE_CHARS, not at a name's length", () => {
    const a = "`mean concavity` <= 0.0865 and `mean concave points` <= 0.024";
    const b = "`mean concavity` <= 0.0865 and `mean concave points` > 0.024";
    // Cut as names, the two subgroups were drawn alike.
    expect(isolateRule(a)).toBe(`\u2068${a}\u2069`);
    expect(isolateRule(a)).not.toBe(isolateRule(b));
    const long = "x".repeat(MAX_RULE_CHARS + 10);
    expect(isolateRule(long)).toBe(`\u2068${"x".repeat(MAX_RULE_CHARS - 1)}…\u2069`);
  });
});
