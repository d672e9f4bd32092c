import KioskLog
import KioskTestSupport

/// Alternates flushing the sink and reading the far end until the sink has nothing queued and
/// the text read ends with `suffix`: what a poll loop does for a slow reader.
func drain(_ sink: any LogSink, from fd: Int32, through suffix: String) -> String {
    var bytes: [UInt8] = []
    while true {
        sink.flush()
        guard sink.wantsWrite else { break }
        let more = readAvailable(fd, timeoutMilliseconds: 1000)
        if more.isEmpty { break }
        bytes += more
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.hasSuffix(suffix) ? text : text + read(fd, through: suffix)
}
