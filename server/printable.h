/* Client-sent text (a path, a URL inside a library's message) made safe to echo in a log line or an
 * error message: every byte outside printable ASCII becomes '?', so a crafted path can neither forge
 * a log line nor put invalid UTF-8 into a JSON answer. */
#ifndef PUZZLED_SERVER_PRINTABLE_H
#define PUZZLED_SERVER_PRINTABLE_H

#include <stddef.h>

/* Copies `in` into `out` (`size` bytes, NUL-terminated, cut if longer); a space becomes '?' too, so
 * the result is one field of a space-separated line. */
void printable_ascii(char *out, size_t size, const char *in);

/* The same for the first `length` bytes of `in`, spaces kept: the last field of a line. */
void printable_text(char *out, size_t size, const char *in, size_t length);

#endif
