#ifndef SESAME_FUZZ_DRIVER_H
#define SESAME_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver with `callback` as the test function. SwiftPM links executables with
/// `--defsym main=<Target>_main`, which `-parse-as-library` never emits, so each harness defines
/// `<Target>_main` and calls this instead of relying on libFuzzer's own `main`.
int sesame_fuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif
