/*
 * Counts the allocations a process makes: preloaded (LD_PRELOAD) into kiosk inside the VM, it
 * wraps malloc, calloc, realloc and the aligned allocators, and on SIGUSR2 writes
 * "malloc-count N" to stderr. A test tool for the VM, built by the test.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static volatile long count;

static void counted(void) { __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { counted(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    counted();
    void *p = __libc_memalign(a, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

static void report(int sig) {
    (void)sig;
    char text[48] = "malloc-count ";
    char digits[24];
    long c = __atomic_load_n(&count, __ATOMIC_RELAXED);
    int n = 0;
    do { digits[n++] = (char)('0' + c % 10); c /= 10; } while (c > 0);
    size_t len = strlen(text);
    while (n > 0) text[len++] = digits[--n];
    text[len++] = '\n';
    (void)!write(2, text, len);
}

__attribute__((constructor)) static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = report;
    action.sa_flags = SA_RESTART;
    sigaction(SIGUSR2, &action, NULL);
}
