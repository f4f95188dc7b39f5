// What TaskThreads needs from C: the Swift concurrency runtime's hook for jobs sent to the global
// executor, thread names, and a signal handler that only writes to a pipe. Imported only by the
// TaskThreads module.
#ifndef CTASKTHREADS_H
#define CTASKTHREADS_H

/// Sets the runtime's `swift_task_enqueueGlobal_hook` (a `@convention(thin)` function taking the
/// job and the runtime's own enqueue) and returns the hook it replaces, NULL when there was none.
void *_Nullable ctaskthreads_set_enqueue_global(void *_Nullable hook);

/// Names the calling thread (at most 15 bytes are kept), for `top -H`, `perf` and /proc.
void ctaskthreads_set_thread_name(const char *_Nonnull name);

/// Installs, for each of `signals`, a handler that writes the signal's number (one byte) to a
/// non-blocking close-on-exec pipe and nothing else (async-signal-safe), with SA_RESTART, and
/// returns the pipe's read end; -1 with errno set on failure. Call once.
int ctaskthreads_trap_signals(const int *_Nonnull signals, int count);

#endif
