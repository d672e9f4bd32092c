import CCairo
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

// A frame as PNG bytes, with cairo's PNG writer and reader (never an encoder of our own): here in
// the process (tests, benchmarks), or in a forked child that writes them down a pipe, so that the
// loop never waits for an encode (Runtime/Live/ScreenshotJob.swift).
extension PixelBuffer {
    /// The PNG signature every PNG file starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The buffer encoded as a PNG here, in this process (`cairo_surface_write_to_png_stream`).
    public func pngData() throws(DrawingResourceError) -> [UInt8] {
        let sink = ByteSink()
        let status = withSurface { surface in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DrawingResourceError("cairo_surface_write_to_png_stream: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.bytes
    }

    /// Starts a child process (a `fork()`) that writes the buffer, as it is now, as a PNG down
    /// `fd` and exits: status 0 when it wrote it whole. The child owns nothing else of this
    /// process (CCairo's `kiosk_png_fork` says what it closes and why); the caller reaps it. The
    /// buffer may be drawn again at once: the child has its own copy of the pages it reads.
    public func forkPNGWriter(to fd: Int32) -> Result<pid_t, Errno> {
        let pid = withSurface { surface in kiosk_png_fork(surface, fd) }
        return pid < 0 ? .failure(Errno(rawValue: errno)) : .success(pid)
    }

    /// Decodes PNG bytes (`cairo_image_surface_create_from_png_stream`) into a new XRGB8888
    /// buffer (alpha, if any, over black).
    public convenience init(png bytes: [UInt8]) throws(DrawingResourceError) {
        let source = ByteSource(bytes)
        let png = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let s = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
            let n = Int(length)
            guard s.offset + n <= s.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            s.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + s.offset, count: n) }
            s.offset += n
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque())!
        defer { cairo_surface_destroy(png) }
        try self.init(decoded: png, call: "cairo_image_surface_create_from_png_stream")
    }
}

/// Where cairo's PNG writer puts its bytes in this process.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// What cairo's PNG reader reads from, and how far it read.
private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
