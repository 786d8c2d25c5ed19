// jsdom has no SVG geometry: give SVG elements just enough of `transform.baseVal`
// for d3-interpolate to tween "translate(x,y)" transforms (the only kind the
// charts and d3-axis write). Browsers provide the real thing.
if (
  typeof SVGElement !== "undefined" &&
  !("transform" in SVGElement.prototype)
) {
  Object.defineProperty(SVGElement.prototype, "transform", {
    configurable: true,
    get() {
      const text = this.getAttribute("transform") ?? "";
      return {
        baseVal: {
          consolidate() {
            const match =
              /translate\(\s*([-\d.e]+)(?:[\s,]+([-\d.e]+))?\s*\)/.exec(text);
            if (!match) return null;
            const e = Number(match[1]);
            const f = Number(match[2] ?? 0);
            return { matrix: { a: 1, b: 0, c: 0, d: 1, e, f } };
          },
        },
      };
    },
  });
}
