import KioskCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a font file named in a config is there to be loaded: a readable regular file that
/// starts like a font FreeType reads (TrueType, OpenType, a collection, WOFF, Type 1, BDF, PCF).
/// FreeType itself is the renderer's; this keeps reading a config free of the drawing libraries.
enum FontFile {
    /// Why `path` cannot be the font, or nil when it can.
    static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "'\(path)' \(reason(errno))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "'\(path)' is not a regular file" }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "'\(path)' \(reason(errno))" }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        let n = read(fd, &head, 4)
        guard n == 4, signatures.contains(where: { head.starts(with: $0) }) else { return "'\(path)' is not a font file" }
        return nil
    }

    /// The first bytes of the font formats FreeType is built with on Debian.
    static let signatures: [[UInt8]] = [
        [0x00, 0x01, 0x00, 0x00], Array("OTTO".utf8), Array("true".utf8), Array("typ1".utf8), Array("ttcf".utf8),
        Array("wOFF".utf8), Array("wOF2".utf8), Array("%!PS".utf8), Array("%!Fo".utf8), [0x80, 0x01], Array("STAR".utf8),
        [0x01, 0x66, 0x63, 0x70],
    ]

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "does not exist"
        case EACCES: "cannot be read: permission denied"
        case ENOTDIR: "does not exist: a part of the path is not a folder"
        default: "cannot be read: \(Errno(rawValue: code))"
        }
    }
}
