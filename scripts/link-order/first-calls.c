// first-calls: runs a program under ptrace with a breakpoint on the entry of each given function
// and writes each function's address to OUT the first time any thread calls it, then lets the
// program go on as usual. Used by scripts/link-order/record to learn which functions start-up
// and an invocation run, for the link order of the installed deeplinkerd.
//
//     first-calls FUNCTIONS OUT PROGRAM [ARG...]
//
// FUNCTIONS holds one hexadecimal address per line (function entries of PROGRAM, which must not
// be position-independent). OUT gets one address per line, in the order of the first calls,
// flushed as they happen. SIGTERM and SIGINT are passed on to the program. Exits with the
// program's status.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

struct breakpoint {
    uint64_t address;
    unsigned char original;
    int armed;
};

static struct breakpoint *points;
static size_t count;
static volatile pid_t child;

static void pass_on(int sig) {
    if (child > 0) kill(child, sig);
}

static int by_address(const void *a, const void *b) {
    uint64_t x = ((const struct breakpoint *)a)->address, y = ((const struct breakpoint *)b)->address;
    return x < y ? -1 : x > y;
}

static struct breakpoint *find(uint64_t address) {
    struct breakpoint key = {.address = address};
    return bsearch(&key, points, count, sizeof *points, by_address);
}

static void fail(const char *what) {
    perror(what);
    exit(127);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: first-calls FUNCTIONS OUT PROGRAM [ARG...]\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) fail(argv[1]);
    size_t capacity = 1 << 16;
    points = malloc(capacity * sizeof *points);
    unsigned long long address;
    while (fscanf(in, "%llx", &address) == 1) {
        if (count == capacity) points = realloc(points, (capacity *= 2) * sizeof *points);
        points[count++] = (struct breakpoint){.address = address};
    }
    fclose(in);
    qsort(points, count, sizeof *points, by_address);
    FILE *out = fopen(argv[2], "w");
    if (!out) fail(argv[2]);

    child = fork();
    if (child < 0) fail("fork");
    if (child == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execv(argv[3], argv + 3);
        _exit(127);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status)) fail("exec");
    ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL);
    struct sigaction action = {.sa_handler = pass_on};
    sigaction(SIGTERM, &action, 0);
    sigaction(SIGINT, &action, 0);

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", child);
    int mem = open(path, O_RDWR);
    if (mem < 0) fail(path);
    const unsigned char trap = 0xCC;
    size_t armed = 0;
    for (size_t i = 0; i < count; i++) {
        if (pread(mem, &points[i].original, 1, (off_t)points[i].address) != 1) continue;
        if (pwrite(mem, &trap, 1, (off_t)points[i].address) != 1) continue;
        points[i].armed = 1;
        armed++;
    }
    fprintf(stderr, "first-calls: %zu of %zu breakpoints set\n", armed, count);
    ptrace(PTRACE_CONT, child, 0, 0);

    for (;;) {
        pid_t pid = waitpid(-1, &status, __WALL);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            if (pid == child) break;
            continue;
        }
        if (!WIFSTOPPED(status)) continue;
        int sig = WSTOPSIG(status);
        int deliver = 0;
        if (sig == SIGTRAP && (status >> 16) != 0) {
            // A clone event: the new thread starts traced and stops with SIGSTOP on its own.
        } else if (sig == SIGTRAP) {
            struct user_regs_struct regs;
            ptrace(PTRACE_GETREGS, pid, 0, &regs);
            struct breakpoint *point = find(regs.rip - 1);
            if (point) {
                // Several threads can reach the same breakpoint before the first one restores
                // it: each of them re-runs the restored instruction.
                if (point->armed) {
                    pwrite(mem, &point->original, 1, (off_t)point->address);
                    point->armed = 0;
                    fprintf(out, "%llx\n", (unsigned long long)point->address);
                    fflush(out);
                }
                regs.rip = point->address;
                ptrace(PTRACE_SETREGS, pid, 0, &regs);
            } else {
                deliver = sig;
            }
        } else if (sig == SIGSTOP) {
            // A new thread's first stop, or a stop we pass on as if untraced.
        } else {
            deliver = sig;
        }
        ptrace(PTRACE_CONT, pid, 0, deliver);
    }
    fclose(out);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
