// @ts-check
// Controls the widgets share: the repeats input, a segmented switch (the
// permutation widget's kind, the comparison widget's view), the Run / Stop
// buttons, and a labelled select with its options (the "split by" of the
// partial dependence and permutation widgets). Each returns its elements;
// the widget places them.

import { h } from "./dom.js";
import { nameOption } from "../charts/format.js";

/**
 * Call `commit` when Enter is pressed in `input`. Enter's keydown stops
 * there: in JupyterLab it would otherwise reach the notebook's shortcuts, and
 * a number field outside a form commits nothing on Enter by itself, so the
 * value only went to Python when the field was left.
 *
 * @param {HTMLInputElement} input
 * @param {() => void} commit
 * @param {ReturnType<typeof import("./dom.js").listenerBag>} dom
 */
export function commitOnEnter(input, commit, dom) {
  dom.on(input, "keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    commit();
  });
}

/**
 * A number input bound to an integer trait: it shows the trait (unless the
 * user is typing in it) and writes whole numbers >= `min` on change and on
 * Enter (`commitOnEnter`); other
 * values are replaced by the trait's. Whole numbers above 2^53 - 1 are
 * refused too: they reach Python rounded (99999999999999999999 as
 * 10**20) or, from 1e21 on, as floats that the Int trait refuses while the
 * page keeps showing them.
 *
 * @param {string} testid
 * @param {{trait: string, label: string, min?: number, fallback?: number}}
 *   options `fallback` is shown while the trait is unset.
 * @param {{model: import("./model.js").WidgetModel,
 *   binding: ReturnType<typeof import("./model.js").bindModel>,
 *   dom: import("./dom.js").ListenerBag}} context
 * @returns {{input: HTMLInputElement, field: HTMLElement, sync: () => void}}
 *   `field` is the labelled input.
 */
export function integerInput(
  testid,
  { trait, label, min = 1, fallback = min },
  { model, binding, dom },
) {
  const input = h("input", {
    testid,
    attrs: { type: "number", min, step: 1, "aria-label": label },
  });
  const field = h("label", { className: "iw-field" }, [
    h("span", { text: label }),
    input,
  ]);
  const current = () => String(model.get(trait) ?? fallback);
  const sync = () => {
    if (document.activeElement !== input || input.value === "")
      input.value = current();
  };
  const commit = () => {
    const n = Number(input.value);
    if (!Number.isSafeInteger(n) || n < min) {
      input.value = current();
      return;
    }
    if (n !== model.get(trait)) binding.save({ [trait]: n });
    input.value = String(n); // what was sent: "1e9" reads 1000000000
  };
  dom.on(input, "change", commit);
  commitOnEnter(input, commit, dom);
  binding.on(trait, sync);
  sync();
  return { input, field, sync };
}

/**
 * A number input bound to the `n_repeats` trait (see `integerInput`).
 *
 * @param {string} testid
 * @param {Parameters<typeof integerInput>[2]} context
 * @returns {ReturnType<typeof integerInput>}
 */
export function repeatsInput(testid, context) {
  return integerInput(
    testid,
    { trait: "n_repeats", label: "Repeats" },
    context,
  );
}

/**
 * A row of toggle buttons, one per value of a trait; the pressed one has
 * `aria-pressed="true"`.
 *
 * @param {[string, string][]} choices `[value, label]` pairs.
 * @param {string} testidPrefix each button is `<testidPrefix>-<value>`.
 * @param {string} groupLabel the accessible name of the row.
 * @returns {{node: HTMLElement, buttons: Map<string, HTMLButtonElement>,
 *   setValue: (value: string) => void}}
 */
export function segmentedSwitch(choices, testidPrefix, groupLabel) {
  const buttons = new Map(
    choices.map(([value, label]) => [
      value,
      h("button", {
        testid: `${testidPrefix}-${value}`,
        text: label,
        attrs: { type: "button", "aria-pressed": "false" },
      }),
    ]),
  );
  const node = h(
    "div",
    {
      className: "iw-segmented",
      attrs: { role: "group", "aria-label": groupLabel },
    },
    [...buttons.values()],
  );
  return {
    node,
    buttons,
    setValue(value) {
      for (const [name, button] of buttons)
        button.setAttribute("aria-pressed", String(name === value));
    },
  };
}

/**
 * Run and Stop buttons (`<prefix>-run`, `<prefix>-stop`).
 *
 * @param {string} prefix
 * @returns {{run: HTMLButtonElement, stop: HTMLButtonElement}}
 */
export function runStopButtons(prefix) {
  return {
    run: h("button", {
      className: "iw-primary iw-run",
      testid: `${prefix}-run`,
      text: "Run",
      attrs: { type: "button" },
    }),
    stop: h("button", {
      className: "iw-stop",
      testid: `${prefix}-stop`,
      text: "Stop",
      attrs: { type: "button" },
    }),
  };
}

/**
 * Send a control's value to `trait` when the user changes it: a checkbox's
 * `checked`, any other control's `value`.
 *
 * @param {HTMLInputElement | HTMLSelectElement} control
 * @param {string} trait
 * @param {Parameters<typeof integerInput>[2]} context
 */
export function saveOnChange(control, trait, { binding, dom }) {
  dom.on(control, "change", () =>
    binding.save({
      [trait]: control.type === "checkbox" ? control.checked : control.value,
    }),
  );
}

/**
 * Run asks Python for a run; Stop asks it to stop, only while one runs.
 *
 * @param {ReturnType<typeof runStopButtons>} buttons
 * @param {Parameters<typeof integerInput>[2]} context
 */
export function bindRunStop({ run, stop }, { model, binding, dom }) {
  dom.on(run, "click", () => binding.increment("_run_requests"));
  dom.on(stop, "click", () => {
    if (model.get("status") === "running") binding.increment("_stop_requests");
  });
}

/**
 * A labelled select.
 *
 * @param {string} testid
 * @param {string} label
 */
export function selectField(testid, label) {
  const select = h("select", { testid, attrs: { "aria-label": label } });
  const field = h("label", { className: "iw-field" }, [
    h("span", { text: label }),
    select,
  ]);
  return { select, field };
}

/**
 * Replace the options of `select` (text via textContent) and select `value`.
 *
 * @param {HTMLSelectElement} select
 * @param {[string, string][]} options `[value, label]` pairs.
 * @param {string | undefined} value
 */
export function fillSelect(select, options, value) {
  const known = options.some(([v]) => v === value);
  /** @type {[string, string][]} */
  const all =
    known || value === undefined || value === ""
      ? options
      : [...options, [value, value]];
  select.replaceChildren(
    ...all.map(([v, label]) => nameOption(label, v)),
  );
  select.value = value ?? "";
}

/**
 * A button that opens and closes part of a widget on demand (the
 * inspector's settings and cohort form): `aria-expanded` says which, for
 * screen readers and for the CSS that hides the part. A button, not a
 * `<details>`: what it opens lies inside the views, not beside it.
 *
 * @param {string} testid
 * @param {string} label
 * @param {string} title
 * @param {ReturnType<typeof import("./dom.js").listenerBag>} dom
 * @param {(open: boolean) => void} onToggle
 * @returns {{button: HTMLButtonElement, isOpen: () => boolean}}
 */
export function disclosureButton(testid, label, title, dom, onToggle) {
  const button = h("button", {
    className: "iw-disclosure",
    testid,
    text: label,
    attrs: { type: "button", "aria-expanded": "false", title },
  });
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  dom.on(button, "click", () => {
    button.setAttribute("aria-expanded", String(!isOpen()));
    onToggle(isOpen());
  });
  return { button, isOpen };
}
