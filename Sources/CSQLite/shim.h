// SQLite's C API for the `SQLite` module (the only module that imports it).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies a bound value before the
// bind returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
