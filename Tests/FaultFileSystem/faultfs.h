// Shared by faultfs.c (the file system's operations) and control.c (its log and the switches tests turn).
#pragma once
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>


extern const char *backing;
extern char eio_text[256];
extern char hold_text[256];
extern pthread_cond_t released;
extern int read_only;
extern pthread_mutex_t lock;

// The backing path of a path in the mount.
static inline void real(char *out, const char *path) { snprintf(out, PATH_MAX, "%s%s", backing, path); }

#define REAL(name, path) char name[PATH_MAX]; real(name, path)

// `call`, a system call on the backing path `p` of `path`, as a FUSE result.
#define PASS(path, call)                 \
    do {                                 \
        REAL(p, path);                   \
        return (call) == 0 ? 0 : -errno; \
    } while (0)

// Opens the log FILE and FILE.data; 0 when they are open.
int open_log(const char *path);
// Appends one log line: the tag, then each path, then the numbers. Called with `lock` held.
void record(char tag, const char *first, const char *second, int count, const long long *numbers);
// Whether `path` is one of the control names a test looks up (and what it asked for is done).
int control(const char *path);
// Records the bytes of a write (with `lock` held, before its 'W' line); their offset in FILE.data.
long long record_data(const char *buffer, size_t count);
