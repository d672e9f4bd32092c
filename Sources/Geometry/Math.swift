#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C math functions, behind names that do not clash with members called `sin`, `cos` or `atan2`.
@inlinable public func _sin(_ x: Double) -> Double { sin(x) }
@inlinable public func _cos(_ x: Double) -> Double { cos(x) }
@inlinable public func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

/// `angle` brought into (-pi, pi].
@inlinable public func normalizedAngle(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > Double.pi { a -= 2 * Double.pi }
    if a <= -Double.pi { a += 2 * Double.pi }
    return a
}
