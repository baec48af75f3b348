/* Client identity and shares (see clients.h). The table is open addressing over a fixed number of
 * slots keyed by the address text; an entry with no connection and no request in progress whose
 * bucket has refilled carries no state worth keeping, so a full table reuses such an entry. */
#include "server/clients.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/monotonic.h"
#include "server/thread_safety.h"


enum { TABLE_SLOTS = 8192, MAX_TRUSTED = 64, PROBE_LIMIT = 64 };

typedef struct network {
    int family; /* AF_INET or AF_INET6 */
    unsigned char bytes[16];
    unsigned prefix_bits;
} network;

typedef struct client_entry {
    char address[CLIENT_ADDRESS_SIZE]; /* "" : free */
    unsigned connections;
    unsigned in_progress;
    double tokens;
    int64_t refilled_ns;
} client_entry;

struct clients {
    mutex lock;
    clients_config config;
    network trusted[MAX_TRUSTED];
    unsigned trusted_count;
    client_entry *entries;
};

/* Parses "a.b.c.d", "a.b.c.d/n", "x::y" or "x::y/n" (and the same in brackets). */
static bool parse_network(const char *text, network *out) {
    char host[CLIENT_ADDRESS_SIZE];
    const char *slash = strchr(text, '/');
    size_t length = slash ? (size_t)(slash - text) : strlen(text);
    if (length == 0 || length >= sizeof host) return false;
    memcpy(host, text, length);
    host[length] = '\0';
    if (inet_pton(AF_INET, host, out->bytes) == 1) out->family = AF_INET;
    else if (inet_pton(AF_INET6, host, out->bytes) == 1) out->family = AF_INET6;
    else return false;
    unsigned most = out->family == AF_INET ? 32 : 128;
    out->prefix_bits = most;
    if (slash != NULL) {
        char *end;
        unsigned long bits = strtoul(slash + 1, &end, 10);
        bool digits_only = slash[1] >= '0' && slash[1] <= '9' && *end == '\0'; /* no space, no sign */
        if (!digits_only || bits > most) return false;
        out->prefix_bits = (unsigned)bits;
    }
    return true;
}

static bool in_network(const network *net, const network *address) {
    if (net->family != address->family) return false;
    unsigned whole = net->prefix_bits / 8, rest = net->prefix_bits % 8;
    if (memcmp(net->bytes, address->bytes, whole) != 0) return false;
    if (rest == 0) return true;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (net->bytes[whole] & mask) == (address->bytes[whole] & mask);
}

/* An address text (IPv4-mapped IPv6 taken as IPv4) as a network of one address. */
static bool parse_address(const char *text, network *out) {
    if (!parse_network(text, out) || strchr(text, '/') != NULL) return false;
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (out->family == AF_INET6 && memcmp(out->bytes, mapped, sizeof mapped) == 0) {
        memmove(out->bytes, out->bytes + 12, 4);
        out->family = AF_INET;
        out->prefix_bits = 32;
    }
    return true;
}

static bool trusted(const clients *table, const char *address) {
    network parsed;
    if (table->trusted_count == 0 || !parse_address(address, &parsed)) return false;
    for (unsigned i = 0; i < table->trusted_count; i++)
        if (in_network(&table->trusted[i], &parsed)) return true;
    return false;
}

clients *clients_create(const clients_config *config) {
    clients *table = calloc(1, sizeof *table);
    if (table == NULL) return NULL;
    mutex_init(&table->lock);
    table->config = *config;
    bool ok = false;
    table->entries = calloc(TABLE_SLOTS, sizeof *table->entries);
    if (table->entries == NULL) goto out;
    char list[1024];
    snprintf(list, sizeof list, "%s", config->trusted_proxies);
    char *save = NULL;
    for (char *item = strtok_r(list, ", ", &save); item != NULL; item = strtok_r(NULL, ", ", &save)) {
        if (table->trusted_count == MAX_TRUSTED || !parse_network(item, &table->trusted[table->trusted_count])) {
            fprintf(stderr, "puzzled: --trusted-proxy: '%s' is not an address or CIDR range (or more than %d)\n", item,
                    MAX_TRUSTED);
            goto out;
        }
        table->trusted_count++;
    }
    table->config.trusted_proxies = NULL; /* parsed; the text is not kept */
    ok = true;
out:
    if (!ok) {
        clients_destroy(table);
        table = NULL;
    }
    return table;
}

void clients_destroy(clients *table) {
    mutex_destroy(&table->lock);
    free(table->entries);
    free(table);
}

static uint64_t hash_text(const char *text) {
    uint64_t hash = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) hash = (hash ^ *p) * 1099511628211ULL;
    return hash;
}

static bool idle(const clients *table, const client_entry *entry, int64_t now) {
    double refill = table->config.rate_per_second * (double)(now - entry->refilled_ns) / 1e9;
    return entry->connections == 0 && entry->in_progress == 0 &&
           (table->config.rate_per_second == 0 || entry->tokens + refill >= table->config.burst);
}

/* Under the lock: the entry for `address`, made when absent; NULL when the table is full of clients
 * with state (then the client is not limited: failing open beats refusing everyone new). */
static client_entry *entry_of(clients *table, const char *address, int64_t now) REQUIRES(table->lock) {
    size_t start = hash_text(address) % TABLE_SLOTS;
    client_entry *reusable = NULL;
    for (size_t probe = 0; probe < PROBE_LIMIT; probe++) {
        client_entry *entry = &table->entries[(start + probe) % TABLE_SLOTS];
        if (strcmp(entry->address, address) == 0) return entry;
        if (reusable == NULL && (entry->address[0] == '\0' || idle(table, entry, now))) reusable = entry;
    }
    if (reusable == NULL) return NULL;
    *reusable = (client_entry){.tokens = table->config.burst, .refilled_ns = now};
    snprintf(reusable->address, sizeof reusable->address, "%s", address);
    return reusable;
}

static void address_text(const struct sockaddr *peer, char out[CLIENT_ADDRESS_SIZE]) {
    out[0] = '\0';
    if (peer->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, out, CLIENT_ADDRESS_SIZE);
    else if (peer->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, out, CLIENT_ADDRESS_SIZE);
    if (strncmp(out, "::ffff:", 7) == 0 && strchr(out, '.') != NULL) memmove(out, out + 7, strlen(out + 7) + 1);
}

bool clients_accept(clients *table, const struct sockaddr *peer) {
    char address[CLIENT_ADDRESS_SIZE];
    address_text(peer, address);
    if (table->config.max_connections_per_ip == 0 || trusted(table, address)) return true;
    mutex_lock(&table->lock);
    client_entry *entry = entry_of(table, address, monotonic_now_ns());
    bool room = entry == NULL || entry->connections < table->config.max_connections_per_ip;
    mutex_unlock(&table->lock);
    return room;
}

void clients_connected(clients *table, const struct sockaddr *peer, bool opened) {
    char address[CLIENT_ADDRESS_SIZE];
    address_text(peer, address);
    mutex_lock(&table->lock);
    client_entry *entry = entry_of(table, address, monotonic_now_ns());
    if (entry != NULL && opened) entry->connections++;
    else if (entry != NULL && entry->connections > 0) entry->connections--;
    mutex_unlock(&table->lock);
}

/* The right-most entry of a forwarding list that is not a trusted proxy (the left-most when all
 * are), as a bare address: quotes, brackets, "for=" and ports removed. */
static bool forwarded_client(const clients *table, const char *list, bool forwarded_syntax,
                             char out[CLIENT_ADDRESS_SIZE]) {
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", list);
    char *items[64];
    size_t count = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item != NULL && count < 64; item = strtok_r(NULL, ",", &save))
        items[count++] = item;
    for (size_t i = count; i-- > 0;) {
        char *item = items[i];
        while (*item == ' ' || *item == '\t') item++;
        if (forwarded_syntax) {
            char *found = strstr(item, "for=");
            if (found == NULL) continue;
            item = found + 4;
            item[strcspn(item, ";")] = '\0';
        }
        item[strcspn(item, " \t")] = '\0';
        if (*item == '"') item++;
        item[strcspn(item, "\"")] = '\0';
        if (*item == '[') {
            item++;
            item[strcspn(item, "]")] = '\0';
        } else if (strchr(item, '.') != NULL) {
            item[strcspn(item, ":")] = '\0'; /* an IPv4 address with a port */
        }
        network parsed;
        if (!parse_address(item, &parsed)) continue;
        snprintf(out, CLIENT_ADDRESS_SIZE, "%s", item);
        if (!trusted(table, item)) return true;
    }
    return out[0] != '\0';
}

void clients_identify(clients *table, struct MHD_Connection *connection, char out[CLIENT_ADDRESS_SIZE]) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char peer[CLIENT_ADDRESS_SIZE] = "unknown";
    if (info != NULL && info->client_addr != NULL) address_text(info->client_addr, peer);
    snprintf(out, CLIENT_ADDRESS_SIZE, "%s", peer);
    if (!trusted(table, peer)) return;
    char forwarded[CLIENT_ADDRESS_SIZE] = "";
    const char *xff = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "X-Forwarded-For");
    const char *standard = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Forwarded");
    if ((xff != NULL && forwarded_client(table, xff, false, forwarded)) ||
        (standard != NULL && forwarded_client(table, standard, true, forwarded)))
        snprintf(out, CLIENT_ADDRESS_SIZE, "%s", forwarded);
}

static unsigned whole_seconds_up(double seconds) {
    unsigned whole = (unsigned)seconds;
    return whole + (seconds > whole);
}

client_verdict clients_admit(clients *table, const char *address, client_quota *quota) {
    int64_t now = monotonic_now_ns();
    const clients_config *config = &table->config;
    *quota = (client_quota){.limited = config->rate_per_second != 0};
    mutex_lock(&table->lock);
    client_entry *entry = entry_of(table, address, now);
    client_verdict verdict = CLIENT_ADMITTED;
    if (entry != NULL && quota->limited) {
        double refill = config->rate_per_second * (double)(now - entry->refilled_ns) / 1e9;
        entry->tokens = entry->tokens + refill > config->burst ? config->burst : entry->tokens + refill;
        entry->refilled_ns = now;
        if (entry->tokens < 1) {
            verdict = CLIENT_RATE_LIMITED;
            quota->retry_after_s = (unsigned)((1 - entry->tokens) / config->rate_per_second) + 1;
        }
    }
    if (verdict == CLIENT_ADMITTED && entry != NULL && config->max_in_progress != 0 &&
        entry->in_progress >= config->max_in_progress) {
        verdict = CLIENT_BUSY;
        quota->retry_after_s = 1;
    }
    if (verdict == CLIENT_ADMITTED && entry != NULL) {
        if (quota->limited) entry->tokens -= 1;
        quota->spent = quota->limited;
        entry->in_progress++;
    }
    if (quota->limited) {
        double tokens = entry != NULL ? entry->tokens : config->burst;
        quota->remaining = (unsigned)tokens;
        unsigned in_progress = entry != NULL ? entry->in_progress : 0;
        if (config->max_in_progress != 0) {
            unsigned room = in_progress < config->max_in_progress ? config->max_in_progress - in_progress : 0;
            if (room < quota->remaining) quota->remaining = room;
        }
        quota->full_after_s = whole_seconds_up((config->burst - tokens) / config->rate_per_second);
    }
    mutex_unlock(&table->lock);
    return verdict;
}

bool clients_rate_headers(const clients *table, const client_quota *quota, char policy[CLIENT_RATE_HEADER_SIZE],
                          char state[CLIENT_RATE_HEADER_SIZE]) {
    const clients_config *config = &table->config;
    if (!quota->limited) return false;
    snprintf(policy, CLIENT_RATE_HEADER_SIZE, "\"client\";q=%u;w=%u", config->burst,
             whole_seconds_up((double)config->burst / config->rate_per_second));
    snprintf(state, CLIENT_RATE_HEADER_SIZE, "\"client\";r=%u;t=%u", quota->remaining, quota->full_after_s);
    return true;
}

void clients_release(clients *table, const char *address) {
    mutex_lock(&table->lock);
    client_entry *entry = entry_of(table, address, monotonic_now_ns());
    if (entry != NULL && entry->in_progress > 0) entry->in_progress--;
    mutex_unlock(&table->lock);
}

void clients_refund(clients *table, const char *address, client_quota *quota) {
    if (quota->spent) {
        const clients_config *config = &table->config;
        mutex_lock(&table->lock);
        client_entry *entry = entry_of(table, address, monotonic_now_ns());
        if (entry != NULL) entry->tokens = entry->tokens + 1 > config->burst ? config->burst : entry->tokens + 1;
        mutex_unlock(&table->lock);
    }
    quota->spent = false;
    quota->limited = false;
}
