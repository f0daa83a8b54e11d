/* Declarations only: libFuzzer itself comes with the compiler's -sanitize=fuzzer. */
#include "CLibFuzzer.h"
