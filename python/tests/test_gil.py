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
# A timing statement needs the cores: when a single-threaded run gets less than this share of a
# core, other processes own the host and wall times say nothing about the GIL.
MIN_CORE_SHARE = 0.8


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
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


@pytest.mark.serial
def test_two_threads_sampling_at_once_take_about_the_time_of_one(rocking_block):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 cores")
    wall, cpu = timed(lambda: impactset.run(rocking_block, samples=20000, threads=1, sets=False))
    if cpu < MIN_CORE_SHARE * wall:
        pytest.skip(f"host busy: a single-threaded run got {cpu / wall:.2f} of a core")
    samples = int(TARGET_SECONDS * 20000 / max(wall, 1e-3))

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
        ratios.append(timed(two)[0] / timed(one)[0])
        if ratios[-1] < MAX_RATIO:
            break
    assert min(ratios) < MAX_RATIO, f"two threads / one: {ratios}"
