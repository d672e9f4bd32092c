import Glibc

/// The one funnel for system calls: retries on EINTR and returns the errno of a failure, so no
/// caller forgets either.
func systemCall<Result: BinaryInteger>(_ body: () -> Result) -> Swift.Result<Result, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let code = errno
        if code == EINTR { continue }
        return .failure(Errno(rawValue: code))
    }
}

/// A system call that failed, by name, with its errno.
struct SystemCallFailure: Error {
    var call: String
    var errno: Errno
}
