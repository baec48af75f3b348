/* The option table: for each of puzzled's options its flag, environment variable, kind of argument,
 * default, limits, help text and the puzzled_config member it sets. It is the one place an option or a
 * default is written: server/config.c parses flags and the environment, sets the defaults and prints
 * --help from it, and tests/docs/run.py checks docs/configuration.md's option table against that
 * --help, so a default or a limit changed here reaches --help and is caught in the docs. Help texts
 * never state a default or a range: --help appends them from the table. */
#ifndef PUZZLED_SERVER_OPTIONS_H
#define PUZZLED_SERVER_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    OPTION_TEXT,   /* any text of 1 to size - 1 bytes */
    OPTION_NUMBER, /* a whole number from min to max, into an unsigned, a size_t or a uint64_t member */
    OPTION_CHOICE, /* one of `choices`, into a text member */
    OPTION_SWITCH, /* a flag without a value that sets a bool; no environment variable */
} option_kind;

typedef enum {
    DEFAULT_VALUE,      /* default_text or default_number */
    DEFAULT_NONE,       /* a text left empty: what it configures is off */
    DEFAULT_CORES,      /* the number of cores online */
    DEFAULT_PER_WORKER, /* default_number times the --workers value, settled after every option is read */
} option_default;

typedef struct option {
    const char *flag; /* "--port": also takes "--port=VALUE" */
    const char *env;  /* "PUZZLED_PORT", NULL for a switch */
    option_kind kind;
    size_t offset;               /* of the member it sets, in puzzled_config */
    size_t size;                 /* of that member */
    uint64_t min, max;           /* OPTION_NUMBER */
    const char *const *choices;  /* OPTION_CHOICE: NULL-terminated */
    option_default default_rule; /* DEFAULT_VALUE for a switch: false */
    const char *default_text;    /* OPTION_TEXT, OPTION_CHOICE */
    uint64_t default_number;     /* OPTION_NUMBER; the factor of DEFAULT_PER_WORKER */
    const char *help;
} option;

extern const option options[];
extern const size_t option_count;

#endif
