// The log of what faultfs passes on, and the switches a test turns by looking up names (see faultfs.c).
#include "faultfs.h"

const char *backing;
char eio_text[256];
char hold_text[256];
pthread_cond_t released = PTHREAD_COND_INITIALIZER;
int read_only;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static FILE *data_file;
static long long data_offset;

int open_log(const char *path) {
    char data_path[PATH_MAX];
    snprintf(data_path, sizeof data_path, "%s.data", path);
    log_file = fopen(path, "w");
    data_file = fopen(data_path, "w");
    return log_file && data_file ? 0 : -1;
}

static void put_path(const char *path) {
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (*c <= ' ' || *c == '%' || *c >= 0x7f) fprintf(log_file, "%%%02X", *c);
        else fputc(*c, log_file);
    }
}

void record(char tag, const char *first, const char *second, int count, const long long *numbers) {
    if (!log_file) return;
    fputc(tag, log_file);
    if (first) { fputc(' ', log_file); put_path(first); }
    if (second) { fputc(' ', log_file); put_path(second); }
    for (int i = 0; i < count; i++) fprintf(log_file, " %lld", numbers[i]);
    fputc('\n', log_file);
    fflush(log_file);
}

long long record_data(const char *buffer, size_t count) {
    long long offset = data_offset;
    if (data_file) {
        fwrite(buffer, 1, count, data_file);
        fflush(data_file);
        data_offset += (long long)count;
    }
    return offset;
}

int control(const char *path) {
    const char *name = path + 1;
    if (strncmp(name, ".faultfs-", 9) != 0) return 0;
    name += 9;
    pthread_mutex_lock(&lock);
    if (strncmp(name, "mark-", 5) == 0) record('M', name + 5, NULL, 0, NULL);
    else if (strcmp(name, "eio-off") == 0) eio_text[0] = 0;
    else if (strcmp(name, "readonly-on") == 0) read_only = 1;
    else if (strcmp(name, "readonly-off") == 0) read_only = 0;
    else if (strncmp(name, "eio-", 4) == 0) snprintf(eio_text, sizeof eio_text, "%s", name + 4);
    else if (strcmp(name, "hold-off") == 0) {
        hold_text[0] = 0;
        pthread_cond_broadcast(&released);
    } else if (strncmp(name, "hold-", 5) == 0) snprintf(hold_text, sizeof hold_text, "%s", name + 5);
    pthread_mutex_unlock(&lock);
    return 1;
}
