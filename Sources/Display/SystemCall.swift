import CDRM
import Glibc

/// The one funnel for libdrm and system calls: retries on EINTR and turns a failure into a
/// `DisplayError` that says which call failed on what. libdrm returns either -1 with errno set or
/// a negative errno; both are read here.
@discardableResult
func systemCall(_ what: @autoclosure () -> String, _ body: () -> Int32) throws(DisplayError) -> Int32 {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = result == -1 ? errno : -result
        if code == EINTR { continue }
        throw DisplayError("\(what()): \(String(cString: strerror(code)))")
    }
}
