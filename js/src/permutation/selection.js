// @ts-check
// The permutation widget's staged choices of features and scorers: clicks in
// the checklists (and All / None / Top k) change a pending set, shown at once
// with its counts, and "Apply" (or "Run") sends it to Python, so a series of
// clicks starts one computation, not one per click. Never sends an empty list.

import { createChecklist } from "../ui/checklist.js";
import { sameMembers } from "./permutation_data.js";

/**
 * Create the feature and scorer checklists in `ui.featureList` and
 * `ui.scorerList`, and keep the counts, Apply, Run and the hint of `ui` in
 * step with the staged choices.
 *
 * @param {ReturnType<typeof import("./controls.js").buildControls>} ui
 * @param {{model: import("../ui/model.js").WidgetModel,
 *   binding: ReturnType<typeof import("../ui/model.js").bindModel>}} context
 */
export function createSelection(ui, { model, binding }) {
  const { save, list } = binding;

  // Staged multi-select choices; null = follow the model.
  /** @type {Set<string> | null} */
  let pendingFeatures = null;
  /** @type {Set<string> | null} */
  let pendingScorers = null;
  const chosenFeatures = () => pendingFeatures ?? new Set(list("features"));
  const chosenScorers = () => pendingScorers ?? new Set(list("scoring"));
  const featuresChanged = () =>
    pendingFeatures !== null && !sameMembers(pendingFeatures, list("features"));
  const scorersChanged = () =>
    pendingScorers !== null && !sameMembers(pendingScorers, list("scoring"));

  const featureList = createChecklist(ui.featureList, {
    testid: "piw-feature-option",
    dataAttribute: "data-feature",
    label: "Features",
    onToggle(name, checked) {
      const next = new Set(chosenFeatures());
      if (checked) next.add(name);
      else next.delete(name);
      pendingFeatures = next;
      syncSelection();
    },
  });
  const scorerList = createChecklist(ui.scorerList, {
    testid: "piw-scorer-option",
    dataAttribute: "data-scorer",
    label: "Scorers",
    onToggle(name, checked) {
      const next = new Set(chosenScorers());
      if (checked) next.add(name);
      else next.delete(name);
      pendingScorers = next;
      syncSelection();
    },
  });

  /** Why the staged choices cannot be sent (empty lists), as sentences. */
  function selectionProblems() {
    const problems = [];
    if (chosenFeatures().size === 0)
      problems.push("Select at least one feature.");
    if (chosenScorers().size === 0)
      problems.push("Select at least one scorer.");
    return problems;
  }

  /** Reflect staged choices: checkboxes, counts, Apply/Run, hint. */
  function syncSelection() {
    const options = list("_feature_options");
    const features = chosenFeatures();
    const scorers = chosenScorers();
    featureList.setSelected(features);
    scorerList.setSelected(scorers);
    ui.featureCount.textContent = `${[...features].filter((f) => options.includes(f)).length} of ${options.length}`;
    const scorerOptions = scorerList.options();
    ui.scorerCount.textContent = `${[...scorers].filter((s) => scorerOptions.includes(s)).length} of ${scorerOptions.length}`;

    const problems = selectionProblems();
    const changed = featuresChanged() || scorersChanged();
    ui.apply.disabled = !changed || problems.length > 0;
    ui.run.disabled = problems.length > 0;
    ui.apply.classList.toggle(
      "piw-attention",
      changed && problems.length === 0,
    );
    ui.hint.textContent =
      problems.length > 0
        ? problems.join(" ")
        : changed
          ? "Not applied yet: applies when you leave the list (or Apply, Run)."
          : "";
    ui.hint.classList.toggle("piw-hint-problem", problems.length > 0);
  }

  /** Send staged choices to Python (which reruns). Returns whether it sent. */
  function applyPending() {
    if (selectionProblems().length > 0) return false;
    /** @type {Record<string, unknown>} */
    const values = {};
    // featuresChanged() and scorersChanged() hold only while staged.
    const features = pendingFeatures;
    const scorers = pendingScorers;
    if (features !== null && featuresChanged()) {
      const options = list("_feature_options");
      values.features = [
        ...options.filter((f) => features.has(f)),
        ...[...features].filter((f) => !options.includes(f)),
      ];
    }
    if (scorers !== null && scorersChanged()) {
      const options = list("_scorer_options");
      const scoring = [
        ...options.filter((s) => scorers.has(s)),
        ...[...scorers].filter((s) => !options.includes(s)),
      ];
      values.scoring = scoring;
      if (!scoring.includes(model.get("scorer"))) values.scorer = scoring[0];
    }
    if (Object.keys(values).length === 0) return false;
    pendingFeatures = null;
    pendingScorers = null;
    save(values);
    syncSelection();
    return true;
  }

  function syncFeatureOptions() {
    featureList.setOptions(list("_feature_options"));
    syncSelection();
  }

  function syncScorerOptions() {
    const options = list("_scorer_options");
    const extra = list("scoring").filter((s) => !options.includes(s));
    scorerList.setOptions([...options, ...extra]);
    syncSelection();
  }

  return {
    problems: selectionProblems,
    apply: applyPending,
    syncFeatureOptions,
    syncScorerOptions,
    /**
     * Show only the features whose names contain `text` (any case).
     *
     * @param {string} text
     */
    setFilter(text) {
      featureList.setFilter(text);
    },
    /** Stage every feature shown (as filtered) in addition to the chosen. */
    selectShown() {
      pendingFeatures = new Set([
        ...chosenFeatures(),
        ...featureList.visibleOptions(),
      ]);
      syncSelection();
    },
    /** Stage the chosen features minus those shown. */
    unselectShown() {
      const next = new Set(chosenFeatures());
      for (const name of featureList.visibleOptions()) next.delete(name);
      pendingFeatures = next;
      syncSelection();
    },
    /**
     * Stage exactly `names`.
     *
     * @param {Iterable<string>} names
     */
    selectFeatures(names) {
      pendingFeatures = new Set(names);
      syncSelection();
    },
    /** The `features` trait changed: follow it unless choices are staged. */
    followFeatures() {
      if (!featuresChanged()) pendingFeatures = null;
      syncSelection();
    },
    /** The `scoring` trait changed: follow it unless choices are staged. */
    followScoring() {
      if (!scorersChanged()) pendingScorers = null;
      syncScorerOptions();
    },
    destroy() {
      featureList.destroy();
      scorerList.destroy();
    },
  };
}
