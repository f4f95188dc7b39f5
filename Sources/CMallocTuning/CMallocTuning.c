#include "CMallocTuning.h"
#include <malloc.h>

int cmalloc_set_arena_max(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

int cmalloc_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
