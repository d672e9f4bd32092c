#ifndef KIOSK_CLINUXSYSTEM_SHIM_H
#define KIOSK_CLINUXSYSTEM_SHIM_H
// Linux file-descriptor interfaces a poll loop needs that Swift's Glibc module leaves out:
// signals as a file (signalfd), timers as a file (timerfd), directory changes (inotify), the
// kernel's device events (a netlink uevent socket).
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <spawn.h>

static const int kiosk_SFD_CLOEXEC = SFD_CLOEXEC;
static const int kiosk_SFD_NONBLOCK = SFD_NONBLOCK;
/// NETLINK_KOBJECT_UEVENT: the protocol of the kernel's device events.
static const int kiosk_NETLINK_KOBJECT_UEVENT = NETLINK_KOBJECT_UEVENT;
/// SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK (glibc's SOCK_* are an enum Swift imports as a type).
static const int kiosk_SOCK_DGRAM_CLOEXEC_NONBLOCK = SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK;
/// pipe2 and posix_spawn_file_actions_addclosefrom_np are GNU extensions that Swift's Glibc
/// module leaves out (declared here, as glibc 2.34 and later define them).
static inline int kiosk_pipe2(int fds[2], int flags) {
    extern int pipe2(int *, int);
    return pipe2(fds, flags);
}
static inline int kiosk_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
    extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
/// A child's wait status (sys/wait.h's function-like macros, which do not import).
static inline int kiosk_WIFEXITED(int status) { return WIFEXITED(status); }
static inline int kiosk_WEXITSTATUS(int status) { return WEXITSTATUS(status); }
static inline int kiosk_WIFSIGNALED(int status) { return WIFSIGNALED(status); }
static inline int kiosk_WTERMSIG(int status) { return WTERMSIG(status); }
#endif
