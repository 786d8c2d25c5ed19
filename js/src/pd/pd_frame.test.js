import { describe, expect, it, vi } from "vitest";

import { oneWayHandle } from "./pd_frame.js";

/** A handle over a fake chart: counts its draws. */
function handle() {
  const draw = vi.fn(() => ({ iceDrawn: 0, bars: 0 }));
  const chart = oneWayHandle({
    frame: /** @type {any} */ ({ root: { remove() {} } }),
    pointer: /** @type {any} */ ({ stop() {} }),
    hide() {},
    setCurve() {},
    draw,
  });
  return { chart, draw };
}

describe("oneWayHandle", () => {
  it("repaints on a theme switch once drawn (the canvas keeps its colour)", async () => {
    const { chart, draw } = handle();
    document.body.setAttribute("data-jp-theme-name", "JupyterLab Dark");
    await Promise.resolve();
    expect(draw).not.toHaveBeenCalled();
    chart.update(/** @type {any} */ ({}));
    expect(draw).toHaveBeenCalledTimes(1);
    document.body.setAttribute("data-jp-theme-name", "JupyterLab Light");
    await Promise.resolve();
    expect(draw).toHaveBeenCalledTimes(2);
    chart.destroy();
    document.body.setAttribute("data-jp-theme-name", "JupyterLab Dark");
    await Promise.resolve();
    expect(draw).toHaveBeenCalledTimes(2);
  });
});
