"""The memory budget every engine's run is checked against before it starts.

Each engine estimates the peak bytes of a run from its sizes (an upper bound
of what tracemalloc measures, tested in tests/common/test_run_size_budget.py);
a run whose estimate exceeds the budget is refused with the largest value of
the setting that fits, instead of taking the machine's memory and the kernel
with it.
"""

import os

BUDGET_SHARE = 0.5
"""The share of the memory available when a run starts that it may take:
the rest is the user's other work and the kernel's own."""


def memory_budget():
    """Bytes a run may take: `BUDGET_SHARE` of the memory available now
    (MemAvailable on Linux), else of the physical memory; None where the
    system says neither."""
    available = _available_memory() or _physical_memory()
    return None if available is None else int(BUDGET_SHARE * available)


def check_budget(setting, value, estimate, *, low=1, budget=None):
    """Refuse `value` of the int `setting` when ``estimate(value)`` (bytes,
    growing with the value) exceeds the memory budget, naming the largest
    value that fits. Returns `value`."""
    budget = memory_budget() if budget is None else budget
    needed = estimate(value)
    if budget is None or needed <= budget:
        return value
    fits = _largest_fitting(estimate, low, value, budget)
    advice = (
        f"the largest {setting} that fits is {fits:,}"
        if fits is not None
        else f"even {setting}={low:,} does not fit: use fewer rows"
    )
    raise ValueError(
        f"{setting}={value:,} needs an estimated {_size(needed)}, more than "
        f"the memory budget of {_size(budget)} (half the memory now "
        f"available); {advice}."
    )


def x_bytes(X):
    """The bytes of X: an array's, a frame's columns', a sparse matrix's."""
    if hasattr(X, "memory_usage"):
        return int(X.memory_usage(index=False, deep=False).sum())
    if hasattr(X, "data") and hasattr(X, "indptr"):
        return int(X.data.nbytes + X.indices.nbytes + X.indptr.nbytes)
    return int(getattr(X, "nbytes", 0))


def _largest_fitting(estimate, low, high, budget):
    """The largest int in [low, high) whose estimate fits, by bisection
    (the estimate grows with the value); None if not even `low` fits."""
    if estimate(low) > budget:
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if estimate(middle) <= budget:
            low = middle
        else:
            high = middle
    return low


def _size(n_bytes):
    if n_bytes >= 2**30:
        return f"{n_bytes / 2**30:,.1f} GiB"
    return f"{n_bytes / 2**20:,.0f} MiB"


def _available_memory():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _physical_memory():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
