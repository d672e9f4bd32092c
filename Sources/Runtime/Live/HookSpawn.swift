import CLinuxSystem
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// A hook's program, started: its pid, a pidfd that becomes readable when it exits, and the
/// read ends (non-blocking) of the pipes on its stdout and stderr.
struct SpawnedProcess {
    var pid: pid_t
    var pidfd: Int32
    var stdout: Int32
    var stderr: Int32
}

enum HookSpawn {
    /// Starts `argv` with exactly `environment`, stdin on /dev/null, in a process group of its
    /// own (so TERM and KILL reach what it starts too), with default signal handling and an
    /// empty signal mask: the loop blocks the signals it reads through a signalfd, and a child
    /// that inherited that mask would never see the TERM of its timeout. posix_spawn (vfork and
    /// exec in glibc) does not block the loop, and reports an exec failure (ENOENT, EACCES,
    /// ENOEXEC) as its result. A failure names the call that failed and its errno.
    static func start(_ argv: [String], environment: [String]) -> Result<SpawnedProcess, SystemCallError> {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard kiosk_pipe2(&out, O_CLOEXEC) == 0 else { return .failure(SystemCallError(call: "pipe2", errno: .current)) }
        guard kiosk_pipe2(&err, O_CLOEXEC) == 0 else {
            let code = errno
            close(out[0]); close(out[1])
            return .failure(SystemCallError(call: "pipe2", errno: Errno(rawValue: code)))
        }
        // Only our ends are non-blocking: the hook writes to a pipe that blocks, as programs expect.
        for fd in [out[0], err[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        defer { close(out[1]); close(err[1]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        // Nothing of the kiosk's (the DRM card, the touchscreen, the sockets) leaks into a hook.
        kiosk_spawn_closefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard result == 0 else {
            close(out[0]); close(err[0])
            return .failure(SystemCallError(call: "posix_spawn", errno: Errno(rawValue: result)))
        }
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else {
            // Without a pidfd the loop cannot learn of its exit: stop it now rather than leave it unwatched.
            let code = errno
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = systemCall { waitpid(pid, &status, 0) }
            close(out[0]); close(err[0])
            return .failure(SystemCallError(call: "pidfd_open", errno: Errno(rawValue: code)))
        }
        _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC)
        return .success(SpawnedProcess(pid: pid, pidfd: pidfd, stdout: out[0], stderr: err[0]))
    }

    /// How a reaped child ended, in words: `exit status 3`, `killed by signal 15 (TERM)`.
    static func describe(status: Int32) -> (text: String, success: Bool) {
        if kiosk_WIFEXITED(status) != 0 {
            let code = kiosk_WEXITSTATUS(status)
            return ("exit status \(code)", code == 0)
        }
        if kiosk_WIFSIGNALED(status) != 0 {
            let signal = kiosk_WTERMSIG(status)
            return ("killed by signal \(signal)\(signalName(signal).map { " (\($0))" } ?? "")", false)
        }
        return ("wait status \(status)", false)
    }

    static func signalName(_ signal: Int32) -> String? {
        switch signal {
        case SIGTERM: "TERM"
        case SIGKILL: "KILL"
        case SIGINT: "INT"
        case SIGHUP: "HUP"
        case SIGSEGV: "SEGV"
        case SIGABRT: "ABRT"
        case SIGPIPE: "PIPE"
        default: nil
        }
    }
}
