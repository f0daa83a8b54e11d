// faultfs: a FUSE file system that passes a folder through and, for tests of what the daemon survives,
//   - records every change it passes on (with the bytes written), every sync and every mark a test sets, in the
//     order they happened, so that scripts/crash-test can build each state a power cut could leave;
//   - fails reads with EIO while a test asks it to (a failing disk under a source file), and refuses every change
//     with EROFS while a test asks it to (a disk the kernel turned read-only after an error, open files and all).
//
// Usage: faultfs BACKING MOUNTPOINT [--log=FILE] [FUSE options such as -f]
// A test steers it by looking up names at the mount's root (the lookup fails with ENOENT and changes nothing):
//   .faultfs-mark-NAME   records the mark NAME (a test's "acknowledged" point) in the log
//   .faultfs-eio-TEXT    from now on, reads of files whose path contains TEXT fail with EIO
//   .faultfs-eio-off     reads work again
//   .faultfs-hold-TEXT   from now on, reads of files whose path contains TEXT wait (a disk that stopped answering)
//   .faultfs-hold-off    the waiting reads go on, and reads no longer wait
//   .faultfs-readonly-on, .faultfs-readonly-off   changes fail with EROFS, or work again
//
// The log: one line per operation, paths percent-encoded; written bytes go to FILE.data, at the offset the line
// gives. C path mode | D path mode | U path | R path | N from to flags | L from to | S target path | T path size |
// W path offset length dataoffset | X path mode offset length (fallocate) | F path datasync | G path | M name.
//
// In C rather than Swift: it is a test tool built by the script or test that uses it (with cc, in a second, outside
// the package), and libfuse's interface is a table of C callbacks that Swift would only wrap.
#include "faultfs.h"

static char *log_path;
static struct fuse_opt options[] = {{"--log=%s", 0, 0}, FUSE_OPT_END};

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    cfg->use_ino = 1;
    // An unlinked open file is gone, as on a disk, not renamed to .fuse_hidden…; its later operations get no path.
    cfg->hard_remove = 1;
    cfg->entry_timeout = cfg->attr_timeout = cfg->negative_timeout = 0;  // every mark's lookup reaches us
    return NULL;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (fi) return fstat((int)fi->fh, st) == 0 ? 0 : -errno;
    if (control(path)) return -ENOENT;
    PASS(path, lstat(p, st));
}

static int fs_access(const char *path, int mask) { PASS(path, access(p, mask)); }

static int fs_readlink(const char *path, char *buffer, size_t size) {
    char p[PATH_MAX];
    real(p, path);
    ssize_t length = readlink(p, buffer, size - 1);
    if (length < 0) return -errno;
    buffer[length] = 0;
    return 0;
}

static int fs_opendir(const char *path, struct fuse_file_info *fi) {
    char p[PATH_MAX];
    real(p, path);
    DIR *directory = opendir(p);
    if (!directory) return -errno;
    fi->fh = (uint64_t)(uintptr_t)directory;
    return 0;
}

static int fs_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void)path, (void)flags;
    DIR *directory = (DIR *)(uintptr_t)fi->fh;
    if (offset == 0) rewinddir(directory);
    else seekdir(directory, offset);
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        struct stat st = {.st_ino = entry->d_ino, .st_mode = (mode_t)DTTOIF(entry->d_type)};
        if (fill(buffer, entry->d_name, &st, telldir(directory), 0)) break;
    }
    return 0;
}

static int fs_releasedir(const char *path, struct fuse_file_info *fi) {
    (void)path;
    closedir((DIR *)(uintptr_t)fi->fh);
    return 0;
}

static int fs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)datasync, (void)fi;
    pthread_mutex_lock(&lock);
    record('G', path, NULL, 0, NULL);
    pthread_mutex_unlock(&lock);
    return 0;
}

// Runs `change` on the backing folder and records it when it succeeds, as one step.
#define CHANGE(change, tag, first, second, count, ...)                       \
    do {                                                                     \
        pthread_mutex_lock(&lock);                                           \
        int result = read_only ? -EROFS : (change) == 0 ? 0 : -errno;        \
        long long numbers[] = {0, ##__VA_ARGS__};                            \
        if (result == 0 && (first)) record(tag, first, second, count, numbers + 1); \
        pthread_mutex_unlock(&lock);                                         \
        return result;                                                       \
    } while (0)

static int fs_mkdir(const char *path, mode_t mode) {
    REAL(p, path);
    CHANGE(mkdir(p, mode), 'D', path, NULL, 1, (long long)mode);
}

static int fs_unlink(const char *path) {
    REAL(p, path);
    CHANGE(unlink(p), 'U', path, NULL, 0);
}

static int fs_rmdir(const char *path) {
    REAL(p, path);
    CHANGE(rmdir(p), 'R', path, NULL, 0);
}

static int fs_symlink(const char *target, const char *path) {
    REAL(p, path);
    CHANGE(symlink(target, p), 'S', target, path, 0);
}

static int fs_rename(const char *from, const char *to, unsigned int flags) {
    REAL(f, from);
    REAL(t, to);
    CHANGE(renameat2(AT_FDCWD, f, AT_FDCWD, t, flags), 'N', from, to, 1, (long long)flags);
}

static int fs_link(const char *from, const char *to) {
    REAL(f, from);
    REAL(t, to);
    CHANGE(link(f, t), 'L', from, to, 0);
}

static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    if (fi) return fchmod((int)fi->fh, mode) == 0 ? 0 : -errno;
    PASS(path, chmod(p, mode));
}

static int fs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    if (fi) return fchown((int)fi->fh, uid, gid) == 0 ? 0 : -errno;
    PASS(path, lchown(p, uid, gid));
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    char p[PATH_MAX];
    real(p, path ? path : "");
    if (fi) CHANGE(ftruncate((int)fi->fh, size), 'T', path, NULL, path ? 1 : 0, (long long)size);
    CHANGE(truncate(p, size), 'T', path, NULL, 1, (long long)size);
}

static int fs_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *fi) {
    if (fi) return futimens((int)fi->fh, times) == 0 ? 0 : -errno;
    PASS(path, utimensat(AT_FDCWD, p, times, AT_SYMLINK_NOFOLLOW));
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    char p[PATH_MAX];
    real(p, path);
    pthread_mutex_lock(&lock);
    int descriptor = read_only ? (errno = EROFS, -1) : open(p, fi->flags, mode);
    int result = descriptor >= 0 ? 0 : -errno;
    if (descriptor >= 0) {
        fi->fh = (uint64_t)descriptor;
        long long numbers[] = {(long long)mode};
        record('C', path, NULL, 1, numbers);
    }
    pthread_mutex_unlock(&lock);
    return result;
}

static int fs_mknod(const char *path, mode_t mode, dev_t device) {
    REAL(p, path);
    if (!S_ISREG(mode)) return mknod(p, mode, device) == 0 ? 0 : -errno;
    CHANGE(mknod(p, mode, device), 'C', path, NULL, 1, (long long)mode);
}

static int fs_open(const char *path, struct fuse_file_info *fi) {
    char p[PATH_MAX];
    real(p, path);
    pthread_mutex_lock(&lock);
    int writes = (fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC);
    int descriptor = read_only && writes ? (errno = EROFS, -1) : open(p, fi->flags);
    int result = descriptor >= 0 ? 0 : -errno;
    if (descriptor >= 0) {
        fi->fh = (uint64_t)descriptor;
        if (fi->flags & O_TRUNC) {
            long long numbers[] = {0};
            record('T', path, NULL, 1, numbers);
        }
    }
    pthread_mutex_unlock(&lock);
    return result;
}

static int fs_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    pthread_mutex_lock(&lock);
    while (hold_text[0] && path && strstr(path, hold_text)) pthread_cond_wait(&released, &lock);
    int fails = eio_text[0] && path && strstr(path, eio_text);
    pthread_mutex_unlock(&lock);
    if (fails) return -EIO;
    ssize_t count = pread((int)fi->fh, buffer, size, offset);
    return count >= 0 ? (int)count : -errno;
}

static int fs_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    pthread_mutex_lock(&lock);
    ssize_t count = read_only ? (errno = EROFS, -1) : pwrite((int)fi->fh, buffer, size, offset);
    int result = count >= 0 ? (int)count : -errno;
    if (count > 0 && path) {
        long long numbers[] = {(long long)offset, (long long)count, record_data(buffer, (size_t)count)};
        record('W', path, NULL, 3, numbers);
    }
    pthread_mutex_unlock(&lock);
    return result;
}

static int fs_statfs(const char *path, struct statvfs *st) { PASS(path, statvfs(p, st)); }

static int fs_flush(const char *path, struct fuse_file_info *fi) {
    (void)path;
    // Closing a duplicate reports a delayed write error the way close() on the real file would.
    return close(dup((int)fi->fh)) == 0 ? 0 : -errno;
}

static int fs_release(const char *path, struct fuse_file_info *fi) {
    (void)path;
    close((int)fi->fh);
    return 0;
}

// The backing folder is scratch space: a sync is recorded (it is what a power cut respects), not done.
static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)fi;
    pthread_mutex_lock(&lock);
    long long numbers[] = {datasync};
    if (path) record('F', path, NULL, 1, numbers);
    pthread_mutex_unlock(&lock);
    return 0;
}

static int fs_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    pthread_mutex_lock(&lock);
    int result = read_only ? -EROFS : fallocate((int)fi->fh, mode, offset, length) == 0 ? 0 : -errno;
    long long numbers[] = {mode, (long long)offset, (long long)length};
    if (result == 0 && path) record('X', path, NULL, 3, numbers);
    pthread_mutex_unlock(&lock);
    return result;
}

static const struct fuse_operations operations = {
    .init = fs_init, .getattr = fs_getattr, .access = fs_access, .readlink = fs_readlink,
    .opendir = fs_opendir, .readdir = fs_readdir, .releasedir = fs_releasedir, .fsyncdir = fs_fsyncdir,
    .mknod = fs_mknod, .mkdir = fs_mkdir, .symlink = fs_symlink, .unlink = fs_unlink, .rmdir = fs_rmdir,
    .rename = fs_rename, .link = fs_link, .chmod = fs_chmod, .chown = fs_chown, .truncate = fs_truncate,
    .utimens = fs_utimens, .create = fs_create, .open = fs_open, .read = fs_read, .write = fs_write,
    .statfs = fs_statfs, .flush = fs_flush, .release = fs_release, .fsync = fs_fsync, .fallocate = fs_fallocate,
};

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: faultfs BACKING MOUNTPOINT [--log=FILE] [FUSE options]\n");
        return 2;
    }
    backing = realpath(argv[1], NULL);
    if (!backing) {
        perror(argv[1]);
        return 2;
    }
    struct fuse_args args = FUSE_ARGS_INIT(argc - 1, argv + 1);
    args.argv[0] = argv[0];
    if (fuse_opt_parse(&args, &log_path, options, NULL) != 0) return 2;
    if (log_path && open_log(log_path) != 0) {
        perror(log_path);
        return 2;
    }
    umask(0);
    return fuse_main(args.argc, args.argv, &operations, NULL);
}
