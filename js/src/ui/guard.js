// @ts-check
// Where a widget view's own errors end. Every draw and update path of a
// widget (its redraw per frame, its model listeners, each chart's update) runs
// through the view's guard, so a bug in the front end, or trait values it
// did not expect, is logged with console.error and shown in the widget in
// words, instead of escaping: an exception thrown from a model listener
// would stop Backbone's other listeners (and the next trait updates), and one
// thrown from the redraw would leave the progress line frozen at its last
// "94 % · under 1 s left" while Python is done.
//
// Python's own errors are not this: they arrive in the `error` trait and show
// in the status block (status.js).

import { h } from "./dom.js";

/**
 * What a thrown value says: its `message` if it has one, else itself.
 *
 * @param {unknown} err
 * @returns {string}
 */
export function messageOf(err) {
  const message =
    typeof err === "object" && err !== null && "message" in err
      ? err.message
      : undefined;
  return String(message ?? err);
}

/**
 * Create the guard of one view. Its error box, `node`, is not yet in the
 * document: `attach` says where it is and what it marks.
 *
 * @param {string} prefix the error box is `<prefix>-view-error`.
 * @returns {{node: HTMLElement,
 *   attach: (parts: {root: HTMLElement, statusBar?: HTMLElement}) => void,
 *   run: <T>(part: string, fn: () => T, options?: {updatesStatus?: boolean})
 *     => T | undefined,
 *   wrap: <A extends unknown[]>(part: string, fn: (...args: A) => unknown,
 *     options?: {updatesStatus?: boolean}) => (...args: A) => void,
 *   failing: () => string[]}}
 *   `attach`: `root` gets `data-view-error` while a part fails;
 *   `statusBar` is hidden while a part that updates it (`updatesStatus`)
 *   fails, its text being stale. `run` calls `fn` and returns its value;
 *   when it throws, the error is logged and shown under `part` ("the
 *   chart"), and undefined returned. The message stays until `part` next
 *   runs without an error. `wrap` returns `fn` guarded that way. `failing`
 *   lists the parts shown as failed.
 */
export function createViewGuard(prefix) {
  /** @type {HTMLElement | null} */
  let root = null;
  /** @type {HTMLElement | null | undefined} */
  let statusBar = null;
  const node = h("div", {
    className: "iw-error iw-view-error",
    testid: `${prefix}-view-error`,
    attrs: { role: "alert" },
  });
  node.hidden = true;
  /** @type {Map<string, {message: string, updatesStatus: boolean}>} */
  const failures = new Map();

  function show() {
    node.textContent = [...failures]
      .map(([part, { message }]) => `Could not show ${part}: ${message}`)
      .concat(failures.size > 0 ? ["(Details in the browser console.)"] : [])
      .join("\n");
    node.hidden = failures.size === 0;
    root?.toggleAttribute("data-view-error", failures.size > 0);
    if (statusBar)
      statusBar.hidden = [...failures.values()].some((f) => f.updatesStatus);
  }

  /**
   * @template T
   * @param {string} part
   * @param {() => T} fn
   * @param {{updatesStatus?: boolean}} [options]
   * @returns {T | undefined}
   */
  function run(part, fn, { updatesStatus = false } = {}) {
    try {
      const value = fn();
      if (failures.delete(part)) show();
      return value;
    } catch (err) {
      console.error(`inspectwidgets: could not show ${part}`, err);
      const message = messageOf(err) || "unknown error";
      failures.set(part, { message, updatesStatus });
      show();
      return undefined;
    }
  }

  return {
    node,
    attach(parts) {
      root = parts.root;
      statusBar = parts.statusBar ?? null;
      show();
    },
    run,
    wrap:
      (part, fn, options) =>
      (...args) => {
        run(part, () => fn(...args), options);
      },
    failing: () => [...failures.keys()],
  };
}

/**
 * What a widget's `render` is handed: anywidget's RenderProps, or the
 * inspector's sub-model and host element (inspector/sub_model.js).
 *
 * @typedef {{model: import("./model.js").WidgetModel, el: HTMLElement}}
 *   ViewProps
 */

/**
 * A widget's `render` that never throws: an error while building the view is
 * logged and shown in `el` (the view's own guard takes over once built).
 *
 * @param {(props: ViewProps) => (() => void)} render
 * @returns {(props: ViewProps) => (() => void)}
 */
export function guardRender(render) {
  return (props) => {
    try {
      const cleanup = render(props);
      countView(props.model);
      return cleanup;
    } catch (err) {
      console.error("inspectwidgets: could not show the widget", err);
      const box = h("div", {
        className: "inspectwidgets",
        attrs: { role: "alert" },
      });
      box.append(
        h("div", {
          className: "iw-error iw-view-error",
          text: `Could not show the widget: ${messageOf(err)}\n(Details in the browser console.)`,
        }),
      );
      props.el.append(box);
      return () => box.remove();
    }
  };
}

/**
 * Tell the kernel a front end drew a view (`_views_rendered`): a widget no
 * front end drew adds its chart's PNG to the notebook's output when its run
 * ends (widgets/_figures.py, `NotebookPicture`), which here would make the
 * output area draw the whole view again.
 *
 * @param {ViewProps["model"]} model
 */
function countView(model) {
  model.set("_views_rendered", (Number(model.get("_views_rendered")) || 0) + 1);
  model.save_changes();
}
