// @ts-check
// Box-plot geometry for one feature's per-repeat importances.
//
// This is drawing geometry, not statistics shown as numbers: quartiles use
// linear interpolation between closest ranks (numpy.percentile's default,
// method="linear"), whiskers reach the most extreme values within 1.5 IQR of
// the box and everything beyond is an outlier, as in matplotlib's boxplot
// (matplotlib.cbook.boxplot_stats with whis=1.5).

/** Whisker reach, in multiples of the interquartile range. */
export const WHISKER_IQR = 1.5;

/**
 * Percentile `p` (0..100) of ascending, finite `sorted` values, with linear
 * interpolation like `numpy.percentile(x, p)`.
 *
 * @param {ArrayLike<number>} sorted non-empty, ascending
 * @param {number} p
 * @returns {number}
 */
export function percentileSorted(sorted, p) {
  const position = ((sorted.length - 1) * p) / 100;
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  const fraction = position - lower;
  return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

/**
 * Box, whiskers and outliers of `values`.
 *
 * Non-finite values (NaN, ±Infinity) are ignored.
 *
 * @param {ArrayLike<number>} values e.g. one row of the `[k, repeats]` array.
 * @returns {{q1: number, median: number, q3: number, whiskerLow: number,
 *   whiskerHigh: number, outliers: number[], min: number, max: number,
 *   n: number} | null} `null` when there is no finite value. `outliers` are
 *   ascending; `min`/`max` span every finite value (whiskers and outliers).
 */
export function boxStats(values) {
  const sorted = Float64Array.from(values).filter(Number.isFinite).sort();
  const n = sorted.length;
  if (n === 0) return null;

  const q1 = percentileSorted(sorted, 25);
  const median = percentileSorted(sorted, 50);
  const q3 = percentileSorted(sorted, 75);
  const iqr = q3 - q1;
  const lowLimit = q1 - WHISKER_IQR * iqr;
  const highLimit = q3 + WHISKER_IQR * iqr;

  // Most extreme data points inside the limits; like matplotlib, a whisker
  // never retreats inside the box.
  let whiskerLow = q1;
  let whiskerHigh = q3;
  for (let i = 0; i < n; i += 1) {
    if (sorted[i] >= lowLimit) {
      whiskerLow = Math.min(sorted[i], q1);
      break;
    }
  }
  for (let i = n - 1; i >= 0; i -= 1) {
    if (sorted[i] <= highLimit) {
      whiskerHigh = Math.max(sorted[i], q3);
      break;
    }
  }

  const outliers = [];
  for (const value of sorted) {
    if (value < whiskerLow || value > whiskerHigh) outliers.push(value);
  }
  return {
    q1,
    median,
    q3,
    whiskerLow,
    whiskerHigh,
    outliers,
    min: sorted[0],
    max: sorted[n - 1],
    n,
  };
}
