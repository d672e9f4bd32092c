#ifndef KIOSK_CLINUXSYSTEM_SHIM_H
#define KIOSK_CLINUXSYSTEM_SHIM_H
// Linux file-descriptor interfaces a poll loop needs that Swift's Glibc module leaves out:
// signals as a file (signalfd), timers as a file (timerfd), directory changes (inotify).
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>

static const int kiosk_SFD_CLOEXEC = SFD_CLOEXEC;
static const int kiosk_SFD_NONBLOCK = SFD_NONBLOCK;
#endif
