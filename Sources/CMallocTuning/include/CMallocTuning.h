#ifndef CMALLOC_TUNING_H
#define CMALLOC_TUNING_H

/// glibc's mallopt, which Swift's Glibc module does not import (<malloc.h>). Returns mallopt's
/// result: 1 on success, 0 on error.
int cmalloc_set_arena_max(int arenas);
int cmalloc_set_mmap_threshold(int bytes);

#endif
