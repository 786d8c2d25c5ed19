"""The node arrays the compiled walks (``tree_routing``) read.

One row of four int64 per node, as scikit-learn's own node struct keeps a
node in one cache line: left child, right child (-1 at a leaf), the split's
feature with the node's flags above FLAGS_SHIFT, and the threshold's float64
bits (at a categorical split: the row of its bitsets instead).
"""

import numpy as np

# Node flags: missing values go left; the split is on categories (column 3 of
# the node then indexes the bitsets, not a threshold). A split node keeps them
# above FLAGS_SHIFT in its feature column, so the walks read one cache line a
# node (a separate array was slower: benchmarks/results/trees.md).
NAN_LEFT, CATEGORICAL = 1, 2
FLAGS_SHIFT = 32

# What a permutation walk keeps in a core's cache: a block of trees' nodes
# and, as much again, a block of rows' values and sums (half of a 512 KiB L2
# each; see route_copies).
TREE_BLOCK_BYTES = 1 << 18


class _Nodes:
    """Trees gathered node by node into the arrays the walks read."""

    def __init__(self):
        self.blocks, self.bitsets, self.n_nodes, self.max_depth = [], [], 0, 0

    def add(self, depth, left, right, feature, threshold, nan_left, leaf_value,
            output=0, categories=None):  # fmt: skip
        """One tree: its depth, children (-1 at a leaf), split feature and
        threshold, missing values' direction, what each leaf adds from
        `output` on, and
        for histogram gradient boosting's categorical splits, `categories`:
        ``(is_categorical, left_sets, known_sets)`` per node."""
        start = self.n_nodes
        n = len(left)
        block = np.empty((n, 4), dtype=np.int64)
        for column, children in enumerate((left, right)):
            children = np.asarray(children, dtype=np.int64)
            block[:, column] = np.where(children == -1, -1, children + start)
        block[:, 3] = np.asarray(threshold, np.float64).view(np.int64)
        flags = np.where(np.asarray(nan_left) != 0, NAN_LEFT, 0).astype(np.int64)
        if categories is not None:
            is_categorical, left_sets, known_sets = categories
            at = np.flatnonzero(is_categorical)
            flags[at] |= CATEGORICAL
            block[at, 3] = sum(len(b) for b in self.bitsets) + np.arange(len(at))
            self.bitsets.append(np.stack([left_sets, known_sets], axis=1))
        feature = np.asarray(feature, dtype=np.int64)
        split = block[:, 0] != -1
        block[:, 2] = np.where(split, feature | (flags << FLAGS_SHIFT), feature)
        leaf_value = np.asarray(leaf_value, dtype=np.float64).reshape(n, -1)
        self.blocks.append((start, block, leaf_value, output))
        self.n_nodes += n
        self.max_depth = max(self.max_depth, int(depth))
