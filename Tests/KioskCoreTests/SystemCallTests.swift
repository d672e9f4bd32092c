import Foundation
import Glibc
import KioskCore
import Testing

/// KioskCore's one system-call layer: EINTR retried inside the funnel, every other failure kept as
/// the call, its subject and the errno. (Here because KioskCore has no test target.)
@Suite("The system-call funnel")
struct SystemCallTests {
    /// A call interrupted twice by a signal (-1 with EINTR, as the kernel returns it) is made again
    /// until it completes; the caller never sees the interruption.
    @Test func anInterruptedCallIsMadeAgain() {
        var calls = 0
        let result = systemCall { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == .success(7))
        #expect(calls == 3)
    }

    @Test func anotherErrnoIsReturnedAtOnce() {
        var calls = 0
        let result = systemCall { () -> Int in
            calls += 1
            errno = EAGAIN
            return -1
        }
        #expect(result == .failure(.wouldBlock))
        #expect(calls == 1)
    }

    /// libdrm returns a negative errno as often as -1 with errno: both are read.
    @Test func libdrmsNegativeErrnoIsRead() {
        #expect(systemCall(.negativeErrno) { -EBUSY } == .failure(Errno(rawValue: EBUSY)))
        var calls = 0
        #expect(systemCall(.negativeErrno) { () -> Int32 in
            calls += 1
            return calls == 1 ? -EINTR : 0
        } == .success(0))
    }

    /// A real failure: the error names the call, the path and the kernel's reason.
    @Test func aFailedOpenSaysWhatWhereAndWhy() {
        #expect(throws: SystemCallError(call: "open", subject: "/nonexistent/kiosk", errno: .noSuchFile)) {
            _ = try FileDescriptor.open("/nonexistent/kiosk", O_RDONLY)
        }
        let error = SystemCallError(call: "open", subject: "/nonexistent/kiosk", errno: .noSuchFile)
        #expect(error.description == "open /nonexistent/kiosk: No such file or directory")
        #expect(error.errno.reason == "no such file or directory")
        #expect(SystemCallError(call: "signalfd", errno: Errno(rawValue: EMFILE)).description == "signalfd: Too many open files")
    }

    /// The owner closes its descriptor when it goes; a released one stays open for its new owner.
    @Test func theOwnerClosesItsDescriptorUnlessReleased() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-fd-\(UUID().uuidString.prefix(8))").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        var original = stat()
        #expect(stat(path, &original) == 0)
        func refersToTheFile(_ fd: Int32) -> Bool {
            // The number may be reused by another test at once: compare what it refers to.
            var now = stat()
            return fstat(fd, &now) == 0 && now.st_ino == original.st_ino && now.st_dev == original.st_dev
        }
        var raw: Int32 = -1
        do {
            let file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC)
            raw = file.rawValue
            #expect(refersToTheFile(raw))
        }
        #expect(!refersToTheFile(raw))
        let released = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC).release()
        #expect(refersToTheFile(released))
        close(released)
    }
}
