/* Client-sent text (a path) made safe to echo in a log line or an error message: every byte outside
 * printable ASCII becomes '?', so a crafted path can neither forge a log line nor put invalid UTF-8
 * into a JSON answer. */
#ifndef PUZZLED_SERVER_PRINTABLE_H
#define PUZZLED_SERVER_PRINTABLE_H

#include <stddef.h>

/* Copies `in` into `out` (`size` bytes, NUL-terminated, cut if longer). */
void printable_ascii(char *out, size_t size, const char *in);

#endif
