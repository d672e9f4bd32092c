/// What the display search learnt about one card: whether it opened, and its connectors.
public struct CardSurvey: Sendable {
    /// `card0`.
    public var name: String
    public var contents: Contents

    public enum Contents: Sendable {
        /// It could not be opened; the text says why (`cannot open /dev/dri/card0: Permission denied`).
        case unopenable(String)
        /// It has no modesetting resources: a render-only device such as the Pi 5's v3d.
        case renderOnly
        case connectors([ConnectorSurvey])
    }

    public init(name: String, _ contents: Contents) {
        self.name = name
        self.contents = contents
    }
}

/// A connector as the display search sees it.
public struct ConnectorSurvey: Sendable {
    /// `HDMI-A-1`, `DSI-1`, `Virtual-1`.
    public var name: String
    public var isConnected: Bool
    public var modes: [DisplayMode]
    /// Whether some CRTC can drive it.
    public var hasCRTC: Bool

    public init(name: String, isConnected: Bool, modes: [DisplayMode], hasCRTC: Bool = true) {
        self.name = name
        self.isConnected = isConnected
        self.modes = modes
        self.hasCRTC = hasCRTC
    }
}

/// Chooses the card, connector and mode from what the cards offer; no libdrm here, so every
/// case is testable without a display.
///
/// Cards are looked at in order. Without a named card, one that cannot be opened, has no
/// modesetting or nothing connected is noted and the next is tried (on a Pi 5 the render-only
/// v3d can be card0 and the display card1); the error, when no card serves, lists each card and
/// why. A named card or connector that is found but cannot serve ends the search at once.
public struct DisplaySearch: Sendable {
    /// True when the user named the card: its problems are the answer, not a reason to look further.
    public var cardIsNamed: Bool
    /// The connector the user named; nil: the first connected one.
    public var connector: String?
    /// The mode the user asked for; nil: the connector's preferred mode.
    public var mode: ModeRequest?

    public init(cardIsNamed: Bool = false, connector: String? = nil, mode: ModeRequest? = nil) {
        self.cardIsNamed = cardIsNamed
        self.connector = connector
        self.mode = mode
    }

    /// The card, connector and mode chosen: indices into the survey, its connectors and their modes.
    public struct Choice: Equatable, Sendable {
        public var card: Int
        public var connector: Int
        public var mode: Int

        public init(card: Int, connector: Int, mode: Int) {
            self.card = card
            self.connector = connector
            self.mode = mode
        }
    }

    /// What to do with one card.
    public enum Verdict: Sendable {
        /// Use its connector and mode (indices).
        case use(connector: Int, mode: Int)
        /// It cannot serve; the error names the card. Try the next one.
        case skip(DisplayError)
        /// The search ends with this error.
        case fail(DisplayError)
    }

    /// Surveys each of `cards` in turn with `survey` (which may open the card) until one serves.
    public func choose(cards: [String], survey: (String) -> CardSurvey) -> Result<Choice, DisplayError> {
        var skipped: [DisplayError] = []
        var unopenable = 0
        for (index, path) in cards.enumerated() {
            let card = survey(path)
            if case .unopenable = card.contents { unopenable += 1 }
            switch verdict(card) {
            case .use(let connector, let mode): return .success(Choice(card: index, connector: connector, mode: mode))
            case .skip(let reason): skipped.append(reason)
            case .fail(let error): return .failure(error)
            }
        }
        return .failure(DisplayError(.noDisplay(connector: connector, cards: skipped, unopenable: unopenable)))
    }

    /// Decides about one card.
    public func verdict(_ card: CardSurvey) -> Verdict {
        let refusal: CardRefusal
        switch card.contents {
        case .unopenable(let why):
            refusal = .unopenable(why)
        case .renderOnly:
            refusal = .renderOnly
        case .connectors(let connectors):
            if let wanted = connector {
                if let i = connectors.firstIndex(where: { $0.name == wanted }) {
                    guard connectors[i].isConnected else {
                        return .fail(DisplayError(card: card.name, .nothingConnected(connector: wanted, named: true)))
                    }
                    return use(card, connectors, i)
                }
                refusal = .noConnector(wanted, has: connectors.map(\.name))
            } else if let i = connectors.firstIndex(where: \.isConnected) {
                return use(card, connectors, i)
            } else if connectors.isEmpty {
                refusal = .noConnectors
            } else {
                refusal = .nothingConnected(connectors.map(\.name))
            }
        }
        let error = DisplayError(card: card.name, .unusable(refusal))
        return cardIsNamed ? .fail(error) : .skip(error)
    }

    private func use(_ card: CardSurvey, _ connectors: [ConnectorSurvey], _ i: Int) -> Verdict {
        let c = connectors[i]
        guard let m = ModeRequest.choose(mode, from: c.modes) else {
            return .fail(DisplayError(card: card.name, .modeNotOffered(connector: c.name, mode, offered: c.modes)))
        }
        guard c.hasCRTC else { return .fail(DisplayError(card: card.name, .noCRTC(connector: c.name))) }
        return .use(connector: i, mode: m)
    }
}
