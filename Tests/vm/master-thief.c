/*
 * Takes DRM master away from a running process, as logind does from a session it switches away
 * from: it duplicates that process's own DRM file (pidfd_getfd), drops master on it, holds master
 * on a file of its own until the file RELEASE exists (a minute at most), then lets go. A test tool
 * for the VM, built by the test.
 *
 *   master-thief PID CARD RELEASE
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <drm.h> /* the kernel's DRM uapi, as libdrm-dev installs it */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(const char *what) {
    perror(what);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: master-thief PID CARD RELEASE\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    const char *card = argv[2];
    const char *release = argv[3];

    struct stat wanted;
    if (stat(card, &wanted) != 0) return fail(card);
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *fds = opendir(dir);
    if (!fds) return fail(dir);
    int victim = -1;
    for (struct dirent *e; (e = readdir(fds)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == wanted.st_rdev) {
            victim = atoi(e->d_name);
            break;
        }
    }
    closedir(fds);
    if (victim < 0) {
        fprintf(stderr, "master-thief: process %d has no file open on %s\n", (int)pid, card);
        return 1;
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) return fail("pidfd_open");
    int theirs = (int)syscall(SYS_pidfd_getfd, pidfd, victim, 0);
    if (theirs < 0) return fail("pidfd_getfd");
    if (ioctl(theirs, DRM_IOCTL_DROP_MASTER, 0) != 0) return fail("DRM_IOCTL_DROP_MASTER");
    int mine = open(card, O_RDWR | O_CLOEXEC);
    if (mine < 0) return fail(card);
    if (ioctl(mine, DRM_IOCTL_SET_MASTER, 0) != 0) return fail("DRM_IOCTL_SET_MASTER");
    printf("master-thief: took master from %d\n", (int)pid);
    fflush(stdout);
    for (int i = 0; i < 1200 && access(release, F_OK) != 0; i++) usleep(50000);
    ioctl(mine, DRM_IOCTL_DROP_MASTER, 0);
    close(mine);
    close(theirs);
    printf("master-thief: let go\n");
    fflush(stdout);
    return 0;
}
