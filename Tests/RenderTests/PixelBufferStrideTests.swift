import KioskCore
@testable import Render
import Testing

/// The core's plain pixel buffer lays its rows out as cairo does, so Render's surfaces over its
/// memory and Display's copies read the same pixels.
@Suite struct PixelBufferStrideTests {
    @Test(arguments: PixelFormat.allCases)
    func theCoreStrideIsCairos(format: PixelFormat) {
        for width in Array(1...2049) + [PixelBuffer.largestSide] {
            #expect(PixelBuffer.stride(width: width, format: format) == PixelBuffer.cairoStride(width: width, format: format),
                    "\(width) px of \(format)")
        }
    }

    @Test func aBufferLargerThanCairoDrawsIsRefused() {
        #expect(throws: DrawingResourceError.self) { try PixelBuffer(width: PixelBuffer.largestSide + 1, height: 1) }
        #expect(throws: DrawingResourceError.self) { try PixelBuffer(width: 1, height: PixelBuffer.largestSide + 1) }
        #expect(throws: DrawingResourceError.self) { try PixelBuffer(width: 0, height: 480) }
        #expect((try? PixelBuffer(width: PixelBuffer.largestSide, height: 1)) != nil)
    }
}
