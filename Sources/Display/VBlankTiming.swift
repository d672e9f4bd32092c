/// What an output knows of when its panel's vblanks fall: whether the loop can draw late in the
/// refresh (paced) or must draw at once, and what its log says about it.
public enum VBlankTiming: Equatable, Sendable {
    /// The driver gives no vblank times (virtio-gpu: no vblank interrupts): frames are drawn at
    /// once, always. `reason` says how that was found.
    case unknown(reason: String)
    /// Not learned yet, or forgotten (a time off the grid, a blank, the mode set afresh): frames
    /// are drawn at once until page flips teach it again.
    case learning
    /// Known: frames are drawn just before each vblank.
    case paced(hz: Double)
}
