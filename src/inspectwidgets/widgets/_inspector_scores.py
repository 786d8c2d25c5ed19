"""ModelInspector's header scores: each model's held-out score beside the
dummy's, taken from the held-out Importance run's baseline where that run
starts as the inspector opens (its first walk of X), else scored here."""

from ._embedding import PERMUTATION_VIEWS
from ._inspector_models import (
    add_other_columns,
    header_of_models,
    rescored_header,
    score_models,
)
from ._permutation import engine_scoring
from ._review_header import review_header, scores_frame, with_model_scores


class InspectorScores:
    """The header's scores, for :class:`~._inspector_views.InspectorViews`
    (the attributes it reads are ModelInspector's)."""

    def _open_header(self, run):
        """The header, its scores to come from the held-out Importance run's
        first walk where `run` starts that view, else scored here."""
        self._header = self._header_content()
        if not self._other_models:  # several: the run's baselines (_models_scored)
            scoring = self._held_out_scoring()
            self._shared.when_baseline(
                "test", self._estimator, scoring, self._score_header
            )
        scored = self._header.get("model_scores") == "done"  # every model's kept
        if not (scored or (run and self._tab() == "importance")):
            self._score_header_now()

    def _follow_scoring(self, scoring):
        """The held-out Importance view's scorers were chosen in its
        checklist: every view listing scorers follows them (#52), the
        header's score table (scored with that view's next baseline) and
        the other Importance views (when next shown)."""
        scoring = list(scoring)
        if scoring == self._scoring or self._other_models:
            return
        self._scoring = scoring
        for key in PERMUTATION_VIEWS:
            child = self._children.get(key)
            if key == "importance" or child is None:
                continue
            # The Comparison view measures with the first scorer alone.
            value = scoring if isinstance(child.scoring, list) else scoring[0]
            if child.scoring != value:
                with self._quietly(key):
                    child.scoring = value
        header = self._header_content()
        with self._lock:  # the cohorts' lines kept: rescored with the view
            cohorts = self._header.get("cohorts")
            self._header = header if cohorts is None else {**header, "cohorts": cohorts}
        self._shared.when_baseline(
            "test", self._estimator, self._held_out_scoring(), self._score_header
        )

    def _header_after_importance(self, status):
        """Scores for a header still without them once the held-out run
        ends without a baseline (or ends well after failing): scored here if
        it was cancelled or split (a subgroup run shares no baseline of
        every row), marked
        failed if the model failed to predict (the view shows the error)."""
        if self._header.get("model_scores") not in ("pending", "failed"):
            return
        # Cancelled, or done split (by the cohorts): a subgroup run scores
        # its subgroups' rows, not all of them.
        if status in ("cancelled", "done"):
            self._score_header_now()
        elif status == "error":
            with self._lock:
                self._header = {**self._header, "model_scores": "failed"}

    def _header_frame(self):
        if self._header.get("model_scores") != "done":
            self._score_header_now()
        return add_other_columns(scores_frame(self._header), self._header)

    def _header_rows(self, n_rows_views):
        with self._lock:
            self._header = {**self._header, "n_rows_views": n_rows_views}

    def _header_content(self):
        """The header without the model's scores: they come with the held-out
        baseline (`_score_header`)."""
        X_train, y_train = self._train
        scorers = self._shared.scorer_names(self._estimator, self._held_out_scoring())
        header = {
            **review_header(
                self._estimator,
                self._X,
                self._y,
                X_train=X_train,
                y_train=y_train,
                scorers=scorers,
                n_rows_views=min(self.max_rows, self._X.shape[0]),
            ),
            "random_state": self._random_state,
            "comparison": X_train is not None,
        }
        if not self._other_models:
            return header
        # The other models' scores, beside the reviewed one's and the dummy's.
        return header_of_models(
            header, self._reviewed_name, self._models, self._model_scores
        )

    def _held_out_scoring(self):
        return engine_scoring(self._estimator, self._scoring)

    def _score_header_now(self):
        """Score the held-out rows here, unless their baseline is kept: for a
        review whose held-out Importance run is not about to start."""
        if self._other_models:
            score_models(
                self._models, self._X, self._y, self._scoring, self._model_scores
            )
            self._models_scored({})
            return
        self._shared.baseline(
            "test", self._estimator, self._X, self._y, self._held_out_scoring()
        )

    def _models_scored(self, baselines):
        """Several models: the header with every model's kept scores, those
        of `baselines` ({name: its run's baseline scores}) kept first."""
        with self._lock:
            header = rescored_header(
                self._header, self._reviewed_name, self._models,
                self._model_scores, baselines,
            )  # fmt: skip
            if header is not None:
                self._header = header

    def _score_header(self, baseline):
        # Called with the held-out rows' baseline, from the thread that
        # computed it (the Importance view's, at its first results).
        with self._lock:
            self._header = with_model_scores(self._header, baseline.scores)
