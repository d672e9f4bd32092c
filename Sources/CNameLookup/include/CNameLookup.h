#ifndef KIOSK_CNAMELOOKUP_H
#define KIOSK_CNAMELOOKUP_H
// glibc's asynchronous name lookup (getaddrinfo_a, declared only under _GNU_SOURCE, which must not
// reach the headers other modules share), behind three calls: a host name looked up without
// blocking the caller, asked after with kiosk_lookup_poll.

/// One lookup under way; opaque.
struct kiosk_lookup;

/// Starts looking `host` up for a TCP connection to `port`. Returns 0 and sets `*out`, or a
/// getaddrinfo error code (gai_strerror names it).
int kiosk_lookup_start(const char *host, int port, struct kiosk_lookup **out);

/// 0 when done: the first address, numeric, is in `address` (`size` bytes). A positive value while
/// the lookup is still under way. Otherwise a getaddrinfo error code (negative).
int kiosk_lookup_poll(struct kiosk_lookup *lookup, char *address, unsigned size);

/// Cancels the lookup if it still runs and frees it (or leaves it to glibc when it cannot be cancelled).
void kiosk_lookup_free(struct kiosk_lookup *lookup);

/// The text of a getaddrinfo error code.
const char *kiosk_lookup_error(int code);
#endif
