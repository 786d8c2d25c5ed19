"""The arrays the compiled walks (``routing``) read, and their layout.

One row of four int64 per node (columns LEFT, RIGHT, FEATURE, THRESHOLD), as
scikit-learn's own node struct keeps a node in one cache line: left child,
right child (-1 at a leaf), the split's feature with the node's flags above
FLAGS_SHIFT, and the threshold's float64 bits (at a categorical split: the
row of its bitsets instead).
"""

from collections import namedtuple

import numpy as np

# The columns of a node's row.
LEFT, RIGHT, FEATURE, THRESHOLD = 0, 1, 2, 3
N_NODE_COLUMNS = 4

# Node flags: missing values go left; the split is on categories (THRESHOLD
# then indexes the bitsets, not a threshold). A split node keeps them
# above FLAGS_SHIFT in its feature column, so the walks read one cache line a
# node (a separate array was slower: benchmarks/results/trees.md).
NAN_LEFT, CATEGORICAL = 1, 2
FLAGS_SHIFT = 32
# FEATURE & FEATURE_MASK: the split's column, without the flags.
FEATURE_MASK = (1 << FLAGS_SHIFT) - 1

# What a permutation walk keeps in a core's cache: a block of trees' nodes
# and, as much again, a block of rows' values and sums (half of a 512 KiB L2
# each; see route_copies).
TREE_BLOCK_BYTES = 1 << 18

# The trees, as every walk takes them: ``roots`` (each tree's root in the
# node arrays), ``outputs`` (the first output each tree adds to: a forest's
# trees add to every output from 0, a boosting model's k-th tree of a stage
# to output k), ``nodes`` (int64, one row per node, as above; a walk reads
# THRESHOLD through ``nodes.view(np.float64)``, made in the walk itself, so
# that the compiler sees one array), ``bitsets`` (uint32 of shape
# (n_categorical_nodes, 2, 8): a
# categorical split's left categories, its feature's known ones),
# ``leaf_value`` (float64 of shape (n_nodes, width): what a leaf adds to
# outputs ``outputs[t]:outputs[t] + width``) and ``max_depth`` (the deepest
# tree's depth, the root at 0).
WalkTrees = namedtuple(
    "WalkTrees",
    ["roots", "outputs", "nodes", "bitsets", "leaf_value", "max_depth"],
)

# What ``choice.detour_share`` reads of a tree, as scikit-learn's ``tree_``
# holds it, for other libraries' trees (``from_xgboost``, ``from_catboost``):
# node count, children, split features, and the weight of the training rows
# reaching each node.
TreeShape = namedtuple(
    "TreeShape",
    ["node_count", "children_left", "children_right", "feature",
     "weighted_n_node_samples"],
)  # fmt: skip

# Where each copy's values are, for ``route_copies`` (see there).
CopyLayout = namedtuple(
    "CopyLayout",
    ["values", "offset", "group_start", "position", "column_groups",
     "column_group_start"],
)  # fmt: skip


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
        block = np.empty((n, N_NODE_COLUMNS), dtype=np.int64)
        for column, children in ((LEFT, left), (RIGHT, right)):
            children = np.asarray(children, dtype=np.int64)
            block[:, column] = np.where(children == -1, -1, children + start)
        block[:, THRESHOLD] = np.asarray(threshold, np.float64).view(np.int64)
        flags = np.where(np.asarray(nan_left) != 0, NAN_LEFT, 0).astype(np.int64)
        if categories is not None:
            is_categorical, left_sets, known_sets = categories
            at = np.flatnonzero(is_categorical)
            flags[at] |= CATEGORICAL
            first = sum(len(b) for b in self.bitsets)
            block[at, THRESHOLD] = first + np.arange(len(at))
            self.bitsets.append(np.stack([left_sets, known_sets], axis=1))
        feature = np.asarray(feature, dtype=np.int64)
        split = block[:, LEFT] != -1
        block[:, FEATURE] = np.where(split, feature | (flags << FLAGS_SHIFT), feature)
        leaf_value = np.asarray(leaf_value, dtype=np.float64).reshape(n, -1)
        self.blocks.append((start, block, leaf_value, output))
        self.n_nodes += n
        self.max_depth = max(self.max_depth, int(depth))
