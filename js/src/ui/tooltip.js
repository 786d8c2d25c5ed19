// @ts-check
// A tooltip box positioned inside a host element (which must be
// `position: relative`). Lines are set with textContent only.

import { select } from "d3-selection";

/**
 * Create a hidden tooltip inside `host`.
 *
 * @param {HTMLElement} host
 * @param {{testid: string, className?: string}} options `className` is added
 *   to "iw-tooltip".
 * @returns {Tooltip}
 *
 * @typedef {object} Tooltip
 * @property {HTMLElement} node
 * @property {(lines: [string, string][]) => void} fill `[className, text]`
 *   per line ("" for no class).
 * @property {(at: {clientX?: number, clientY?: number, anchor?: Element})
 *   => void} show next to the pointer, or under `anchor` (keyboard focus).
 * @property {() => void} hide
 * @property {() => boolean} visible
 * @property {() => void} destroy removes the node.
 */
export function createTooltip(host, { testid, className = "" }) {
  const node = document.createElement("div");
  host.append(node);
  const tip = select(node)
    .attr("class", `iw-tooltip ${className}`.trim())
    .attr("data-testid", testid)
    .attr("role", "tooltip")
    .style("display", "none");

  return {
    node,
    fill(lines) {
      tip
        .selectAll("div")
        .data(lines)
        .join("div")
        .attr("class", ([cls]) => cls || null)
        .text(([, text]) => text);
    },
    show({ clientX, clientY, anchor } = {}) {
      tip.style("display", null);
      const box = host.getBoundingClientRect();
      let left = 0;
      let top = 0;
      if (clientX === undefined || clientY === undefined) {
        if (anchor) {
          const at = anchor.getBoundingClientRect();
          left = at.left - box.left + at.width / 2;
          top = at.bottom - box.top + 4;
        }
      } else {
        left = clientX - box.left + 14;
        top = clientY - box.top + 14;
      }
      const width = node.offsetWidth;
      if (box.width > 0 && left + width > box.width)
        left = Math.max(0, box.width - width);
      tip.style("left", `${left}px`).style("top", `${top}px`);
    },
    hide() {
      tip.style("display", "none");
    },
    visible() {
      return node.style.display !== "none";
    },
    destroy() {
      tip.remove();
    },
  };
}
