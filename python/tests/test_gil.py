"""The GIL is released while sampling: Python threads run while another thread samples, and two
Python threads sampling at once take about the time of one on 2 cores."""
import os
import threading
import time

import pytest

import impactset

# Held GIL: two runs take 2x one run. Released: about 1x on 2 idle cores. 1.5 separates the two
# with room for scheduling noise; the better of two attempts is kept (noise only slows).
MAX_RATIO = 1.5
TARGET_SECONDS = 1.5  # per run: long enough that thread start-up does not matter
# A timing statement needs two cores: when the library's own two-thread run is less than this
# much faster than one thread, other processes own the host and wall times say nothing about
# the GIL.
MIN_LIBRARY_SPEEDUP = 1.6


def test_python_runs_while_another_thread_samples(rocking_block):
    worker = threading.Thread(
        target=lambda: impactset.run(rocking_block, samples=50000, threads=1, sets=False))
    worker.start()
    iterations = 0
    while worker.is_alive():
        iterations += 1
    worker.join()
    # A held GIL would block this loop for the whole run (a few iterations at the switch
    # interval at most); released, it spins freely: millions per second.
    assert iterations > 100000


def timed(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


@pytest.mark.serial
def test_two_threads_sampling_at_once_take_about_the_time_of_one(rocking_block):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 cores")
    calibration = impactset.run(rocking_block, samples=20000, threads=1, sets=False)
    samples = int(TARGET_SECONDS * 20000 / max(calibration.seconds, 1e-3))
    single = impactset.run(rocking_block, samples=samples, threads=1, sets=False).seconds
    double = impactset.run(rocking_block, samples=2 * samples, threads=2, sets=False).seconds
    if 2 * single / double < MIN_LIBRARY_SPEEDUP:
        pytest.skip(f"host busy: the library's own 2-thread speedup is {2 * single / double:.2f}")

    def one():
        impactset.run(rocking_block, samples=samples, threads=1, sets=False)

    def two():
        workers = [threading.Thread(target=one) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    ratios = []
    for _ in range(3):
        ratios.append(timed(two) / timed(one))
        if ratios[-1] < MAX_RATIO:
            break
    assert min(ratios) < MAX_RATIO, f"two threads / one: {ratios}"
