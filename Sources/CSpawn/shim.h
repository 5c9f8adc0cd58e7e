#include <spawn.h>

/* glibc (2.29, 2.34) declares these only with _GNU_SOURCE, which Swift's Glibc module is built without. */
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
