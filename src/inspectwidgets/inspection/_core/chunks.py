"""How much work one predict call gets: the memory budget and chunk sizes.

Shared by every engine that stacks modified copies of X (permutation
importance, partial dependence).
"""

# The default `max_memory`: the copies of X (and their predictions) that the
# chunks in flight may hold. Chosen from a measured curve (docs/large_data.md,
# benchmarks/scale.py): permutation importance of HistGB on 10,000 x 20 was
# no faster at 256 MiB than at 16-64 MiB, and partial dependence's chunks of
# 256 MiB were up to 1.7x slower than 32-64 MiB ones (the allocator recycles
# the smaller buffers); 64 MiB keeps every measured speed-up.
DEFAULT_MAX_MEMORY = 64 * 2**20

# A chunk faster than half this doubles the next one: long enough to pay the
# per-call overhead rarely, short enough for a live display to move.
TARGET_CHUNK_SECONDS = 0.5


class ChunkSchedule:
    """Successive ``(start, stop)`` chunks of jobs, sized as the run goes.

    The first chunk is one repeat round, so a streamed run shows results early.
    A chunk that predicted in under half of `target_seconds` doubles the next
    one, up to `cap` jobs (the memory budget), so cheap models pay the per-call
    overhead only a few times; slow chunks keep their size, so a live display
    still updates about every `target_seconds`. Models whose predictions are
    exact row by row (trees) give the same bits whatever the chunks; where BLAS
    predicts (linear models, SVMs), the rows in a call can change the last bit.

    With `probe`, one job goes first, alone: on a big input a round can take
    many seconds, and a live display can say how long the run has left after
    one job's time (``widgets/_base.py``). Its time does not size the chunks,
    and the chunk after it is one job short, so that chunks still end where
    rounds do.

    With `split_first_round`, the rest of the first round goes in chunks of
    1, 2, 4, ... jobs (or as many as take about half of `target_seconds` at
    the probe's pace, if more), for a display that shows the first round's
    results as they come; later chunks are sized as above.

    With `block_ends` (the positions in the job order where blocks of jobs
    end, the last one `n_jobs`), every chunk after the probe and the splits
    stays within one block and takes an equal share of it: as few shares as
    `cap` allows, and at least `shares` (one per worker). For jobs whose
    results only show when their whole block is done (the tree walk's
    blocks of rounds), where a chunk costs a fixed part whatever its size (a
    walk follows every row's path; benchmarks/results/trees.md, "Chunks
    within a block of rounds").
    """

    def __init__(
        self,
        n_jobs,
        round_size,
        cap,
        target_seconds=TARGET_CHUNK_SECONDS,
        eager=False,
        probe=False,
        split_first_round=False,
        block_ends=None,
        shares=1,
    ):
        self.n_jobs = n_jobs
        self.round_size = round_size
        self.cap = cap
        self.size = max(1, min(round_size, cap))
        self.target_seconds = target_seconds
        # Chunks double every time, however fast: for work whose cost grows
        # slowly with the chunk (the tree shortcut), so that few chunks do it
        # all while a live display still moves a few times.
        self.eager = eager
        self._next = 0
        # The probe is yet to be handed out; its time is yet to be ignored.
        self._probe = self._unrecorded_probe = probe and n_jobs > 1
        self._probed = self._probe
        self._split = 1 if split_first_round else 0  # the next split's size
        self._probe_seconds = None
        self.block_ends = None if block_ends is None else list(block_ends)
        self.shares = shares
        self._block = None  # the block being cut: (its end, its share)

    def take(self):
        """The next chunk, or None when every job has been handed out."""
        if self._next >= self.n_jobs:
            return None
        start = self._next
        if self._probe:
            stop = 1
        elif self._split and start < self.round_size:
            stop = min(start + self._split_size(), self.round_size)
        elif self.block_ends is not None:
            stop = self._share_of_block(start)
        elif start == 1 and self._probed and self.size > 1:
            stop = self.size
        else:
            stop = start + self.size
        self._next = min(stop, self.n_jobs)
        self._probe = False
        return start, self._next

    def record(self, seconds):
        """Report how long the last chunk took."""
        if self._unrecorded_probe:
            self._unrecorded_probe = False
            self._probe_seconds = seconds
            return
        if self._split and self._next <= self.round_size:
            return  # the first round's splits do not size later chunks
        if self.eager or seconds * 2 < self.target_seconds:
            self.size = min(self.size * 2, self.cap)

    def _share_of_block(self, start):
        """The end of the chunk from `start`: a share of its block."""
        end = next(e for e in self.block_ends if e > start)
        if self._block is None or self._block[0] != end:
            n_shares = max(-(-(end - start) // self.cap), self.shares)
            self._block = end, -(-(end - start) // n_shares)
        return min(start + self._block[1], end)

    def _split_size(self):
        size = self._split
        self._split *= 2
        if self._probe_seconds:
            size = max(size, int(self.target_seconds / 2 / self._probe_seconds))
        return min(size, self.cap)
