/* Request-derived entity tags (see etag.h). FNV-1a over 128 bits (offset basis and prime from the
 * FNV specification, draft-eastlake-fnv), fed with each part and a separator byte that cannot occur
 * inside a part's text. */
#include "server/etag.h"

#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

static u128 fnv_offset_basis(void) { return ((u128)0x6c62272e07bb0142ULL << 64) | 0x62b821756295c58dULL; }

static u128 fnv_prime(void) { return ((u128)1 << 88) | 0x13b; }

static void fnv_feed(u128 *hash, const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        *hash ^= *p;
        *hash *= fnv_prime();
    }
    *hash ^= 0xff; /* the separator: 0xff never appears in UTF-8 text */
    *hash *= fnv_prime();
}

bool etag_of_request(char out[ETAG_SIZE], const char *server_fingerprint, const char *route_path,
                     const char *representation, const cJSON *params) {
    u128 hash = fnv_offset_basis();
    fnv_feed(&hash, server_fingerprint);
    fnv_feed(&hash, route_path);
    fnv_feed(&hash, representation);
    for (const cJSON *field = params->child; field != NULL; field = field->next) {
        if (strcmp(field->string, "time_limit_ms") == 0) continue;
        char *value = cJSON_PrintUnformatted(field);
        if (value == NULL) return false;
        fnv_feed(&hash, field->string);
        fnv_feed(&hash, value);
        cJSON_free(value);
    }
    snprintf(out, ETAG_SIZE, "\"%016llx%016llx\"", (unsigned long long)(hash >> 64), (unsigned long long)hash);
    return true;
}

bool etag_matches(const char *if_none_match, const char *etag) {
    size_t tag_length = strlen(etag);
    for (const char *p = if_none_match; *p != '\0';) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (*p == '*') return true;
        if (p[0] == 'W' && p[1] == '/') p += 2; /* weak comparison, as RFC 9110 asks for If-None-Match */
        if (strncmp(p, etag, tag_length) == 0 &&
            (p[tag_length] == '\0' || p[tag_length] == ',' || p[tag_length] == ' ' || p[tag_length] == '\t'))
            return true;
        while (*p != '\0' && *p != ',') p++;
    }
    return false;
}
