#define _GNU_SOURCE
#include "CTaskThreads.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <stdbool.h>
#include <string.h>

// Declared by the runtime (swift/Runtime/Concurrency.h) as a pointer to a swiftcall function;
// only its address is needed here, and Swift writes the function.
extern void *swift_task_enqueueGlobal_hook;

void *_Nullable *_Nonnull ctaskthreads_enqueue_global_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}

bool ctaskthreads_compare_exchange(void *_Nullable *_Nonnull slot, void *_Nullable *_Nonnull expected, void *_Nullable desired) {
    return __atomic_compare_exchange_n(slot, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void ctaskthreads_set_thread_name(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    pthread_setname_np(pthread_self(), cut);
}

static int signal_pipe_write = -1;

static void write_signal(int signal) {
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    // A full pipe drops the byte: the reader is already behind on the same kind of news.
    (void)!write(signal_pipe_write, &number, 1);
    errno = saved;
}

int ctaskthreads_trap_signals(const int *signals, int count) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    signal_pipe_write = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = write_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return fds[0];
}
