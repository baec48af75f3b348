"""The server's thread count, sampled from /proc/PID/task: ThreadPeak samples it on a thread of its own
while a load runs and keeps the peak, so a test can print it or check it against a fixed bound (the
race stress's --max-threads, tests/race/run.py). Linux only, standard library only."""
import os
import threading

SAMPLE_EVERY_S = 0.002  # a helper thread that lives a few milliseconds is still seen most of the time


def thread_count(pid):
    """The threads process `pid` has now (0 once it has exited)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return 0


class ThreadPeak:
    """with ThreadPeak(pid) as peak: ... ; then peak.most is the largest count seen, peak.samples how
    many samples were taken."""

    def __init__(self, pid):
        self.pid = pid
        self.most = 0
        self.samples = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._done.is_set():
            self.most = max(self.most, thread_count(self.pid))
            self.samples += 1
            self._done.wait(SAMPLE_EVERY_S)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exception):
        self._done.set()
        self._thread.join()
        return False
