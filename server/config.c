/* Reads the configuration through the option table (server/options.h): every option's default, then
 * its PUZZLED_* environment variable, then the flags (a flag wins). --help is printed from the same
 * table, each option's help followed by its values and its default, in the form tests/docs/run.py
 * reads: "(VALUES; default DEFAULT)". */
#include "server/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/cors.h"
#include "server/options.h"
#include "server/routes.h"

/* Columns of --help's endpoint list. */
enum { HELP_WIDTH = 100 };

static void *member_of(puzzled_config *config, const option *opt) { return (char *)config + opt->offset; }

/* Numbers live in unsigned members or in 64-bit ones (size_t, uint64_t). */
static void store_number(puzzled_config *config, const option *opt, uint64_t value) {
    if (opt->size == sizeof(unsigned)) {
        unsigned narrow = (unsigned)value;
        memcpy(member_of(config, opt), &narrow, sizeof narrow);
    } else {
        memcpy(member_of(config, opt), &value, sizeof value);
    }
}

static uint64_t load_number(puzzled_config *config, const option *opt) {
    if (opt->size == sizeof(unsigned)) {
        unsigned narrow;
        memcpy(&narrow, member_of(config, opt), sizeof narrow);
        return narrow;
    }
    uint64_t value;
    memcpy(&value, member_of(config, opt), sizeof value);
    return value;
}

static void store_text(puzzled_config *config, const option *opt, const char *text) {
    memcpy(member_of(config, opt), text, strlen(text) + 1);
}

static unsigned cores_online(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned)cores : 1;
}

/* Every option's default, but DEFAULT_PER_WORKER's: its member holds max + 1, a value no flag can
 * give, until settle_per_worker_defaults replaces it once --workers is known. */
static void set_defaults(puzzled_config *config) {
    *config = (puzzled_config){0};
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        switch (opt->default_rule) {
        case DEFAULT_VALUE:
            if (opt->kind == OPTION_NUMBER) store_number(config, opt, opt->default_number);
            else if (opt->kind != OPTION_SWITCH) store_text(config, opt, opt->default_text);
            break;
        case DEFAULT_NONE: break;
        case DEFAULT_CORES: store_number(config, opt, cores_online()); break;
        case DEFAULT_PER_WORKER: store_number(config, opt, opt->max + 1); break;
        }
    }
}

static void settle_per_worker_defaults(puzzled_config *config) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->default_rule == DEFAULT_PER_WORKER && load_number(config, opt) > opt->max)
            store_number(config, opt, opt->default_number * config->workers);
    }
}

/* "text or json": an option's choices as --help and its error message say them. */
static void print_choices(FILE *out, const option *opt) {
    for (size_t i = 0; opt->choices[i] != NULL; i++) {
        const char *separator = i == 0 ? "" : opt->choices[i + 1] == NULL ? " or " : ", ";
        fprintf(out, "%s%s", separator, opt->choices[i]);
    }
}

static bool is_choice(const option *opt, const char *text) {
    bool found = false;
    for (size_t i = 0; opt->choices[i] != NULL && !found; i++) found = strcmp(opt->choices[i], text) == 0;
    return found;
}

/* A whole number in the option's range, digits only (strtoull alone would also take leading spaces,
 * a sign and "-1" as its largest value). */
static bool parse_number(const option *opt, const char *text, uint64_t *value) {
    char *end;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    *value = parsed;
    bool digits_only = text[0] >= '0' && text[0] <= '9' && *end == '\0';
    return errno == 0 && digits_only && parsed >= opt->min && parsed <= opt->max;
}

/* Stores `text` into the option's member; false, after printing why naming `source` (the flag or the
 * environment variable), when it is not acceptable. */
static bool apply(puzzled_config *config, const option *opt, const char *text, const char *source) {
    bool ok = false;
    uint64_t number;
    switch (opt->kind) {
    case OPTION_NUMBER:
        if (!parse_number(opt, text, &number)) {
            fprintf(stderr, "puzzled: %s must be a whole number from %llu to %llu, got '%s'\n", source,
                    (unsigned long long)opt->min, (unsigned long long)opt->max, text);
            goto out;
        }
        store_number(config, opt, number);
        break;
    case OPTION_TEXT:
        if (text[0] == '\0' || strlen(text) >= opt->size) {
            fprintf(stderr, "puzzled: %s must be 1 to %zu characters\n", source, opt->size - 1);
            goto out;
        }
        store_text(config, opt, text);
        break;
    case OPTION_CHOICE:
        if (!is_choice(opt, text)) {
            fprintf(stderr, "puzzled: %s must be ", source);
            print_choices(stderr, opt);
            fprintf(stderr, ", got '%s'\n", text);
            goto out;
        }
        store_text(config, opt, text);
        break;
    case OPTION_SWITCH: *(bool *)member_of(config, opt) = true; break;
    }
    ok = true;
out:
    return ok;
}

/* " (0 to 65535; default 8080)": what an option accepts and what it is without one. */
static void print_values_and_default(const option *opt) {
    printf(" (");
    switch (opt->kind) {
    case OPTION_NUMBER: printf("%llu to %llu", (unsigned long long)opt->min, (unsigned long long)opt->max); break;
    case OPTION_TEXT: printf("1 to %zu characters", opt->size - 1); break;
    case OPTION_CHOICE: print_choices(stdout, opt); break;
    case OPTION_SWITCH: break;
    }
    printf("; default ");
    switch (opt->default_rule) {
    case DEFAULT_VALUE:
        if (opt->kind == OPTION_NUMBER) printf("%llu", (unsigned long long)opt->default_number);
        else printf("%s", opt->default_text);
        break;
    case DEFAULT_NONE: printf("none"); break;
    case DEFAULT_CORES: printf("number of cores"); break;
    case DEFAULT_PER_WORKER: printf("%llu x workers", (unsigned long long)opt->default_number); break;
    }
    printf(")");
}

/* The endpoints that compute, from the routing table, so --help names every one. */
static void print_endpoints(void) {
    printf("Endpoints, each described at /openapi.yaml and /docs:\n ");
    size_t column = 1;
    for (size_t i = 0; i < route_count(); i++) {
        const route *r = route_at(i);
        if (r->thread != ON_WORKER) continue;
        if (column + 1 + strlen(r->path) > HELP_WIDTH) {
            printf("\n ");
            column = 1;
        }
        column += (size_t)printf(" %s", r->path);
    }
    printf("\n\n");
}

static void print_help(void) {
    printf("Usage: puzzled [options]\n"
           "HTTP service for shuffles, permutations and combinations, N-Queens, knight's tours, word ladders\n"
           "and Sudoku.\n");
    print_endpoints();
    printf("Each option can also be set by the environment variable shown; a flag wins.\n");
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        printf("  %-22s %-26s %s", opt->flag, opt->env != NULL ? opt->env : "", opt->help);
        if (opt->kind != OPTION_SWITCH) print_values_and_default(opt);
        printf("\n");
    }
    printf("  %-22s %-26s %s\n", "--help", "", "show this help");
}

/* The option `arg` names: "--flag", or "--flag=VALUE" with `*inline_value` pointing at VALUE (NULL
 * otherwise); a switch takes no value. NULL when none does. */
static const option *find_option(const char *arg, const char **inline_value) {
    const option *found = NULL;
    *inline_value = NULL;
    for (size_t i = 0; i < option_count && found == NULL; i++) {
        size_t flag_len = strlen(options[i].flag);
        if (strncmp(arg, options[i].flag, flag_len) != 0) continue;
        if (arg[flag_len] == '\0') {
            found = &options[i];
        } else if (arg[flag_len] == '=' && options[i].kind != OPTION_SWITCH) {
            found = &options[i];
            *inline_value = arg + flag_len + 1;
        }
    }
    return found;
}

int config_load(puzzled_config *config, int argc, char **argv) {
    int result = 2;
    set_defaults(config);
    for (size_t i = 0; i < option_count; i++) {
        const char *value = options[i].env != NULL ? getenv(options[i].env) : NULL;
        if (value != NULL && value[0] != '\0' && !apply(config, &options[i], value, options[i].env)) goto out;
    }
    for (int arg = 1; arg < argc; arg++) {
        if (strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0) {
            print_help();
            result = 1;
            goto out;
        }
        const char *value;
        const option *opt = find_option(argv[arg], &value);
        if (opt == NULL) {
            fprintf(stderr, "puzzled: unknown option '%s' (see --help)\n", argv[arg]);
            goto out;
        }
        if (opt->kind != OPTION_SWITCH && value == NULL && arg + 1 < argc) value = argv[++arg];
        if (opt->kind != OPTION_SWITCH && value == NULL) {
            fprintf(stderr, "puzzled: %s needs a value (see --help)\n", opt->flag);
            goto out;
        }
        if (!apply(config, opt, value, opt->flag)) goto out;
    }
    settle_per_worker_defaults(config);
    char why[256];
    if (!cors_origins_valid(config->cors_origin, why, sizeof why)) {
        fprintf(stderr, "puzzled: --cors-origin: %s\n", why);
        goto out;
    }
    result = 0;
out:
    return result;
}
