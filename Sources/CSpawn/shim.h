// glibc functions the Glibc module does not export without _GNU_SOURCE: the posix_spawn file action that closes
// every descriptor from a number up (glibc 2.34), and pipe2.
#include <spawn.h>

int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int pipe2(int pipefd[2], int flags);
