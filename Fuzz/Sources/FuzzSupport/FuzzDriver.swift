import CFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// The body the fuzzer calls with each input.
nonisolated(unsafe) private var fuzzBody: (UnsafeRawBufferPointer) -> Void = { _ in }

/// libFuzzer's entry point. Whichever `main` the linker keeps (libFuzzer's own, or the target's
/// through `fuzz`), inputs arrive here.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzBody(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Runs libFuzzer on `body` with the process's arguments and exits with its status.
///
/// SwiftPM links an executable target's top-level code as `main` (renaming it with `--defsym`),
/// which libFuzzer's own `main` cannot replace; so the target calls libFuzzer's driver itself.
public func fuzz(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    fuzzBody = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzTestOneInput($0, $1) })
}

/// Writes a line to standard error at once (unbuffered: a crash right after must not lose it).
public func trace(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
