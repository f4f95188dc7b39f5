#ifndef DEEPLINKER_CDBUS_SHIM_H
#define DEEPLINKER_CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <sys/eventfd.h>
#include <poll.h>
#endif
