/* server/config.c driven through the option table (server/options.h), option by option: with nothing
 * given every member holds the table's default (and each default is a value its option accepts); every
 * option is read from its flag (as "--flag VALUE" and "--flag=VALUE") and from its environment
 * variable, a flag winning; bad values, unknown options and a missing value are refused with exit
 * code 2 and the exact message; --queue follows --workers unless given; --help prints one line per
 * option with its variable, values and default (the line tests/docs/run.py checks the docs against)
 * and every endpoint that computes, from the routing table.
 * config_load writes to stdout and stderr: each call's output is captured in temporary files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/config.h"
#include "server/options.h"
#include "server/routes.h"

enum { MAX_ARGS = 8, OUTPUT_BYTES = 16384 };

/* What one config_load call returned and printed. */
typedef struct load {
    int result;
    puzzled_config config;
    char out[OUTPUT_BYTES], err[OUTPUT_BYTES];
} load;

static void read_whole(FILE *file, char *text) {
    rewind(file);
    size_t length = fread(text, 1, OUTPUT_BYTES - 1, file);
    text[length] = '\0';
    fclose(file);
}

/* config_load on `args` (NULL-terminated, without the program's name), its output captured. */
static load *load_with(const char *const *args) {
    static load l;
    char *argv[MAX_ARGS + 1] = {"puzzled"};
    int argc = 1;
    for (; args[argc - 1] != NULL; argc++) {
        cr_assert_lt(argc, MAX_ARGS);
        argv[argc] = (char *)args[argc - 1];
    }
    FILE *out = tmpfile(), *err = tmpfile();
    cr_assert(out != NULL && err != NULL);
    fflush(stdout);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    l.result = config_load(&l.config, argc, argv);
    fflush(stdout);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    read_whole(out, l.out);
    read_whole(err, l.err);
    return &l;
}

static const void *member(const puzzled_config *config, const option *opt) {
    return (const char *)config + opt->offset;
}

static uint64_t number_in(const puzzled_config *config, const option *opt) {
    if (opt->size == sizeof(unsigned)) return *(const unsigned *)member(config, opt);
    cr_assert_eq(opt->size, sizeof(uint64_t), "%s: a number member is an unsigned or 64 bits", opt->flag);
    return *(const uint64_t *)member(config, opt);
}

static const char *text_in(const puzzled_config *config, const option *opt) { return member(config, opt); }

static const option *option_named(const char *flag) {
    for (size_t i = 0; i < option_count; i++)
        if (strcmp(options[i].flag, flag) == 0) return &options[i];
    cr_assert_fail("no option %s", flag);
    return NULL;
}

/* A value the option accepts that is not its default, as text: a number's other end of its range,
 * another choice, or a text of its own. */
static const char *other_value(const option *opt, char *text, size_t size) {
    switch (opt->kind) {
    case OPTION_NUMBER:
        snprintf(text, size, "%llu",
                 (unsigned long long)(opt->default_rule == DEFAULT_VALUE && opt->default_number == opt->max
                                          ? opt->min
                                          : opt->max));
        break;
    case OPTION_CHOICE:
        for (size_t i = 0; opt->choices[i] != NULL; i++)
            if (strcmp(opt->choices[i], opt->default_text) != 0) snprintf(text, size, "%s", opt->choices[i]);
        break;
    case OPTION_TEXT: /* --cors-origin takes origins only */
        snprintf(text, size, "%sgiven-%s", strcmp(opt->flag, "--cors-origin") == 0 ? "http://" : "", opt->flag + 2);
        break;
    case OPTION_SWITCH: cr_assert_fail("a switch takes no value"); break;
    }
    return text;
}

static void expect_value(const load *l, const option *opt, const char *value) {
    cr_assert_eq(l->result, 0, "%s %s refused: %s", opt->flag, value, l->err);
    if (opt->kind == OPTION_NUMBER)
        cr_assert_eq(number_in(&l->config, opt), strtoull(value, NULL, 10), "%s", opt->flag);
    else cr_assert_str_eq(text_in(&l->config, opt), value, "%s", opt->flag);
}

static void clear_environment(void) {
    for (size_t i = 0; i < option_count; i++)
        if (options[i].env != NULL) unsetenv(options[i].env);
}

TestSuite(config, .init = clear_environment);

Test(config, with_nothing_given_every_member_holds_the_tables_default) {
    const char *none[] = {NULL};
    const load *l = load_with(none);
    cr_assert_eq(l->result, 0, "%s", l->err);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        switch (opt->default_rule) {
        case DEFAULT_VALUE:
            if (opt->kind == OPTION_NUMBER)
                cr_assert_eq(number_in(&l->config, opt), opt->default_number, "%s", opt->flag);
            else if (opt->kind == OPTION_SWITCH) cr_assert_not(*(const bool *)member(&l->config, opt), "%s", opt->flag);
            else cr_assert_str_eq(text_in(&l->config, opt), opt->default_text, "%s", opt->flag);
            break;
        case DEFAULT_NONE: cr_assert_str_empty(text_in(&l->config, opt), "%s", opt->flag); break;
        case DEFAULT_CORES: cr_assert_eq(number_in(&l->config, opt), (uint64_t)cores, "%s", opt->flag); break;
        case DEFAULT_PER_WORKER:
            cr_assert_eq(number_in(&l->config, opt), opt->default_number * l->config.workers, "%s", opt->flag);
            break;
        }
    }
}

Test(config, every_default_given_as_a_value_is_one_its_option_accepts) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->default_rule != DEFAULT_VALUE || opt->kind == OPTION_SWITCH) continue;
        char text[32];
        const char *value = opt->default_text;
        if (opt->kind == OPTION_NUMBER) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)opt->default_number);
            value = text;
        }
        const char *args[] = {opt->flag, value, NULL};
        expect_value(load_with(args), opt, value);
    }
}

Test(config, no_help_text_states_a_default_of_its_own) {
    for (size_t i = 0; i < option_count; i++)
        cr_assert_null(strstr(options[i].help, "(default"), "%s: --help appends the table's default", options[i].flag);
}

Test(config, every_option_is_read_from_its_flag_with_or_without_an_equals_sign) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->kind == OPTION_SWITCH) continue;
        char value[64], joined[128];
        other_value(opt, value, sizeof value);
        const char *separate[] = {opt->flag, value, NULL};
        expect_value(load_with(separate), opt, value);
        snprintf(joined, sizeof joined, "%s=%s", opt->flag, value);
        const char *together[] = {joined, NULL};
        expect_value(load_with(together), opt, value);
    }
}

Test(config, every_option_but_a_switch_is_read_from_its_environment_variable) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->kind == OPTION_SWITCH) {
            cr_assert_null(opt->env, "%s", opt->flag);
            continue;
        }
        char value[64];
        other_value(opt, value, sizeof value);
        setenv(opt->env, value, 1);
        const char *none[] = {NULL};
        expect_value(load_with(none), opt, value);
        unsetenv(opt->env);
    }
}

Test(config, an_empty_environment_variable_counts_as_unset) {
    setenv("PUZZLED_PORT", "", 1);
    const char *none[] = {NULL};
    expect_value(load_with(none), option_named("--port"), "8080");
}

Test(config, a_flag_wins_over_the_environment) {
    setenv("PUZZLED_PORT", "9000", 1);
    setenv("PUZZLED_LOG_FORMAT", "json", 1);
    const char *args[] = {"--port", "9001", "--log-format=text", NULL};
    const load *l = load_with(args);
    expect_value(l, option_named("--port"), "9001");
    expect_value(l, option_named("--log-format"), "text");
}

Test(config, the_health_check_switch_takes_no_value) {
    const char *bare[] = {"--health-check", NULL};
    const load *l = load_with(bare);
    cr_assert_eq(l->result, 0);
    cr_assert(l->config.health_check);
    const char *with_value[] = {"--health-check=yes", NULL};
    l = load_with(with_value);
    cr_assert_eq(l->result, 2);
    cr_assert_str_eq(l->err, "puzzled: unknown option '--health-check=yes' (see --help)\n");
}

Test(config, the_queue_is_1024_per_worker_unless_given) {
    const char *workers[] = {"--workers", "3", NULL};
    cr_assert_eq(load_with(workers)->config.queue, 3072);
    const char *both[] = {"--queue", "5", "--workers", "3", NULL};
    cr_assert_eq(load_with(both)->config.queue, 5);
    const char *zero[] = {"--queue=0", NULL};
    cr_assert_eq(load_with(zero)->config.queue, 0);
}

static void expect_refused(const char *const *args, const char *message) {
    const load *l = load_with(args);
    cr_assert_eq(l->result, 2, "%s accepted", args[0]);
    cr_assert_str_eq(l->err, message);
}

Test(config, a_number_out_of_range_or_not_a_whole_number_is_refused_naming_the_range) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->kind != OPTION_NUMBER) continue;
        char above[32], below[32], message[256];
        snprintf(above, sizeof above, "%llu", (unsigned long long)opt->max + 1);
        snprintf(below, sizeof below, "%lld", (long long)opt->min - 1);
        const char *bad[] = {above, below, "abc", "12x", "", "5 ", " 5", "+5", "0x10"};
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            snprintf(message, sizeof message, "puzzled: %s must be a whole number from %llu to %llu, got '%s'\n",
                     opt->flag, (unsigned long long)opt->min, (unsigned long long)opt->max, bad[b]);
            const char *args[] = {opt->flag, bad[b], NULL};
            expect_refused(args, message);
        }
    }
}

Test(config, a_text_empty_or_longer_than_its_member_is_refused) {
    for (size_t i = 0; i < option_count; i++) {
        const option *opt = &options[i];
        if (opt->kind != OPTION_TEXT) continue;
        char *longest = malloc(opt->size + 1), message[256];
        memset(longest, 'a', opt->size);
        longest[opt->size] = '\0';
        if (strcmp(opt->flag, "--cors-origin") == 0) memcpy(longest, "http://", 7); /* origins only */
        snprintf(message, sizeof message, "puzzled: %s must be 1 to %zu characters\n", opt->flag, opt->size - 1);
        const char *too_long[] = {opt->flag, longest, NULL};
        expect_refused(too_long, message);
        const char *empty[] = {opt->flag, "", NULL};
        expect_refused(empty, message);
        longest[opt->size - 1] = '\0';
        const char *fits[] = {opt->flag, longest, NULL};
        expect_value(load_with(fits), opt, longest);
        free(longest);
    }
}

Test(config, a_choice_not_listed_is_refused_naming_the_choices) {
    const char *args[] = {"--log-format", "xml", NULL};
    expect_refused(args, "puzzled: --log-format must be text or json, got 'xml'\n");
}

Test(config, a_bad_environment_variable_is_refused_naming_the_variable) {
    setenv("PUZZLED_PORT", "70000", 1);
    const char *none[] = {NULL};
    expect_refused(none, "puzzled: PUZZLED_PORT must be a whole number from 0 to 65535, got '70000'\n");
    setenv("PUZZLED_PORT", "8080", 1);
    setenv("PUZZLED_LOG_FORMAT", "xml", 1);
    expect_refused(none, "puzzled: PUZZLED_LOG_FORMAT must be text or json, got 'xml'\n");
}

Test(config, an_unknown_option_or_a_missing_value_is_refused) {
    const char *unknown[] = {"--no-such-flag", NULL};
    expect_refused(unknown, "puzzled: unknown option '--no-such-flag' (see --help)\n");
    const char *prefix[] = {"--max-connections-per", "4", NULL};
    expect_refused(prefix, "puzzled: unknown option '--max-connections-per' (see --help)\n");
    const char *missing[] = {"--port", NULL};
    expect_refused(missing, "puzzled: --port needs a value (see --help)\n");
}

Test(config, help_prints_every_option_with_its_variable_values_and_default) {
    const char *help[] = {"--workers", "2", "--help", "--no-such-flag", NULL};
    const load *l = load_with(help);
    cr_assert_eq(l->result, 1);
    cr_assert_str_empty(l->err);
    const char *expected[] = {
        "\n  --port                 PUZZLED_PORT               TCP port; 0 picks a free port (0 to 65535; default "
        "8080)\n",
        "\n  --queue                PUZZLED_QUEUE              requests that may wait for a thread in each lane, a "
        "memory guard (admission is by waiting time); beyond, 503 overloaded (0 to 1000000; default 1024 x "
        "workers)\n",
        " (1 to 1023 characters; default none)\n",
        " (1 to 1024; default number of cores)\n",
        " (text or json; default text)\n",
        "\n  --health-check                                    GET /healthz on the configured port; exit 0 if ok, 1 "
        "if not\n",
        "\n  --help                                            show this help\n",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        cr_assert_not_null(strstr(l->out, expected[i]), "--help lacks '%s':\n%s", expected[i], l->out);
    for (size_t i = 0; i < option_count; i++) {
        char start[512];
        snprintf(start, sizeof start, "\n  %-22s %-26s %s", options[i].flag, options[i].env ? options[i].env : "",
                 options[i].help);
        cr_assert_not_null(strstr(l->out, start), "--help lacks %s", options[i].flag);
    }
    for (size_t i = 0; i < route_count(); i++) {
        if (route_at(i)->thread != ON_WORKER) continue;
        char spaced[64], last[64];
        snprintf(spaced, sizeof spaced, " %s ", route_at(i)->path);
        snprintf(last, sizeof last, " %s\n", route_at(i)->path);
        cr_assert(strstr(l->out, spaced) != NULL || strstr(l->out, last) != NULL, "--help lacks %s", route_at(i)->path);
    }
}
