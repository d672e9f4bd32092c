import Display
import KioskCore
import Testing

/// Buffer age with two dumb buffers: the back buffer needs this frame's damage and the previous frame's.
struct BufferDamageTests {
    static let screen = Rect(x: 0, y: 0, width: 800, height: 480)
    let a = Rect(x: 10, y: 10, width: 20, height: 20)
    let b = Rect(x: 100, y: 50, width: 30, height: 40)
    let c = Rect(x: 300, y: 300, width: 5, height: 5)

    @Test func eachBufferIsWrittenWholeTheFirstTime() {
        var damage = BufferDamage(bufferCount: 2, screen: Self.screen)
        #expect(damage.damage(forBuffer: 0, frame: [a]) == [Self.screen])
        #expect(damage.damage(forBuffer: 1, frame: [b]) == [Self.screen])
    }

    @Test func theBackBufferGetsThisFramesAndThePreviousFramesDamage() {
        var damage = BufferDamage(bufferCount: 2, screen: Self.screen)
        _ = damage.damage(forBuffer: 0, frame: [])
        _ = damage.damage(forBuffer: 1, frame: [])
        #expect(damage.damage(forBuffer: 0, frame: [a]) == [a])
        #expect(damage.damage(forBuffer: 1, frame: [b]) == [a, b])
        #expect(damage.damage(forBuffer: 0, frame: [c]) == [b, c])
        #expect(damage.damage(forBuffer: 1, frame: []) == [c])
        #expect(damage.damage(forBuffer: 0, frame: []) == [])
    }

    @Test func aRectangleInsideAnotherIsCopiedOnce() {
        var damage = BufferDamage(bufferCount: 2, screen: Self.screen)
        _ = damage.damage(forBuffer: 0, frame: [])
        _ = damage.damage(forBuffer: 1, frame: [])
        let big = Rect(x: 0, y: 0, width: 200, height: 200)
        _ = damage.damage(forBuffer: 0, frame: [a, a])
        #expect(damage.damage(forBuffer: 1, frame: [big]) == [big])
    }

    @Test func invalidateWritesEveryBufferWholeAgain() {
        var damage = BufferDamage(bufferCount: 2, screen: Self.screen)
        _ = damage.damage(forBuffer: 0, frame: [])
        _ = damage.damage(forBuffer: 1, frame: [])
        damage.invalidate()
        #expect(damage.damage(forBuffer: 0, frame: [a]) == [Self.screen])
        #expect(damage.damage(forBuffer: 1, frame: [a]) == [Self.screen])
    }
}
