#ifndef DEEPLINKER_CDBUS_SHIM_H
#define DEEPLINKER_CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <poll.h>

/// Names the calling thread (Linux keeps 15 bytes); prctl is variadic, so Swift cannot call it.
static inline void cdbus_set_current_thread_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif
