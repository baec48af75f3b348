/* Content negotiation by Accept (RFC 9110 section 12.5.1): how much a request's Accept lines want
 * each of a route's media types, for the 406 not_acceptable of server/request_dispatch.c and for the
 * form its answer takes (JSON, NDJSON, text or events), so that the two never disagree. The one
 * reader of Accept in the server.
 *
 * Each type gets the q of the media range of highest precedence that applies to it: type/subtype with
 * parameters the type carries (the more of them, the higher), then type/subtype, then type/star, then
 * star/star. A range whose parameters the type does not carry (application/json;charset=utf-8 for
 * application/json) does not apply while any other range does; where none does, it counts, below
 * them all: strictly it would refuse the type, and these are the parameters a client adds without
 * meaning to choose by them. Several Accept lines are one list, in their order (RFC 9110 section
 * 5.3). Generous where the header is not read as the RFC writes it: no Accept line or no media range
 * at all accepts every type at q=1; a q that is not a qvalue (0 to 1, three decimals at most) counts
 * as 1; a range that names no type/subtype applies to nothing. */
#ifndef PUZZLED_SERVER_ACCEPT_H
#define PUZZLED_SERVER_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>

/* The most media types one ranking holds (a route lists at most five), and the most parameters read
 * of one media range or type (past them, a range's parameters count as ones the type does not carry). */
enum { ACCEPT_TYPES_MAX = 8, ACCEPT_PARAMS_MAX = 4 };

/* A q in thousandths: 0 refuses, ACCEPT_Q_ONE is q=1. */
enum { ACCEPT_Q_ONE = 1000 };

/* A span of a header value or of a type's text: not NUL-terminated. */
typedef struct accept_span {
    const char *text;
    size_t len;
} accept_span;

/* A media range or type as read: type/subtype, its parameters, and (of a range) its q. */
typedef struct accept_media {
    bool valid; /* type/subtype were both tokens */
    accept_span type, subtype;
    accept_span names[ACCEPT_PARAMS_MAX], values[ACCEPT_PARAMS_MAX]; /* values without their quotes */
    size_t params;
    bool params_dropped; /* more than ACCEPT_PARAMS_MAX */
    unsigned quality;    /* thousandths; ACCEPT_Q_ONE without a q */
} accept_media;

/* The Accept lines read so far against a list of types. */
typedef struct accept_ranking {
    size_t count;
    accept_media types[ACCEPT_TYPES_MAX];
    int precedence[ACCEPT_TYPES_MAX]; /* of the range that decides each type's q; -1: none applies yet */
    unsigned quality[ACCEPT_TYPES_MAX];
    bool ranged; /* some line held a media range */
} accept_ranking;

/* Starts a ranking of `types` ("application/json", or with parameters "text/plain;format=flowed"; a
 * NULL-terminated list of at most ACCEPT_TYPES_MAX, in the order that breaks ties, the default
 * first). */
void accept_ranking_start(accept_ranking *ranking, const char *const *types);

/* Reads one Accept line's value into the ranking. */
void accept_ranking_read(accept_ranking *ranking, const char *line);

/* The q of the i-th type, in thousandths: ACCEPT_Q_ONE before any media range, 0 where none applies. */
unsigned accept_ranking_quality(const accept_ranking *ranking, size_t index);

/* With every bit set: any type (ACCEPT_AMONG_ALL); with bit i alone, the i-th type alone. */
#define ACCEPT_AMONG_ALL (~0u)

/* The index of the type an answer takes, among those whose bit is set in `among`: the highest q
 * above 0; of equal q, the one the more specific range decides; then the first in the list. -1 when
 * the header refuses them all. */
int accept_ranking_choice(const accept_ranking *ranking, unsigned among);

#endif
