// What TaskThreads needs from C: the Swift concurrency runtime's hook for jobs sent to the global
// executor, thread names, and a signal handler that only writes to a pipe. Imported only by the
// TaskThreads module.
#ifndef CTASKTHREADS_H
#define CTASKTHREADS_H

#include <stdbool.h>

/// The address of the runtime's `swift_task_enqueueGlobal_hook` (a `@convention(thin)` function
/// taking the job and the runtime's own enqueue; NULL when no hook is installed).
void *_Nullable *_Nonnull ctaskthreads_enqueue_global_hook(void);

/// Atomically: if `*slot` is `*expected`, stores `desired` there and returns true; otherwise
/// writes the value found to `*expected` and returns false.
bool ctaskthreads_compare_exchange(void *_Nullable *_Nonnull slot, void *_Nullable *_Nonnull expected, void *_Nullable desired);

/// Names the calling thread (at most 15 bytes are kept), for `top -H`, `perf` and /proc.
void ctaskthreads_set_thread_name(const char *_Nonnull name);

/// Installs, for each of `signals`, a handler that writes the signal's number (one byte) to a
/// non-blocking close-on-exec pipe and nothing else (async-signal-safe), with SA_RESTART, and
/// returns the pipe's read end; -1 with errno set on failure. Call once.
int ctaskthreads_trap_signals(const int *_Nonnull signals, int count);

#endif
