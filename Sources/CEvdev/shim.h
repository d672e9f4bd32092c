#ifndef KIOSK_CEVDEV_SHIM_H
#define KIOSK_CEVDEV_SHIM_H
// libevdev: device queries, grabbing, and event reading with SYN_DROPPED resynchronisation.
#include <libevdev/libevdev.h>
#include <fcntl.h>
#include <errno.h>
#include <unistd.h>

// open(2) flags are macros that Swift may not import on every libc; re-export them typed.
static const int kiosk_O_RDONLY = O_RDONLY;
static const int kiosk_O_NONBLOCK = O_NONBLOCK;
static const int kiosk_O_CLOEXEC = O_CLOEXEC;
// For `kiosk record`'s output file.
static const int kiosk_O_WRONLY = O_WRONLY;
static const int kiosk_O_CREAT = O_CREAT;
static const int kiosk_O_TRUNC = O_TRUNC;
#endif
