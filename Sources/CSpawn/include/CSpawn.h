// GNU extensions Spawn needs that Swift's Glibc module does not declare (they need _GNU_SOURCE).
// Imported only by the Spawn module.
#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/// glibc's POSIX_SPAWN_SETSID (the child starts a new session), declared only under _GNU_SOURCE;
/// CSpawn.c checks that the value is glibc's.
#define CSPAWN_SETSID 0x80

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, so no program another thread
/// starts at the same moment inherits them.
int cspawn_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
/// `from` up, so it gets none of ours beyond the three it is given.
int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
