#!/usr/bin/env python3
"""Exit 0 when two HDF5 files hold the same datasets with equal values (NaN equals NaN), else
print the first difference and exit 1. Attributes (creation time, version) are not compared.
Usage: compare_h5.py A B [--ignore DATASET ...]   (DATASET as h5py names it: states/message)"""
import sys

import h5py
import numpy as np


def datasets(f):
    names = []
    f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    return names


def main(a_path, b_path, ignore=()):
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        na, nb = datasets(a), datasets(b)
        if not na:
            print(f"{a_path}: no dataset (a comparison over nothing proves nothing)")
            return 1
        if sorted(na) != sorted(nb):
            print(f"dataset names differ: {sorted(set(na) ^ set(nb))}")
            return 1
        for n in na:
            if n in ignore:
                continue
            x, y = a[n][()], b[n][()]
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape or x.dtype != y.dtype:
                print(f"{n}: shape/dtype {x.shape} {x.dtype} vs {y.shape} {y.dtype}")
                return 1
            nan = x.dtype.kind == "f"
            if not np.array_equal(x, y, equal_nan=nan):
                print(f"{n}: values differ")
                return 1
    return 0


if __name__ == "__main__":
    rest = sys.argv[3:]
    if rest and rest[0] != "--ignore":
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], set(rest[1:])))
