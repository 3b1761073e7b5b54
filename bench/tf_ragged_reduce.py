#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""TensorFlow's side of bench_ragged_reduce (issue 36), timed from Python on 2 threads.

    /tmp/venv-tf/bin/python bench/tf_ragged_reduce.py [--repeats 20]

The cases of bench/ragged_reduce_cases.hpp with the same distributions (NumPy's generator, not
the C++ one: the time does not depend on the values): tf.reduce_sum / tf.reduce_max of a
RaggedTensor of 1e6 rows of lengths uniform in [0, 20] over axis 1, and
tf.math.unsorted_segment_sum of 1e7 float32 into 1e5 segments. Eager calls, each forced to
finish (`.numpy()` would add a copy: the result's first element is read instead); prints the
median and the minimum in ms.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def timed(fn, repeats):
    fn()  # warm-up (tracing, allocation)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        _ = out[0] if isinstance(out, tf.Tensor) else out
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(args.threads)
    rng = np.random.default_rng(36)
    lengths = rng.integers(0, 21, 1_000_000)
    values = rng.random(int(lengths.sum()), dtype=np.float32)
    r = tf.RaggedTensor.from_row_lengths(tf.constant(values), tf.constant(lengths))
    data = tf.constant(rng.random(10_000_000, dtype=np.float32))
    ids = tf.constant(rng.integers(0, 100_000, 10_000_000))
    cases = {
        "rr_sum/tensorflow/0": lambda: tf.reduce_sum(r, axis=1),
        "rr_max/tensorflow/0": lambda: tf.reduce_max(r, axis=1),
        "seg_sum/tensorflow/0": lambda: tf.math.unsorted_segment_sum(data, ids, 100_000),
    }
    print(f"tensorflow {tf.__version__}, {args.threads} threads, {args.repeats} repeats")
    for name, fn in cases.items():
        median, best = timed(fn, args.repeats)
        print(f"{name:28s} median {median:8.2f} ms   min {best:8.2f} ms")


if __name__ == "__main__":
    main()
