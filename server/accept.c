/* Accept matching (see accept.h): one pass over each header line, reading its comma-separated media
 * ranges (RFC 9110's grammar: type "/" subtype, then ";" parameters, each a token or a quoted string,
 * with q the weight) and keeping, for each type of the ranking, the q of the range of highest
 * precedence that applies to it. What does not parse is skipped to the element's end; nothing is
 * allocated and nothing is copied. */
#include "server/accept.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

/* Precedence of a range whose parameters the type all carries: above every one whose parameters it
 * does not (those rank 0 to 2, by level alone); then by level (star/star 0, type/star 1,
 * type/subtype 2), then by the parameters met. */
enum { PRECEDENCE_CARRIED = 3, PRECEDENCE_LEVEL = ACCEPT_PARAMS_MAX + 1 };

/* RFC 9110's tchar: the bytes a token is made of. */
static bool is_tchar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static const char *skip_spaces(const char *at) {
    while (*at == ' ' || *at == '\t') at++;
    return at;
}

static accept_span read_token(const char **at) {
    const char *from = *at;
    while (is_tchar(**at)) (*at)++;
    return (accept_span){from, (size_t)(*at - from)};
}

/* A parameter's value: a token, or what a quoted string holds between its quotes (a backslash and the
 * byte after it kept as they are). */
static accept_span read_value(const char **at) {
    if (**at != '"') return read_token(at);
    const char *from = ++*at;
    while (**at != '\0' && **at != '"') *at += (**at == '\\' && (*at)[1] != '\0') ? 2 : 1;
    accept_span value = {from, (size_t)(*at - from)};
    if (**at == '"') (*at)++;
    return value;
}

/* The end of the list element at `at`: its ',' (outside a quoted string) or the line's end. */
static const char *element_end(const char *at) {
    bool quoted = false;
    for (; *at != '\0' && (quoted || *at != ','); at++) {
        if (quoted && *at == '\\' && at[1] != '\0') at++;
        else if (*at == '"') quoted = !quoted;
    }
    return at;
}

/* A qvalue in thousandths ("0", "0.5", "0.125", "1", "1.000"), or ACCEPT_Q_ONE for text that is not one. */
static unsigned read_qvalue(accept_span value) {
    const char *q = value.text;
    size_t len = value.len;
    if (len == 0 || len > 5 || q[0] != '0' || (len > 1 && q[1] != '.')) return ACCEPT_Q_ONE;
    unsigned thousandths = 0;
    for (size_t i = 2; i < 5; i++) {
        if (i < len && (q[i] < '0' || q[i] > '9')) return ACCEPT_Q_ONE;
        thousandths = thousandths * 10 + (i < len ? (unsigned)(q[i] - '0') : 0);
    }
    return thousandths;
}

static bool same(accept_span a, accept_span b) { return a.len == b.len && strncasecmp(a.text, b.text, a.len) == 0; }

static bool is_star(accept_span a) { return a.len == 1 && a.text[0] == '*'; }

/* Reads the list element at *at into `media`, leaving *at at the element's end. False when the
 * element is empty (only spaces). Parameters after the q are the weight's, not the media type's. */
static bool read_media(const char **at, accept_media *media) {
    *media = (accept_media){.quality = ACCEPT_Q_ONE};
    const char *p = skip_spaces(*at);
    if (*p == ',' || *p == '\0') {
        *at = p;
        return false;
    }
    media->type = read_token(&p);
    if (*p == '/') {
        p++;
        media->subtype = read_token(&p);
    }
    media->valid = media->type.len > 0 && media->subtype.len > 0;
    bool weighed = false;
    for (p = skip_spaces(p); *p == ';'; p = skip_spaces(p)) {
        p = skip_spaces(p + 1);
        accept_span name = read_token(&p);
        if (name.len == 0 || *p != '=') continue; /* ";;" or a name without a value: nothing */
        p++;
        accept_span value = read_value(&p);
        if (weighed) continue;
        if (name.len == 1 && (name.text[0] == 'q' || name.text[0] == 'Q')) {
            media->quality = read_qvalue(value);
            weighed = true;
        } else if (media->params == ACCEPT_PARAMS_MAX) {
            media->params_dropped = true;
        } else {
            media->names[media->params] = name;
            media->values[media->params++] = value;
        }
    }
    *at = element_end(p);
    return true;
}

/* The precedence with which `range` applies to `type` (see PRECEDENCE_CARRIED), or -1 when it does
 * not: another type, or a parameter the type carries with another value. */
static int precedence_of(const accept_media *range, const accept_media *type) {
    if (!range->valid) return -1;
    int level;
    if (is_star(range->type)) {
        if (!is_star(range->subtype)) return -1;
        level = 0;
    } else if (!same(range->type, type->type)) {
        return -1;
    } else if (is_star(range->subtype)) {
        level = 1;
    } else if (!same(range->subtype, type->subtype)) {
        return -1;
    } else {
        level = 2;
    }
    bool carried = !range->params_dropped;
    int met = 0;
    for (size_t i = 0; i < range->params; i++) {
        size_t j = 0;
        while (j < type->params && !same(range->names[i], type->names[j])) j++;
        if (j == type->params) carried = false;
        else if (!same(range->values[i], type->values[j])) return -1;
        else met++;
    }
    return carried ? PRECEDENCE_CARRIED + level * PRECEDENCE_LEVEL + met : level;
}

void accept_ranking_start(accept_ranking *ranking, const char *const *types) {
    ranking->count = 0;
    ranking->ranged = false;
    for (const char *const *type = types; *type != NULL; type++) {
        assert(ranking->count < ACCEPT_TYPES_MAX);
        size_t i = ranking->count++;
        const char *at = *type;
        read_media(&at, &ranking->types[i]);
        ranking->precedence[i] = -1;
        ranking->quality[i] = 0;
    }
}

void accept_ranking_read(accept_ranking *ranking, const char *line) {
    for (const char *at = line;; at++) {
        accept_media range;
        if (read_media(&at, &range)) {
            ranking->ranged = true;
            for (size_t i = 0; i < ranking->count; i++) {
                int precedence = precedence_of(&range, &ranking->types[i]);
                if (precedence > ranking->precedence[i]) { /* of equal ones, the first decides */
                    ranking->precedence[i] = precedence;
                    ranking->quality[i] = range.quality;
                }
            }
        }
        if (*at == '\0') return;
    }
}

unsigned accept_ranking_quality(const accept_ranking *ranking, size_t index) {
    if (!ranking->ranged) return ACCEPT_Q_ONE;
    return ranking->precedence[index] < 0 ? 0 : ranking->quality[index];
}

int accept_ranking_choice(const accept_ranking *ranking, unsigned among) {
    int best = -1;
    unsigned best_quality = 0;
    for (size_t i = 0; i < ranking->count; i++) {
        unsigned quality = accept_ranking_quality(ranking, i);
        if ((among >> i & 1u) == 0 || quality == 0) continue;
        if (best < 0 || quality > best_quality ||
            (quality == best_quality && ranking->precedence[i] > ranking->precedence[best])) {
            best = (int)i;
            best_quality = quality;
        }
    }
    return best;
}
