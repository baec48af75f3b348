/* server/clients.c on its own: --trusted-proxy's CIDR matching against Python's ipaddress module
 * (trusted_proxy_reference.py: the edges of each range, prefixes 0 to 32 and 0 to 128, IPv4-mapped
 * peers), seen through the one thing trust changes at accept (a trusted peer is exempt from
 * --max-connections-per-ip); the per-address connection count; the in-progress share; and the token
 * bucket held to what it guarantees whatever the scheduling: a burst of at least --client-burst, never
 * more than the burst plus the rate times the time that really passed, and a token back once 1/rate
 * has passed. Which address a request is attributed to (clients_identify) needs a live connection:
 * tests/fair_share/run.py checks it over HTTP. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/clients.h"

enum { REFERENCE_LINE = 256 };

/* A peer address as libmicrohttpd hands it over. */
typedef struct peer {
    struct sockaddr_storage storage;
} peer;

static const struct sockaddr *peer_at(peer *p, const char *address) {
    memset(p, 0, sizeof *p);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&p->storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&p->storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
    } else {
        cr_assert_eq(inet_pton(AF_INET6, address, &v6->sin6_addr), 1, "not an address: %s", address);
        v6->sin6_family = AF_INET6;
    }
    return (const struct sockaddr *)&p->storage;
}

static clients *table_trusting(const char *trusted_proxies, unsigned max_connections_per_ip) {
    clients_config config = {
        .trusted_proxies = trusted_proxies, .max_connections_per_ip = max_connections_per_ip, .burst = 1};
    clients *table = clients_create(&config);
    cr_assert_not_null(table, "refused --trusted-proxy %s", trusted_proxies);
    return table;
}

/* A table for the per-client shares alone (no trusted proxy, no connection limit). */
static clients *table_sharing(unsigned rate_per_second, unsigned burst, unsigned max_in_progress) {
    clients_config config = {
        .trusted_proxies = "", .rate_per_second = rate_per_second, .burst = burst, .max_in_progress = max_in_progress};
    clients *table = clients_create(&config);
    cr_assert_not_null(table);
    return table;
}

/* Trust seen from outside: with one connection allowed per address and one already open, a second
 * is accepted only from a trusted proxy. The connection is closed again after. */
static bool is_trusted(clients *table, const char *address) {
    peer p;
    const struct sockaddr *from = peer_at(&p, address);
    clients_connected(table, from, true);
    bool accepted = clients_accept(table, from);
    clients_connected(table, from, false);
    return accepted;
}

Test(clients, trusted_ranges_match_as_pythons_ipaddress_says) {
    char command[4096];
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    snprintf(command, sizeof command, "python3 '%s/tests/unit/server/trusted_proxy_reference.py'",
             source != NULL ? source : ".");
    FILE *reference = popen(command, "r");
    cr_assert_not_null(reference);
    char line[REFERENCE_LINE], range[REFERENCE_LINE] = "", network[REFERENCE_LINE], address[REFERENCE_LINE];
    int inside, cases = 0, insiders = 0;
    clients *table = NULL;
    while (fgets(line, sizeof line, reference) != NULL) {
        cr_assert_eq(sscanf(line, "%255s %255s %d", network, address, &inside), 3, "reference line: %s", line);
        if (strcmp(network, range) != 0) {
            if (table != NULL) clients_destroy(table);
            table = table_trusting(network, 1);
            snprintf(range, sizeof range, "%s", network);
        }
        cr_assert_eq(is_trusted(table, address), inside != 0, "%s in --trusted-proxy %s: Python says %s", address,
                     network, inside ? "yes" : "no");
        cases++;
        insiders += inside;
    }
    if (table != NULL) clients_destroy(table);
    cr_assert_eq(pclose(reference), 0, "the Python reference failed");
    cr_assert_gt(cases, 1000, "only %d cases", cases);
    cr_assert(insiders > 100 && cases - insiders > 100, "%d inside of %d: both answers must be tested", insiders,
              cases);
}

Test(clients, a_list_trusts_each_of_its_ranges_and_nothing_else) {
    clients *table = table_trusting("10.0.0.0/8, 192.168.1.7,2001:db8::/32", 1);
    cr_assert(is_trusted(table, "10.255.0.1"));
    cr_assert(is_trusted(table, "192.168.1.7"));
    cr_assert(is_trusted(table, "2001:db8:ffff::1"));
    cr_assert(is_trusted(table, "::ffff:10.1.2.3"), "an IPv4-mapped peer is its IPv4 address");
    cr_assert_not(is_trusted(table, "11.0.0.1"));
    cr_assert_not(is_trusted(table, "192.168.1.8"));
    cr_assert_not(is_trusted(table, "2001:db9::1"));
    clients_destroy(table);
}

Test(clients, malformed_trusted_proxies_are_refused) {
    static const char *const malformed[] = {
        "10.0.0.0/33", "::/129",      "10.0.0",
        "10.0.0.0/",   "/8",          "10.0.0.0/8x",
        "example.com", "10.0.0.0/-1", "10.0.0.0/8, nonsense",
        "1.2.3.4.5",   "::g",         "10.0.0.0/+8",
        "10.0.0.0/ 8",
    };
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        clients_config config = {.trusted_proxies = malformed[i], .burst = 1};
        clients *table = clients_create(&config);
        cr_assert_null(table, "accepted --trusted-proxy %s", malformed[i]);
    }
    char many[2048] = "";
    for (int i = 0; i < 65; i++) snprintf(many + strlen(many), sizeof many - strlen(many), "10.0.0.%d,", i);
    clients_config config = {.trusted_proxies = many, .burst = 1};
    cr_assert_null(clients_create(&config), "65 ranges: more than the table holds");
}

Test(clients, connections_are_counted_per_address) {
    clients *table = table_trusting("", 2);
    peer a, b, mapped;
    const struct sockaddr *first = peer_at(&a, "192.0.2.1");
    const struct sockaddr *other = peer_at(&b, "192.0.2.2");
    const struct sockaddr *first_as_ipv6 = peer_at(&mapped, "::ffff:192.0.2.1");
    cr_assert(clients_accept(table, first));
    clients_connected(table, first, true);
    cr_assert(clients_accept(table, first_as_ipv6));
    clients_connected(table, first_as_ipv6, true);
    cr_assert_not(clients_accept(table, first), "two open: the limit");
    cr_assert_not(clients_accept(table, first_as_ipv6), "the mapped address is the same client");
    cr_assert(clients_accept(table, other), "another address has its own count");
    clients_connected(table, first, false);
    cr_assert(clients_accept(table, first), "one closed: room again");
    clients_destroy(table);

    table = table_trusting("", 0);
    for (int i = 0; i < 100; i++) clients_connected(table, first, true);
    cr_assert(clients_accept(table, first), "0: no per-address limit");
    clients_destroy(table);
}

Test(clients, computing_requests_in_progress_are_capped_per_client) {
    clients *table = table_sharing(0, 1, 3);
    client_quota quota;
    for (int i = 0; i < 3; i++) cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_BUSY);
    cr_assert_eq(quota.retry_after_s, 1);
    cr_assert_eq(clients_admit(table, "192.0.2.2", &quota), CLIENT_ADMITTED, "another client has its share");
    clients_release(table, "192.0.2.1");
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED, "a release frees a place");
    clients_destroy(table);
}

Test(clients, no_rate_and_no_cap_admit_everything) {
    clients *table = table_sharing(0, 1, 0);
    client_quota quota;
    for (int i = 0; i < 10000; i++) cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    clients_destroy(table);
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

Test(clients, the_bucket_gives_the_burst_then_the_rate_and_never_more) {
    enum { RATE = 5, BURST = 40, ATTEMPTS = 1000 };
    clients *table = table_sharing(RATE, BURST, 0);
    double start = seconds_now();
    int admitted = 0, limited = 0;
    client_quota quota;
    unsigned longest_retry = 0, shortest_retry = 1000;
    for (int i = 0; i < ATTEMPTS; i++) {
        client_verdict verdict = clients_admit(table, "192.0.2.1", &quota);
        if (verdict == CLIENT_ADMITTED) {
            admitted++;
            clients_release(table, "192.0.2.1");
        } else {
            cr_assert_eq(verdict, CLIENT_RATE_LIMITED);
            limited++;
            longest_retry = quota.retry_after_s > longest_retry ? quota.retry_after_s : longest_retry;
            shortest_retry = quota.retry_after_s < shortest_retry ? quota.retry_after_s : shortest_retry;
        }
    }
    double elapsed = seconds_now() - start;
    cr_assert_geq(admitted, BURST, "the whole burst is admitted at once");
    cr_assert_leq(admitted, BURST + RATE * elapsed + 1e-6, "%d admitted in %.3f s: more than burst + rate x time",
                  admitted, elapsed);
    if (limited > 0) {
        /* Waiting Retry-After seconds is always enough for a token, and never more than a second too long. */
        cr_assert_geq(shortest_retry, 1);
        cr_assert_leq(longest_retry, 1 / RATE + 1);
    }
    clients_destroy(table);
}

Test(clients, a_token_comes_back_once_one_over_the_rate_has_passed) {
    enum { RATE = 20 };
    clients *table = table_sharing(RATE, 1, 0);
    client_quota quota;
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    double spent = seconds_now();
    clients_release(table, "192.0.2.1");
    /* Wait (bounded) until more than 1/RATE has passed on the clock the bucket reads; then a token
     * has been earned, however the wait was scheduled. */
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < 10000 && seconds_now() - spent <= 1.0 / RATE; i++) nanosleep(&pause, NULL);
    cr_assert_gt(seconds_now() - spent, 1.0 / RATE);
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(clients_admit(table, "192.0.2.2", &quota), CLIENT_ADMITTED, "each client its own bucket");
    clients_destroy(table);
}

Test(clients, the_ratelimit_headers_name_the_bucket_and_what_is_left_of_it) {
    clients *table = table_sharing(1, 3, 0);
    double start = seconds_now();
    client_quota quota;
    char policy[CLIENT_RATE_HEADER_SIZE], state[CLIENT_RATE_HEADER_SIZE];
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert(clients_rate_headers(table, &quota, policy, state));
    cr_assert_str_eq(policy, "\"client\";q=3;w=3", "3 requests at once, refilled in 3 s at 1 a second");
    cr_assert_str_eq(state, "\"client\";r=2;t=1", "2 left; a second until the bucket is full");
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    /* Within a second of the first request no token has come back: the fourth is refused. */
    if (clients_admit(table, "192.0.2.1", &quota) == CLIENT_RATE_LIMITED) {
        cr_assert(clients_rate_headers(table, &quota, policy, state));
        cr_assert_str_eq(state, "\"client\";r=0;t=3", "the refusal says nothing is left, and when all is back");
    } else {
        cr_assert_geq(seconds_now() - start, 1.0, "admitted although no token can have come back");
    }
    clients_destroy(table);

    table = table_sharing(0, 1, 3);
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_not(clients_rate_headers(table, &quota, policy, state), "--client-rate 0: no headers");
    clients_destroy(table);
}

/* r announces the room in the share of requests in progress as well as the tokens: a client that
 * starts a request only while r > 0 is never refused for its share. */
Test(clients, r_is_the_fewer_of_the_tokens_and_the_room_in_the_share) {
    enum { SHARE = 3, BURST = 40 };
    clients *table = table_sharing(1, BURST, SHARE);
    client_quota quota;
    for (unsigned i = 1; i <= SHARE; i++) {
        cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED, "request %u", i);
        cr_assert_eq(quota.remaining, SHARE - i, "after %u in progress, %u may start (tokens are plenty)", i,
                     SHARE - i);
    }
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_BUSY, "refused only after r=0 was announced");
    cr_assert_eq(quota.remaining, 0);
    clients_release(table, "192.0.2.1");
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(quota.remaining, 0, "the place a release freed is taken again");
    clients_destroy(table);
}

Test(clients, a_refunded_request_gives_its_token_back_and_carries_no_headers) {
    clients *table = table_sharing(1, 3, 0);
    client_quota quota;
    char policy[CLIENT_RATE_HEADER_SIZE], state[CLIENT_RATE_HEADER_SIZE];
    for (int i = 0; i < 10; i++) {
        cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED, "refunded request %d", i);
        clients_refund(table, "192.0.2.1", &quota);
        cr_assert_not(clients_rate_headers(table, &quota, policy, state), "a refunded answer carries no RateLimit");
        clients_release(table, "192.0.2.1");
    }
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(quota.remaining, 2, "ten refunded requests left the whole burst");
    client_quota never_admitted = {0};
    clients_refund(table, "192.0.2.1", &never_admitted); /* refused before admission: nothing to give back */
    cr_assert_eq(clients_admit(table, "192.0.2.1", &quota), CLIENT_ADMITTED);
    cr_assert_eq(quota.remaining, 1);
    clients_destroy(table);
}
