"""Where a partial dependence's predictions go: grid points grouped by
identical predictions, and the averages and ICE values of the points done."""

import numpy as np

from .grid import coarse_to_fine


class GridGroups:
    """Grid points grouped by identical predictions, each predicted once by
    its first point; groups ordered by their first point coarse to fine."""

    def __init__(self, groups, shape):
        n_points = int(np.prod(shape))
        if groups is None:
            groups = np.arange(n_points)
        self.n_groups = int(groups.max()) + 1
        self.representatives = np.unique(groups, return_index=True)[1]
        self._members = np.argsort(groups, kind="stable")
        self._sizes = np.bincount(groups, minlength=self.n_groups)
        self._ends = np.cumsum(self._sizes)
        coarse = groups[coarse_to_fine(shape)]
        self.order = coarse[np.sort(np.unique(coarse, return_index=True)[1])]

    def points(self, groups):
        """The grid points of `groups`, and for each the position of its
        group in `groups` (None when every group is a single point)."""
        points = np.concatenate(
            [
                self._members[self._ends[g] - self._sizes[g] : self._ends[g]]
                for g in groups
            ]
        )
        if len(points) == len(groups):
            return points, None
        return points, np.repeat(np.arange(len(groups)), self._sizes[groups])


class ValueBuffers:
    """Averages and ICE values of the grid points done, in grid order.

    Averages are computed as scikit-learn computes them (``np.average`` over
    the rows, with `sample_weight`) from the uncentered predictions; centering
    then subtracts the values at the first grid point, which comes first.
    """

    def __init__(self, run, n_points):
        self.run = run
        self.n_points = n_points
        self.done = np.zeros(n_points, dtype=bool)
        self.average = None
        self.individual = None
        self.anchor = None

    @property
    def n_done(self):
        return int(self.done.sum())

    def _allocate(self, values, average):
        n_outputs = values.shape[2]
        self.average = np.full((n_outputs, self.n_points), np.nan, average.dtype)
        if self.run.kind != "average":
            rows = self.run.ice_rows
            n_ice = values.shape[1] if rows is None else len(rows)
            dtype = np.result_type(values.dtype, np.float16)
            self.individual = np.full((n_outputs, n_ice, self.n_points), np.nan, dtype)

    def store(self, points, which, values):
        """Record the grid `points`, whose values are ``values[which]``
        (`values` itself if `which` is None); `values` has shape
        (n_predicted, n_rows, n_outputs)."""
        if which is None:
            which = slice(None)
        average = np.average(values, axis=1, weights=self.run.sample_weight)
        if self.average is None:
            self._allocate(values, average)
        if self.run.centered and self.anchor is None:
            # coarse_to_fine puts the first grid point in the first chunk.
            first = np.flatnonzero(points == 0)[0]
            if not isinstance(which, slice):
                first = which[first]
            self.anchor = values[first].copy(), average[first].copy()
        if self.run.centered:
            average = average - self.anchor[1]
        self.average[:, points] = average[which].T
        if self.individual is not None:
            rows = self.run.ice_rows
            ice = values if rows is None else values[:, rows]
            if self.run.centered:
                anchor = self.anchor[0] if rows is None else self.anchor[0][rows]
                ice = ice - anchor
            self.individual[:, :, points] = ice[which].transpose(2, 1, 0)
        self.done[points] = True

    def arrays(self, copy):
        shape = self.run.shape
        if self.average is None:
            n_outputs = self.run.n_outputs
            average = np.full((n_outputs, *shape), np.nan)
            individual = None
            if self.run.kind != "average":
                rows = self.run.ice_rows
                n_ice = self.run.X.shape[0] if rows is None else len(rows)
                individual = np.full((n_outputs, n_ice, *shape), np.nan)
            return average, individual, self.done.reshape(shape).copy()
        average = self.average.reshape(-1, *shape)
        individual = self.individual
        if individual is not None:
            individual = individual.reshape(individual.shape[:2] + shape)
        done = self.done.reshape(shape)
        if copy:
            average, done = average.copy(), done.copy()
            individual = None if individual is None else individual.copy()
        return average, individual, done
