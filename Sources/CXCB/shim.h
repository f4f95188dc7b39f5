// The few XCB calls the X11 focus backend needs, wrapped where a macro, a union or a malloc'd
// reply would be awkward in Swift. Only the FocusWatch module imports this.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

/// The root window of screen `screen_number` (0 when it does not exist).
static inline xcb_window_t cxcb_root(xcb_connection_t *c, int screen_number) {
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; it.rem > 0; i++, xcb_screen_next(&it)) {
        if (i == screen_number) return it.data->root;
    }
    return 0;
}

/// Asks for PropertyNotify events of `window`; 0 on success, the X error code otherwise.
static inline int cxcb_select_property_changes(xcb_connection_t *c, xcb_window_t window) {
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_generic_error_t *error = xcb_request_check(c, xcb_change_window_attributes_checked(c, window, XCB_CW_EVENT_MASK, &mask));
    if (!error) return 0;
    int code = error->error_code;
    free(error);
    return code ? code : -1;
}

/// The atom named `name` (0 when the server did not answer).
static inline xcb_atom_t cxcb_intern(xcb_connection_t *c, const char *name, int only_if_exists) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(
        c, xcb_intern_atom(c, (uint8_t)only_if_exists, (uint16_t)strlen(name), name), NULL);
    if (!reply) return 0;
    xcb_atom_t atom = reply->atom;
    free(reply);
    return atom;
}

/// A window property's value (up to 64 KiB) copied into `buffer` (capacity `capacity`); returns
/// its length in bytes, -1 when the window or the property does not exist. `format` gets 8, 16 or 32.
static inline int cxcb_property(
    xcb_connection_t *c, xcb_window_t window, xcb_atom_t property, void *buffer, int capacity, int *format) {
    xcb_get_property_reply_t *reply = xcb_get_property_reply(
        c, xcb_get_property(c, 0, window, property, XCB_ATOM_ANY, 0, 16384), NULL);
    if (!reply) return -1;
    if (reply->type == XCB_NONE) {
        free(reply);
        return -1;
    }
    int length = xcb_get_property_value_length(reply);
    if (length > capacity) length = capacity;
    memcpy(buffer, xcb_get_property_value(reply), (size_t)length);
    *format = reply->format;
    free(reply);
    return length;
}

/// Blocks for the next event. Returns -1 when the connection is gone, 1 for a PropertyNotify
/// (its window and atom filled in), 0 for any other event.
static inline int cxcb_next_property_notify(xcb_connection_t *c, xcb_window_t *window, xcb_atom_t *atom) {
    xcb_generic_event_t *event = xcb_wait_for_event(c);
    if (!event) return -1;
    int result = 0;
    if ((event->response_type & 0x7f) == XCB_PROPERTY_NOTIFY) {
        xcb_property_notify_event_t *notify = (xcb_property_notify_event_t *)event;
        *window = notify->window;
        *atom = notify->atom;
        result = 1;
    }
    free(event);
    return result;
}

/// The predefined atom WM_CLASS.
static inline xcb_atom_t cxcb_wm_class(void) { return XCB_ATOM_WM_CLASS; }
