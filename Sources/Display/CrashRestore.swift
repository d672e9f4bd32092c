import CDRM
import Glibc

/// What a crash puts back on screen, in plain memory written before any crash: the handler reads
/// it without allocating, locking or touching a Swift object.
struct CrashRestoreState {
    /// The card's file descriptor; -1 while no display holds the screen.
    var fd: Int32 = -1
    /// Whether kiosk has set a mode: only then is there a CRTC to put back.
    var modeSet = false
    var crtcID: UInt32 = 0
    /// The framebuffer the CRTC showed before kiosk; 0 when it was off, and is switched off again.
    var bufferID: UInt32 = 0
    var x: UInt32 = 0
    var y: UInt32 = 0
    var connectorID: UInt32 = 0
    var mode = drmModeModeInfo()
    /// Whether stderr is the journal stream systemd gave the service: the line then starts with
    /// `<2>`, so journald logs the crash at crit, not at info.
    var stderrIsJournal = false
}

/// Handlers for the crash signals that put the previous CRTC back and give up DRM master, then
/// let the signal's default action end the process.
///
/// Without them a crash leaves the CRTC to the kernel: the framebuffers go with the process and
/// the panel goes dark, unless the kernel's console happens to take it back. The exit status and
/// the core dump stay those of the crash: each handler runs once (`SA_RESETHAND`), puts back the
/// handler that was there before (Swift's crash backtracer, which then prints its backtrace) and
/// raises its signal again. They run on an alternate stack, so a stack overflow is caught too.
/// One display holds the screen at a time; the handlers are installed while it does.
enum CrashRestore {
    /// Every signal whose default action kills the process with a core, and which kiosk does not
    /// take itself: a bad access, a Swift trap (SIGILL on x86, SIGTRAP on arm64), abort(), a
    /// system call the unit's SystemCallFilter refuses (SIGSYS), SIGQUIT, and resource limits.
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS, SIGQUIT, SIGXCPU, SIGXFSZ]
    /// How many signals are handled, readable from the handler.
    private static let count = signals.count
    /// Far above the kernel's minimum signal stack on x86_64 and arm64 (SVE included).
    static let alternateStackSize = 64 * 1024

    /// Allocated once and never freed: a handler may run at any moment of the process.
    nonisolated(unsafe) static let state: UnsafeMutablePointer<CrashRestoreState> = {
        let p = UnsafeMutablePointer<CrashRestoreState>.allocate(capacity: 1)
        p.initialize(to: CrashRestoreState())
        return p
    }()
    nonisolated(unsafe) private static let alternateStack = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
    /// The signal numbers and the actions installed before ours, side by side, in memory the
    /// handler can read without touching a Swift array.
    nonisolated(unsafe) private static let handledSignals: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        p.initialize(from: signals, count: count)
        return p
    }()
    nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: count)
        p.initialize(repeating: sigaction(), count: count)
        return p
    }()
    // Set and read only by the thread that drives the display.
    nonisolated(unsafe) private static var previousStack = stack_t()
    nonisolated(unsafe) private static var installed = false

    /// Installs the handlers for the display on `fd`, which will put back `previous` (nil: switch the CRTC off).
    static func arm(fd: Int32, crtcID: UInt32, connectorID: UInt32, previous: drmModeCrtc?) {
        let s = state
        s.pointee.fd = -1
        s.pointee.modeSet = false
        s.pointee.crtcID = crtcID
        s.pointee.connectorID = connectorID
        if let previous, previous.mode_valid != 0, previous.buffer_id != 0 {
            s.pointee.crtcID = previous.crtc_id
            s.pointee.bufferID = previous.buffer_id
            s.pointee.x = previous.x
            s.pointee.y = previous.y
            s.pointee.mode = previous.mode
        } else {
            s.pointee.bufferID = 0
        }
        s.pointee.stderrIsJournal = stderrIsJournal()
        s.pointee.fd = fd
        guard !installed else { return }
        var stack = stack_t(ss_sp: alternateStack, ss_flags: 0, ss_size: alternateStackSize)
        sigaltstack(&stack, &previousStack)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in CrashRestore.handle(signal) }
        action.sa_flags = kiosk_SA_RESETHAND_ONSTACK
        sigfillset(&action.sa_mask)
        for i in signals.indices {
            sigaction(handledSignals[i], &action, previousActions + i)
        }
        installed = true
    }

    /// Whether fd 2 is the stream `$JOURNAL_STREAM` ("DEVICE:INODE") names (systemd.exec(5)).
    private static func stderrIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: value).split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// Records whether kiosk's frame is on the CRTC of the display on `fd`.
    static func noteModeSet(fd: Int32, _ isSet: Bool) {
        if state.pointee.fd == fd { state.pointee.modeSet = isSet }
    }

    /// Puts back the handlers and the signal stack that were there before, when `fd` armed them.
    static func disarm(fd: Int32) {
        guard installed, state.pointee.fd == fd else { return }
        state.pointee.fd = -1
        for i in signals.indices {
            sigaction(handledSignals[i], previousActions + i, nil)
        }
        sigaltstack(&previousStack, nil)
        installed = false
    }

    /// The handler itself: only ioctls, write(2) and raise(3), on memory prepared by `arm`.
    private static func handle(_ signal: Int32) {
        let s = state
        let fd = s.pointee.fd
        var restored = false
        if fd >= 0 {
            s.pointee.fd = -1
            var result: Int32 = 0
            if s.pointee.modeSet {
                if s.pointee.bufferID != 0 {
                    var connector = s.pointee.connectorID
                    result = drmModeSetCrtc(fd, s.pointee.crtcID, s.pointee.bufferID, s.pointee.x, s.pointee.y,
                                            &connector, 1, &s.pointee.mode)
                } else {
                    result = drmModeSetCrtc(fd, s.pointee.crtcID, 0, 0, 0, nil, 0, nil)
                }
            }
            let dropped = drmDropMaster(fd)
            restored = result == 0 && dropped == 0
        }
        if s.pointee.stderrIsJournal {
            let priority: StaticString = "<2>"
            _ = write(2, priority.utf8Start, priority.utf8CodeUnitCount)
        }
        let prefix: StaticString = "kiosk: crashed on signal "
        let suffix: StaticString = restored ? "; display restored\n" : "; display not restored\n"
        _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
        var digits: (UInt8, UInt8) = (UInt8(truncatingIfNeeded: 48 + signal / 10 % 10), UInt8(truncatingIfNeeded: 48 + signal % 10))
        withUnsafeBytes(of: &digits) { d in
            _ = signal < 10 ? write(2, d.baseAddress! + 1, 1) : write(2, d.baseAddress!, 2)
        }
        _ = write(2, suffix.utf8Start, suffix.utf8CodeUnitCount)
        // The handler from before ours takes the signal next (Swift's backtracer prints the crash,
        // then ends the process as the crash would have; or the default action does it).
        var i = 0
        while i < count {
            if handledSignals[i] == signal {
                sigaction(signal, previousActions + i, nil)
                break
            }
            i += 1
        }
        // Blocked until this handler returns.
        raise(signal)
    }
}
