#ifndef DEEPLINKER_CDBUS_SHIM_H
#define DEEPLINKER_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
