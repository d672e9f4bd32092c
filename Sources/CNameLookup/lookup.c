#define _GNU_SOURCE 1
#include "CNameLookup.h"
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct kiosk_lookup {
    struct gaicb request;
    struct addrinfo hints;
    char service[8];
    char *host;
};

int kiosk_lookup_start(const char *host, int port, struct kiosk_lookup **out) {
    struct kiosk_lookup *l = calloc(1, sizeof *l);
    if (!l) return EAI_MEMORY;
    l->host = strdup(host);
    if (!l->host) { free(l); return EAI_MEMORY; }
    snprintf(l->service, sizeof l->service, "%d", port);
    l->hints.ai_family = AF_UNSPEC;
    l->hints.ai_socktype = SOCK_STREAM;
    l->request.ar_name = l->host;
    l->request.ar_service = l->service;
    l->request.ar_request = &l->hints;
    struct gaicb *list[1] = { &l->request };
    // No signal and no thread of the caller's when it ends: the caller asks (gai_error).
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_NONE;
    int rc = getaddrinfo_a(GAI_NOWAIT, list, 1, &event);
    if (rc != 0) { free(l->host); free(l); return rc; }
    *out = l;
    return 0;
}

int kiosk_lookup_poll(struct kiosk_lookup *l, char *address, unsigned size) {
    int rc = gai_error(&l->request);
    if (rc == EAI_INPROGRESS) return 1;
    if (rc != 0) return rc < 0 ? rc : -rc;
    struct addrinfo *first = l->request.ar_result;
    if (!first) return EAI_NONAME;
    rc = getnameinfo(first->ai_addr, first->ai_addrlen, address, size, NULL, 0, NI_NUMERICHOST);
    return rc < 0 ? rc : -rc;
}

void kiosk_lookup_free(struct kiosk_lookup *l) {
    if (!l) return;
    if (gai_error(&l->request) == EAI_INPROGRESS && gai_cancel(&l->request) != EAI_CANCELED) {
        // glibc still owns the request: leaving it is a small leak, freeing it would be a crash.
        return;
    }
    if (l->request.ar_result) freeaddrinfo(l->request.ar_result);
    free(l->host);
    free(l);
}

const char *kiosk_lookup_error(int code) { return gai_strerror(code); }
