import Gestures
import InputEvents
import KioskConfig
import KioskCore
import KioskTestSupport
import Runtime
import Testing

/// Issue 21, part 7: `[input] ignore` as `kiosk run` builds it (config, then
/// `InputSettings.touchFilters`): a region wider than it is tall keeps its own width and height,
/// so touches begin just below it and just right of it, and not in its far corner.
@Suite struct IgnoreRegionTests {
    /// The points of `points` where a touch begins, through the filters of `[input] ignore = [region]`.
    func beginning(_ points: [Point], region: String) throws -> [Point] {
        let text = "[input]\nignore = [\(region)]\n\n[[view]]\nname = \"canvas\"\nkind = \"canvas\"\nframe = [0, 0, 800, 480]\n"
        let configuration = try KioskConfiguration.parse(text, file: "kiosk.toml")
        var filter = TouchFrameFilter(configuration.runtime.input.touchFilters(panel: configuration.scene.panel))
        var began: [Point] = []
        let fingers = Fingers(deliver: { frame in
            filter.filter(frame, sizeMillimetres: { _ in nil }) { out in
                began += out.touches.filter { $0.phase == .began }.map(\.location)
            }
        })
        for p in points { fingers.up(fingers.down(p)) }
        return began
    }

    @Test func aRegionWiderThanTallLetsTouchesBeginJustBelowAndJustRightOfIt() throws {
        let justBelow = Point(x: 10, y: 12.25), justRight = Point(x: 30.25, y: 5)
        let farCorner = Point(x: 29.75, y: 11.75), origin = Point(x: 0.25, y: 0.25)
        #expect(try beginning([justBelow, justRight, farCorner, origin], region: "[0, 0, 30, 12]") == [justBelow, justRight])
        // Taller than wide: the same, turned.
        let below = Point(x: 5, y: 30.25), right = Point(x: 12.25, y: 10)
        #expect(try beginning([below, right, Point(x: 11.75, y: 29.75)], region: "[0, 0, 12, 30]") == [below, right])
    }
}
