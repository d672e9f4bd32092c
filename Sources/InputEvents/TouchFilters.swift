/// Clean-up for noisy panels, resistive ones mostly; both are off by default.
public struct TouchFilters: Hashable, Sendable {
    /// A touch that moves less than this many device units (on both axes) from where it was last
    /// reported stays where it was: a resting finger on a resistive panel does not wander.
    public var jitterUnits: Int32
    /// Single touch: a press counts only while `ABS_PRESSURE` is at least this, so a light brush
    /// (or a panel that reports BTN_TOUCH too eagerly) is not a touch. Nil: BTN_TOUCH alone decides.
    public var minimumPressure: Int32?

    public init(jitterUnits: Int32 = 0, minimumPressure: Int32? = nil) {
        self.jitterUnits = jitterUnits
        self.minimumPressure = minimumPressure
    }

    public static let none = TouchFilters()
}
