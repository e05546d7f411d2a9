"""Two Python threads sampling at once vs one: about 1x on 2 idle cores when the GIL is released,
2x when it is held. A measurement, not a test (timings belong in bench/).

    PYTHONPATH=build/python /usr/bin/python3 bench/bench_python_gil.py
"""
import threading
import time

import impactset

TARGET_SECONDS = 1.5  # per run: long enough that thread start-up does not matter


def timed(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def main():
    p = impactset.Problem.from_system("rocking-block")
    calibration = impactset.run(p, samples=20000, threads=1, sets=False)
    samples = int(TARGET_SECONDS * 20000 / max(calibration.seconds, 1e-3))
    single = impactset.run(p, samples=samples, threads=1, sets=False).seconds
    double = impactset.run(p, samples=2 * samples, threads=2, sets=False).seconds

    def one():
        impactset.run(p, samples=samples, threads=1, sets=False)

    def two():
        workers = [threading.Thread(target=one) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    ratios = [timed(two) / timed(one) for _ in range(3)]
    print(f"library 2-thread speedup {2 * single / double:.2f} (the host's ceiling); "
          f"two Python threads / one: {', '.join(f'{r:.2f}' for r in ratios)}")


if __name__ == "__main__":
    main()
