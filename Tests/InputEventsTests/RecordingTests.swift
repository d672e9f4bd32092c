import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The decoder on traces recorded by other people on real touchscreens.
@Suite("Decoding real recordings")
struct RecordingTests {
    @Test func theEP0430M09ScrollIsTwoFingersMovingTogether() throws {
        let (frames, decoder) = try decode(Recording.ep0430m09.trace())
        let paths = TouchPaths(frames)
        #expect(paths.ids.count == 2)
        for id in paths.ids {
            #expect(paths.isComplete(id), "\(id): \(paths.phases(id))")
            #expect(paths.phases(id).filter { $0 == .moved }.count > 50)
            let path = paths.locations(id)
            let (first, last) = (path.first!, path.last!)
            // The recording's y values fall from ~550 to ~220 of 0...767: on screen both fingers go up,
            // which is what this "scroll down" recording holds, straight and together.
            #expect(first.y - last.y > 150)
            #expect(Swift.abs(first.x - last.x) < 40)
            #expect(zip(path, path.dropFirst()).allSatisfy { $1.y <= $0.y })
        }
        // Both fingers are down together for most of the trace.
        #expect(frames.filter { $0.touches.count == 2 }.count > 80)
        #expect(frames.count == 98)
        #expect(frames.first.map(summary)?.first?.hasPrefix("1 began") == true)
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.reports == 98)  // every report changed something
        let trouble = [
            decoder.counters.droppedSyncs, decoder.counters.outOfRangeValues, decoder.counters.ignoredSlots,
            decoder.counters.reusedTrackingIDs, decoder.counters.stuckTouchesCancelled, decoder.counters.pendingFrames,
        ]
        #expect(trouble == [0, 0, 0, 0, 0, 0])
        #expect(decoder.diagnostic == nil)
    }

    @Test func theEP0430M09MapsItsAxisRangeOntoThePanel() throws {
        let (frames, _) = try decode(Recording.ep0430m09.trace())
        // Slot 0 starts at 930,547 of 1280x768 units.
        let first = try #require(frames.first?.touches.first)
        #expect(first.location == Point(x: 930.0 / 1280 * 800, y: 547.0 / 768 * 480))
    }

    @Test func theEGalaxTraceDecodedOnABS_XYSaysWhereThePositionIs() throws {
        let (frames, decoder) = try decode(Recording.egalax.trace())
        #expect(decoder.diagnostic
            == "touches came down but ABS_X/ABS_Y never changed; the position seems to be on ABS_Z/ABS_RX: try --position-axes ABS_Z,ABS_RX")
        let suggestion = try #require(decoder.suggestedPositionAxes)
        #expect(suggestion == (AbsoluteAxis.z, AbsoluteAxis.rx))
        // The touches still come and go, but never move.
        let paths = TouchPaths(frames)
        #expect(paths.ids.count == 2)
        #expect(paths.ids.allSatisfy { paths.phases($0) == [.began, .ended] })
    }

    @Test func theEGalaxTraceOnABS_ZAndABS_RXMoves() throws {
        let trace = try Recording.egalax.trace()
        let (frames, decoder) = try decode(trace, positionAxes: (.z, .rx))
        #expect(decoder.diagnostic == nil)
        #expect(decoder.mode == .singleTouch)
        let paths = TouchPaths(frames)
        #expect(paths.ids.count == 2)
        #expect(paths.ids.allSatisfy(paths.isComplete))
        // A short press that jitters in place, then a long drag.
        let (press, drag) = (paths.locations(paths.ids[0]), paths.locations(paths.ids[1]))
        #expect(press.allSatisfy { $0.distance(to: press[0]) < 10 })
        let xs = drag.map(\.x), ys = drag.map(\.y)
        #expect(xs.max()! - xs.min()! > 300 && ys.max()! - ys.min()! > 100)
        #expect(drag.count > 300)
        // Checked outside #expect: Swift 6.0.3 cannot type-check the whole inside it in reasonable time.
        let onScreen = (press + drag).allSatisfy { (p: Point) -> Bool in (0.0..<800.0).contains(p.x) && (0.0..<480.0).contains(p.y) }
        #expect(onScreen)
        // First touch: ABS_Z 1909 of 30...4040, ABS_RX 2123 of 60...4035.
        #expect(paths.locations(paths.ids[0]).first == Point(x: (1909.0 - 30) / 4011 * 800, y: (2123.0 - 60) / 3976 * 480))
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.outOfRangeValues == 0)
    }
}
