// @ts-check
// One redraw per animation frame, however many trait changes arrive in it.

/**
 * @param {() => void} fn
 * @returns {number}
 */
function requestFrame(fn) {
  return typeof requestAnimationFrame === "function"
    ? requestAnimationFrame(fn)
    : setTimeout(fn, 16);
}

/** @param {number} id */
function cancelFrame(id) {
  if (typeof cancelAnimationFrame === "function") cancelAnimationFrame(id);
  else clearTimeout(id);
}

/**
 * Coalesce calls to `draw` into one per animation frame.
 *
 * @param {() => void} draw
 * @returns {{schedule: () => void, now: () => void, cancel: () => void}}
 *   `schedule` draws in the next frame (once, however often it is called),
 *   `now` draws at once and drops the pending frame, `cancel` drops it.
 */
export function frameScheduler(draw) {
  /** @type {number | null} */
  let id = null;
  const cancel = () => {
    if (id !== null) {
      cancelFrame(id);
      id = null;
    }
  };
  return {
    schedule() {
      if (id === null) {
        id = requestFrame(() => {
          id = null;
          draw();
        });
      }
    },
    now() {
      cancel();
      draw();
    },
    cancel,
  };
}
