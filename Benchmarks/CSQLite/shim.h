// Debian's libsqlite3 (libsqlite3-dev), for the durable benchmark's SQLite anchor only: no shipped target
// depends on this module.
#include <sqlite3.h>
