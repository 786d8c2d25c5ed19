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
    """

    def __init__(
        self,
        n_jobs,
        round_size,
        cap,
        target_seconds=TARGET_CHUNK_SECONDS,
        eager=False,
        probe=False,
    ):
        self.n_jobs = n_jobs
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

    def take(self):
        """The next chunk, or None when every job has been handed out."""
        if self._next >= self.n_jobs:
            return None
        start = self._next
        if self._probe:
            stop = 1
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
            return
        if self.eager or seconds * 2 < self.target_seconds:
            self.size = min(self.size * 2, self.cap)
