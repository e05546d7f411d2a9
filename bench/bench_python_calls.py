"""Per-call cost of small sample() calls, Python against the same C++ call (bench_sampler's
call/rocking-block/samples:K: the problem's options, kept samples, no sets, threads = 0), measured
side by side in one run (alternated rounds; each figure is a mean time per call, the medians of
the rounds are shown). Targets: sample(p, samples=1) <= 50 us; at samples=64 the Python call
costs <= 10 % more than the C++ one.

    PYTHONPATH=build/python /usr/bin/python3 bench/bench_python_calls.py build/bench/bench_sampler
"""
import json
import statistics
import subprocess
import sys
import time

import impactset

CALLS = 2000  # per measurement: enough that one scheduler hiccup moves no median
ROUNDS = 5    # alternated C++ / Python rounds; the table shows their medians
TARGET_ONE_SAMPLE_US = 50.0
TARGET_OVERHEAD_64 = 0.10


def python_mean_us(problem, samples):
    """Mean time per call over CALLS calls: Google Benchmark's per-iteration statistic."""
    t0 = time.perf_counter()
    for _ in range(CALLS):
        impactset.sample(problem, samples=samples)
    return 1e6 * (time.perf_counter() - t0) / CALLS


def cpp_mean_us(binary, samples):
    """Median over 3 repetitions of the mean time per call."""
    out = subprocess.run(
        [binary, f"--benchmark_filter=^call/rocking-block/samples:{samples}/",
         "--benchmark_format=json", f"--benchmark_min_time={CALLS * 50e-6}",
         "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"],
        check=True, capture_output=True, text=True).stdout
    rows = json.loads(out)["benchmarks"]
    return next(r["real_time"] for r in rows if r.get("aggregate_name") == "median")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/bench/bench_sampler"
    problem = impactset.Problem.from_system("rocking-block")
    impactset.sample(problem, samples=64)  # first-call imports and allocations out of the way
    print("| samples | C++ call (us) | Python call (us) | Python / C++ |")
    print("|---|---|---|---|")
    results = {}
    for samples in (1, 64):
        cpp, py = [], []
        for _ in range(ROUNDS):
            cpp.append(cpp_mean_us(binary, samples))
            py.append(python_mean_us(problem, samples))
        c, p = statistics.median(cpp), statistics.median(py)
        results[samples] = (c, p)
        print(f"| {samples} | {c:.1f} | {p:.1f} | {p / c:.2f} |")
    one, sixty_four = results[1][1], results[64][1] / results[64][0] - 1
    print(f"sample(samples=1): {one:.1f} us (target <= {TARGET_ONE_SAMPLE_US:.0f}): "
          f"{'met' if one <= TARGET_ONE_SAMPLE_US else 'NOT met'}")
    print(f"samples=64 Python overhead: {100 * sixty_four:.1f} % (target <= "
          f"{100 * TARGET_OVERHEAD_64:.0f} %): "
          f"{'met' if sixty_four <= TARGET_OVERHEAD_64 else 'NOT met'}")


if __name__ == "__main__":
    main()
