// clockshift: moves a program's wall clock, and nothing else, as a clock set by hand or by NTP moves it: preloaded
// (LD_PRELOAD=clockshift.so CLOCKSHIFT_FILE=PATH), it adds the seconds written in PATH (an integer, negative to go
// back; re-read ten times a second) to CLOCK_REALTIME, gettimeofday and time. The monotonic and boot clocks, and
// every sleep and timer on them, are left alone. (libfaketime moves those too, and fails sleeps after a jump back.)
// In C rather than Swift: a preloaded library must be built as one outside the package; tests build it with cc.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

typedef int (*clock_gettime_function)(clockid_t, struct timespec *);

static long long offset;
static long long read_at = -1000000000LL;

static clock_gettime_function real_clock_gettime(void) {
    static clock_gettime_function function;
    if (!function) function = (clock_gettime_function)dlsym(RTLD_NEXT, "clock_gettime");
    return function;
}

// The offset in seconds, read again when 100 ms have passed on the monotonic clock.
static long long current_offset(void) {
    struct timespec now;
    real_clock_gettime()(CLOCK_MONOTONIC, &now);
    long long nanoseconds = now.tv_sec * 1000000000LL + now.tv_nsec;
    if (nanoseconds - read_at >= 100000000LL) {
        read_at = nanoseconds;
        const char *path = getenv("CLOCKSHIFT_FILE");
        FILE *file = path ? fopen(path, "r") : NULL;
        if (file) {
            long long value;
            if (fscanf(file, "%lld", &value) == 1) offset = value;
            fclose(file);
        }
    }
    return offset;
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    int result = real_clock_gettime()(clock, time);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) time->tv_sec += current_offset();
    return result;
}

// glibc declares `time` never null; callers may still pass null.
#pragma GCC diagnostic ignored "-Wnonnull-compare"
int gettimeofday(struct timeval *restrict time, void *restrict zone) {
    (void)zone;
    struct timespec now;
    int result = clock_gettime(CLOCK_REALTIME, &now);
    if (result == 0 && time) {
        time->tv_sec = now.tv_sec;
        time->tv_usec = now.tv_nsec / 1000;
    }
    return result;
}

time_t time(time_t *result) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (result) *result = now.tv_sec;
    return now.tv_sec;
}
