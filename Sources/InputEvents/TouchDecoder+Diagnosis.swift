// Telling the user when a trace seems decoded from the wrong position axes.
extension TouchDecoder {
    mutating func noteChange(of axis: AbsoluteAxis) {
        if axis == xAxis || axis == yAxis {
            positionAxisChanged = true
        } else if Int(axis.rawValue) < UInt64.bitWidth {
            otherAxesChanged |= 1 << UInt64(axis.rawValue)
        }
    }

    /// Axes that changed but cannot carry a position, left out of the suggestion.
    private static let notPositions: Set<AbsoluteAxis> = [.pressure, .distance, .toolWidth, .misc]

    /// The two axes that seem to carry the position, when touches came down and the position axes never changed.
    public var suggestedPositionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? {
        let candidates = changedOtherAxes
        return candidates.count >= 2 ? (candidates[0], candidates[1]) : nil
    }

    private var changedOtherAxes: [AbsoluteAxis] {
        guard touchesCameDown, !positionAxisChanged else { return [] }
        return (0..<UInt64.bitWidth).compactMap { bit in
            guard otherAxesChanged & (1 << UInt64(bit)) != 0 else { return nil }
            let axis = AbsoluteAxis(rawValue: UInt16(bit))
            return axis.isMultitouch || Self.notPositions.contains(axis) ? nil : axis
        }
    }

    /// A warning for the user when the trace so far looks decoded from the wrong axes, else nil.
    ///
    /// Such as "touches came down but ABS_X/ABS_Y never changed; the position seems to be on
    /// ABS_Z/ABS_RX: try --position-axes ABS_Z,ABS_RX".
    public var diagnostic: String? {
        guard touchesCameDown, !positionAxisChanged else { return nil }
        let problem = "touches came down but \(xAxis.name)/\(yAxis.name) never changed"
        if let (x, y) = suggestedPositionAxes {
            return problem + "; the position seems to be on \(x.name)/\(y.name): try --position-axes \(x.name),\(y.name)"
        }
        let others = changedOtherAxes
        if others.isEmpty { return problem + ", nor did any other axis that could carry a position" }
        return problem + "; only \(others.map(\.name).joined(separator: ", ")) changed"
    }
}
