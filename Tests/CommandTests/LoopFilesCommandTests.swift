import Foundation
import Testing

/// `kiosk run` when the loop's own descriptors (signalfd, timerfd) cannot be made: a typed loop
/// error, exit status 1, and a log line that names the call, not the display.
@Suite("kiosk run without descriptors for its loop", .serialized)
struct LoopFilesCommandTests {
    /// Five descriptors: stdin, stdout, stderr, systemd's notify socket (NOTIFY_SOCKET set) and the
    /// signalfd; the timerfd is the sixth, refused with EMFILE. The config's parse, whose pipe
    /// takes two at once, has closed them again by then.
    @Test func outOfFileDescriptorsSaysWhichLoopCallFailedAndNotTheDisplay() throws {
        let k = try KioskProcess(config: try headlessConfig(), environment: ["NOTIFY_SOCKET": "/nonexistent/notify"],
                                 openFileLimit: 5)
        #expect(k.exitStatus() == 1, "\(k.text)")
        let line = try #require(k.lines(containing: "kiosk cannot start").first, "\(k.text)")
        #expect(line.contains("the loop's signals and timer cannot be set up: timerfd_create CLOCK_MONOTONIC: \(String(cString: strerror(EMFILE)))"),
                "\(line)")
        #expect(!line.contains("display"), "\(line)")
    }
}
