#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver (linked by -sanitize=fuzzer): fuzzes `callback` as the command line asks. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
