import Display
import Glibc
import Testing

/// Choosing the card, connector and mode from what the cards offer, and what the user is told
/// when none serves: the logic `DRMDisplay` runs over the real cards, without a display.
struct DisplaySearchTests {
    static let panel = [DisplayMode(width: 800, height: 480, refresh: 60, isPreferred: true)]

    static func card(_ name: String, _ connectors: ConnectorSurvey...) -> CardSurvey {
        CardSurvey(name: name, .connectors(connectors))
    }

    static func connected(_ name: String) -> ConnectorSurvey { ConnectorSurvey(name: name, isConnected: true, modes: panel) }
    static func empty(_ name: String) -> ConnectorSurvey { ConnectorSurvey(name: name, isConnected: false, modes: []) }

    /// Runs the search over `cards` (paths /dev/dri/<name>), as DRMDisplay does.
    func search(_ cards: [CardSurvey], _ search: DisplaySearch = DisplaySearch()) -> Result<DisplaySearch.Choice, DisplayError> {
        search.choose(cards: cards.map { "/dev/dri/\($0.name)" }) { path in
            cards.first { "/dev/dri/\($0.name)" == path }!
        }
    }

    func error(_ result: Result<DisplaySearch.Choice, DisplayError>) -> String? {
        if case .failure(let e) = result { e.description } else { nil }
    }

    @Test func theDisplayOnCard1IsFoundWhileCard0IsRenderOnly() throws {
        let withoutKMS = search([CardSurvey(name: "card0", .renderOnly), Self.card("card1", Self.empty("HDMI-A-1"), Self.connected("DSI-1"))])
        #expect(try withoutKMS.get() == DisplaySearch.Choice(card: 1, connector: 1, mode: 0))
        // Some render-only drivers answer with resources that hold no connector at all.
        let noConnectors = search([Self.card("card0"), Self.card("card1", Self.connected("DSI-1"))])
        #expect(try noConnectors.get() == DisplaySearch.Choice(card: 1, connector: 0, mode: 0))
    }

    @Test func aCardThatCannotBeOpenedIsNotedAndTheNextIsTried() throws {
        let cards = [CardSurvey(name: "card0", .unopenable("cannot open /dev/dri/card0: Permission denied (the user needs group video, or run as root)")),
                     Self.card("card1", Self.connected("HDMI-A-1"))]
        #expect(try search(cards).get() == DisplaySearch.Choice(card: 1, connector: 0, mode: 0))
    }

    @Test func withNoConnectedDisplayTheErrorListsEachCardAndWhy() {
        let cards = [CardSurvey(name: "card0", .unopenable("cannot open /dev/dri/card0: Permission denied (the user needs group video, or run as root)")),
                     Self.card("card1"),
                     CardSurvey(name: "card2", .renderOnly),
                     Self.card("card3", Self.empty("HDMI-A-1"), Self.empty("HDMI-A-2"))]
        #expect(error(search(cards)) == """
            no connected display on the cards that could be opened: \
            card0: cannot open /dev/dri/card0: Permission denied (the user needs group video, or run as root); \
            card1: no connectors (a render-only device); card2: no modesetting (a render-only device); \
            card3: nothing connected to HDMI-A-1, HDMI-A-2
            """)
    }

    /// A user without group video: the card is there but cannot be opened. That is what the
    /// message says first, with the group it takes, not that no display is connected.
    @Test func whenNoCardCanBeOpenedTheErrorSaysSoAndNamesTheGroup() {
        let denied = "cannot open /dev/dri/card0: Permission denied (the user needs group video, or run as root)"
        #expect(error(search([CardSurvey(name: "card0", .unopenable(denied))])) ==
            "the DRM card could not be opened: card0: \(denied)")
        #expect(error(search([CardSurvey(name: "card0", .unopenable(denied))], DisplaySearch(connector: "DSI-1"))) ==
            "the DRM card could not be opened: card0: \(denied)")
        let busy = "cannot open /dev/dri/card1: Device or resource busy"
        let both = [CardSurvey(name: "card0", .unopenable(denied)), CardSurvey(name: "card1", .unopenable(busy))]
        #expect(error(search(both)) == "no DRM card could be opened: card0: \(denied); card1: \(busy)")
    }

    @Test func aNamedConnectorIsLookedForOnEveryCard() throws {
        let cards = [Self.card("card0", Self.connected("HDMI-A-1")), Self.card("card1", Self.connected("DSI-1"))]
        #expect(try search(cards, DisplaySearch(connector: "DSI-1")).get() == DisplaySearch.Choice(card: 1, connector: 0, mode: 0))
    }

    @Test func aNamedConnectorThatNoCardHasIsReportedWithWhatEachHas() {
        let cards = [Self.card("card0"), Self.card("card1", Self.connected("HDMI-A-1"), Self.empty("HDMI-A-2"))]
        #expect(error(search(cards, DisplaySearch(connector: "DSI-1"))) == """
            no connected display on a connector DSI-1: card0: no connector DSI-1 (it has none); \
            card1: no connector DSI-1 (it has HDMI-A-1, HDMI-A-2)
            """)
    }

    @Test func aNamedConnectorWithNothingOnItEndsTheSearch() {
        let cards = [Self.card("card0", Self.empty("DSI-1")), Self.card("card1", Self.connected("DSI-1"))]
        #expect(error(search(cards, DisplaySearch(connector: "DSI-1"))) == "card0: connector DSI-1 has nothing connected")
    }

    @Test func aNamedCardIsTheOnlyOneLookedAt() {
        let cards = [Self.card("card0", Self.empty("HDMI-A-1"))]
        #expect(error(search(cards, DisplaySearch(cardIsNamed: true))) == "card0: nothing connected to HDMI-A-1")
        let unopenable = [CardSurvey(name: "card0", .unopenable("cannot open /dev/dri/card0: No such file or directory"))]
        #expect(error(search(unopenable, DisplaySearch(cardIsNamed: true))) == "card0: cannot open /dev/dri/card0: No such file or directory")
    }

    @Test func aModeTheConnectedDisplayLacksIsRefusedWithTheModesItOffers() throws {
        let cards = [Self.card("card0", Self.connected("Virtual-1"))]
        #expect(error(search(cards, DisplaySearch(mode: ModeRequest(parsing: "1024x768")))) ==
            "card0: Virtual-1: mode 1024x768 not supported; it offers 800x480@60")
        let modes = [DisplayMode(width: 1024, height: 768, refresh: 60), DisplayMode(width: 800, height: 480, refresh: 60, isPreferred: true)]
        let two = [Self.card("card0", ConnectorSurvey(name: "HDMI-A-1", isConnected: true, modes: modes))]
        #expect(try search(two).get().mode == 1)
        #expect(try search(two, DisplaySearch(mode: ModeRequest(parsing: "1024x768@60"))).get().mode == 0)
    }

    @Test func aConnectorNoCRTCCanDriveIsSaidSo() {
        let cards = [Self.card("card0", ConnectorSurvey(name: "DSI-1", isConnected: true, modes: Self.panel, hasCRTC: false))]
        #expect(error(search(cards)) == "card0: DSI-1: no CRTC can drive it")
    }

    @Test func withoutCardsTheErrorSaysSo() {
        #expect(error(search([])) == "no connected display: no DRM card")
    }
}

/// What the user is told when DRM master is refused: who holds it, or what they lack.
struct MasterRefusalTests {
    @Test func anotherMasterIsNamedAsTheCause() {
        let text = DisplayError.masterRefused(card: "card1", errno: EBUSY).description
        #expect(text == "card1: cannot become DRM master: another process holds DRM master (a compositor or another kiosk is running) (EBUSY)")
    }

    /// Older kernels said EINVAL for a master held elsewhere; so does a node that has no master.
    @Test func einvalNamesBothItsCauses() {
        let text = DisplayError.masterRefused(card: "card1", errno: EINVAL).description
        #expect(text.contains("another process may hold DRM master") && text.contains("not the card's primary node") && text.hasSuffix("(EINVAL)"), "\(text)")
    }

    @Test(arguments: [EACCES, EPERM])
    func missingPermissionSaysWhatTheUserNeeds(code: Int32) {
        let text = DisplayError.masterRefused(card: "card0", errno: code).description
        #expect(text.hasPrefix("card0: cannot become DRM master: permission denied: run kiosk as root, or as a user in group video"))
        #expect(text.hasSuffix(code == EACCES ? "(EACCES)" : "(EPERM)"))
    }

    @Test func theErrnoIsReported() {
        #expect(DisplayError.masterRefused(card: "card0", errno: EBUSY).description.hasSuffix("(EBUSY)"))
        #expect(DisplayError.masterRefused(card: "card0", errno: EIO, again: true).description ==
            "card0: cannot become DRM master again: \(String(cString: strerror(EIO))) (errno \(EIO))")
    }
}
