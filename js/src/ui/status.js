// @ts-check
// The status block every widget shows under its controls: a progress bar with
// a line of text, the error box, and the caption that says the output below
// is the last result before an error.

import { formatSeconds } from "../charts/format.js";
import { h } from "./dom.js";

/**
 * A whole number of seconds for an ETA: "<1 s", "4 s", "2 min 5 s".
 *
 * @param {number} seconds
 */
export function formatEta(seconds) {
  if (seconds < 0.5) return "<1 s";
  return seconds < 60 ? `${Math.round(seconds)} s` : formatSeconds(seconds);
}

/**
 * The progress line.
 *
 * @param {{status: string, count?: string, stoppedAt?: string,
 *   etaSeconds?: number, elapsedSeconds?: number, hasResult?: boolean,
 *   phase?: string}} state
 *   `count` is the progress while running ("12 / 30 repeats", "45%"),
 *   `stoppedAt` where a cancelled run stopped (default: `count`); a negative
 *   `etaSeconds` means unknown; `phase` (the `_phase` trait) is what a
 *   running computation does before its first result, shown instead of
 *   `count`, with its own time left if `etaSeconds` is known.
 * @returns {string} e.g. "12 / 30 repeats · about 4 s left", "done in 3.2 s",
 *   "cancelled at 12 / 30", "error", "ready", "not run yet".
 */
export function statusText({
  status,
  count = "",
  stoppedAt = count,
  etaSeconds = -1,
  elapsedSeconds = 0,
  hasResult = false,
  phase = "",
}) {
  switch (status) {
    case "running": {
      // From the chunks timed so far (the first one on), updated with each;
      // during a phase, the phase's own time left, if it has one.
      let eta = "";
      if (etaSeconds >= 0.5) eta = `about ${formatEta(etaSeconds)} left`;
      else if (etaSeconds >= 0) eta = "under 1 s left";
      return [phase || count, eta].filter(Boolean).join(" · ") || "running";
    }
    case "done":
      return `done in ${formatSeconds(elapsedSeconds)}`;
    case "cancelled":
      return stoppedAt ? `cancelled at ${stoppedAt}` : "cancelled";
    case "error":
      return "error";
    default:
      return hasResult ? "ready" : "not run yet";
  }
}

/**
 * Text of the error box: the Python error, then drawing problems.
 *
 * @param {string} status
 * @param {unknown} error the `error` trait.
 * @param {string[]} [problems]
 */
export function errorMessage(status, error, problems = []) {
  const text =
    String(error ?? "") ||
    (status === "error" ? "The computation failed." : "");
  return [text, ...problems].filter(Boolean).join("\n");
}

/**
 * Create the status elements (not yet in the document).
 *
 * @param {string} prefix test-id prefix: `<prefix>-progress`,
 *   `<prefix>-error`, `<prefix>-stale-note`.
 * @returns {{bar: HTMLElement, error: HTMLElement, staleNote: HTMLElement,
 *   update: (state: {status: string, progress: number, text: string,
 *   message: string, details?: string, stale: boolean}) => void}} `bar`
 *   holds the progress bar and its text; `update` sets them all (`message` ""
 *   hides the error box; `details`, the Python traceback of the
 *   `error_details` trait, goes in a closed "details" disclosure inside it).
 */
export function createStatus(prefix) {
  const fill = h("div", { className: "iw-progress-fill" });
  const progress = h(
    "div",
    {
      className: "iw-progress",
      attrs: {
        role: "progressbar",
        "aria-valuemin": 0,
        "aria-valuemax": 100,
        "aria-label": "Progress",
      },
    },
    [fill],
  );
  const text = h("span", {
    className: "iw-progress-text",
    testid: `${prefix}-progress`,
    attrs: { "aria-live": "polite" },
  });
  const bar = h("div", { className: "iw-status" }, [progress, text]);
  const error = h("div", {
    className: "iw-error",
    testid: `${prefix}-error`,
    attrs: { role: "alert" },
  });
  error.hidden = true;
  const messageText = document.createTextNode("");
  // The traceback, for a bug report: folded away, and only in the box while
  // there is one, so the box's text is the message alone otherwise.
  const tracebackText = h("pre", {
    className: "iw-error-traceback",
    testid: `${prefix}-error-traceback`,
  });
  const details = h(
    "details",
    { className: "iw-error-details", testid: `${prefix}-error-details` },
    [h("summary", { text: "details" }), tracebackText],
  );
  error.append(messageText);
  // Under the error box: the output below is dimmed and older than the error.
  const staleNote = h("p", {
    className: "iw-note iw-stale-note",
    testid: `${prefix}-stale-note`,
    text: "Showing the last result before the error.",
  });
  staleNote.hidden = true;

  return {
    bar,
    error,
    staleNote,
    update({
      status,
      progress: value,
      text: line,
      message,
      details: traceback = "",
      stale,
    }) {
      const fraction =
        status === "done" ? 1 : Math.min(1, Math.max(0, Number(value) || 0));
      fill.style.width = `${(fraction * 100).toFixed(1)}%`;
      progress.setAttribute(
        "aria-valuenow",
        String(Math.round(fraction * 100)),
      );
      text.textContent = line;
      messageText.data = message;
      tracebackText.textContent = traceback;
      if (traceback && message) error.append(details);
      else details.remove();
      error.hidden = message === "";
      staleNote.hidden = !stale;
    },
  };
}
