"""The GIL is released while sampling: Python threads run while another thread samples. (The
wall-time statement, two Python threads sampling at once in about the time of one, is a
benchmark: bench/bench_python_gil.py.)"""
import threading

import impactset

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
