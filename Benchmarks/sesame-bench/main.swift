// Micro-benchmarks; see `make bench`.
print("sesame-bench: not written yet")
