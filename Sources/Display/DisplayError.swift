import Glibc
import KioskCore

/// Why the display could not be set up or driven: the card (nil before one is chosen) and the
/// cause, as typed parts. The text is made from them where the error is shown (`description`).
public struct DisplayError: Error, CustomStringConvertible {
    public enum Cause: Sendable, CustomStringConvertible {
        /// A libdrm or system call failed.
        case systemCall(SystemCallError)
        /// `drmSetMaster` failed; `again`: when taking it back after it was lost.
        case masterRefused(Errno, again: Bool)
        /// Opening the card's device node failed.
        case cannotOpen(path: String, Errno)
        /// The card has no modesetting resources (a render-only device).
        case noModesetting
        /// `directory` (/dev/dri) does not exist, or holds no card.
        case noCards(directory: String, exists: Bool)
        /// The card can drive nothing the search wants (the survey's reason for skipping it).
        case unusable(CardRefusal)
        /// No card serves; each card's error, and how many of them could not be opened at all.
        case noDisplay(connector: String?, cards: [DisplayError], unopenable: Int)
        /// The search chose a card it did not keep open (a bug).
        case chosenCardNotKept
        /// The connector the user named has nothing on it (`named`), or what was on it went away.
        case nothingConnected(connector: String, named: Bool)
        /// The connected display does not offer the mode asked for (nil: a preferred mode).
        case modeNotOffered(connector: String, ModeRequest?, offered: [DisplayMode])
        case noCRTC(connector: String)
        /// A frame was drawn (`drawing`) or presented while a page flip was still pending.
        case flipPending(drawing: Bool)
        /// The flip's event did not come within `seconds`.
        case flipTimedOut(seconds: Int)
        case formatMismatch(shadow: PixelFormat, display: PixelFormat)
        case noDPMS(connector: String)
        /// Master was lost to another process, so the display could not be put back.
        case masterLost
        /// `restore()` could not do these.
        case notRestored([DisplayError])
        /// `display.mode` is not a mode.
        case badMode(String)
        /// The headless display's memory could not be had.
        case headless(DrawingResourceError)
        /// The frame to show could not be drawn.
        case frameNotDrawn(DrawingResourceError)

        public var description: String {
            switch self {
            case .systemCall(let failure): "\(failure)"
            case .masterRefused(let errno, let again):
                "cannot become DRM master\(again ? " again" : ""): \(Self.masterRefusal(errno)) (\(DisplayError.errnoName(errno.rawValue)))"
            case .cannotOpen(let path, let errno):
                "cannot open \(path): \(errno)\(errno.rawValue == EACCES || errno.rawValue == EPERM ? " (the user needs group video, or run as root)" : "")"
            case .noModesetting: "no modesetting resources (a render-only device?)"
            case .noCards(let directory, let exists): "\(exists ? "no card in " : "no ")\(directory): no DRM driver is loaded"
            case .unusable(let refusal): "\(refusal)"
            case .noDisplay(let connector, let cards, let unopenable): Self.noDisplay(connector, cards, unopenable)
            case .chosenCardNotKept: "display search: the chosen card was not kept open"
            case .nothingConnected(let connector, let named):
                named ? "connector \(connector) has nothing connected" : "\(connector): nothing is connected"
            case .modeNotOffered(let connector, let mode, let offered):
                "\(connector): mode \(mode.map(\.description) ?? "(preferred)") not supported; it offers "
                    + (offered.isEmpty ? "no modes" : offered.map(\.description).joined(separator: ", "))
            case .noCRTC(let connector): "\(connector): no CRTC can drive it"
            case .flipPending(let drawing):
                drawing ? "a page flip is still pending; handle its event before drawing the next frame" : "a page flip is still pending"
            case .flipTimedOut(let seconds): "a page flip did not complete within \(seconds) s"
            case .formatMismatch(let shadow, let display): "the shadow buffer is \(shadow) but the display is \(display)"
            case .noDPMS(let connector): "\(connector) has no DPMS property; it cannot be blanked"
            case .masterLost: "DRM master was lost to another process; the display was not put back"
            case .notRestored(let problems): "not restored: \(problems.map(\.description).joined(separator: "; "))"
            case .badMode(let mode): "display.mode: '\(mode)' is not WxH or WxH@R"
            case .headless(let error): "headless: \(error)"
            case .frameNotDrawn(let error): "the frame cannot be drawn: \(error)"
            }
        }

        /// Who holds the card, or what the user lacks.
        static func masterRefusal(_ errno: Errno) -> String {
            switch errno.rawValue {
            case EBUSY: "another process holds DRM master (a compositor or another kiosk is running)"
            // Kernels before 5.x said EINVAL for a master held elsewhere; it also means a node that
            // cannot have a master (a render node).
            case EINVAL: "refused: another process may hold DRM master (kernels before 5.x say so this way), or this is not the card's primary node"
            case EACCES, EPERM: "permission denied: run kiosk as root, or as a user in group video while no other process holds the card"
            default: "\(errno)"
            }
        }

        /// What went wrong, then each card and why. When no card could be opened, that is the
        /// news, not a missing display: the card may well have one, and the reason
        /// (`cannotOpen`) names the group the user lacks.
        static func noDisplay(_ connector: String?, _ cards: [DisplayError], _ unopenable: Int) -> String {
            let looked = connector.map { "no connected display on a connector \($0)" } ?? "no connected display"
            if cards.isEmpty { return "\(looked): no DRM card" }
            let head = switch unopenable {
            case 0: looked
            case cards.count: cards.count == 1 ? "the DRM card could not be opened" : "no DRM card could be opened"
            default: "\(looked) on the cards that could be opened"
            }
            return "\(head): \(cards.map(\.description).joined(separator: "; "))"
        }
    }

    /// The card, as errors and the log name it (`card0`); nil before a card is chosen.
    public var card: String?
    public var cause: Cause

    public init(card: String? = nil, _ cause: Cause) {
        self.card = card
        self.cause = cause
    }

    public init(card: String?, _ failure: SystemCallError) { self.init(card: card, .systemCall(failure)) }

    /// `card0: drmModePageFlip HDMI-A-1: Device or resource busy`.
    public var description: String { card.map { "\($0): \(cause)" } ?? "\(cause)" }

    /// The errno when a call failed, nil otherwise.
    public var errno: Errno? {
        switch cause {
        case .systemCall(let failure): failure.errno
        case .masterRefused(let errno, _), .cannotOpen(_, let errno): errno
        default: nil
        }
    }

    /// `drmSetMaster` on `card` failed with `code` (errno): who holds the card, or what the user lacks.
    public static func masterRefused(card: String, errno code: Int32, again: Bool = false) -> DisplayError {
        DisplayError(card: card, .masterRefused(Errno(rawValue: code), again: again))
    }

    /// Opening the card at `path` failed with `code` (errno); for want of permission, says what the user needs.
    public static func cannotOpen(card: String, path: String, errno code: Int32) -> DisplayError {
        DisplayError(card: card, .cannotOpen(path: path, Errno(rawValue: code)))
    }

    /// `EBUSY` for EBUSY: the name a user can search for.
    static func errnoName(_ code: Int32) -> String {
        switch code {
        case EBUSY: "EBUSY"
        case EINVAL: "EINVAL"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        default: "errno \(code)"
        }
    }
}

/// Why the display search passes over a card.
public enum CardRefusal: Sendable, CustomStringConvertible {
    /// It could not be opened; the text says why (`cannot open /dev/dri/card0: Permission denied`).
    case unopenable(String)
    /// No modesetting resources.
    case renderOnly
    /// Resources without a connector in them: some render-only drivers answer so.
    case noConnectors
    /// The connector asked for is not on this card, which has `has`.
    case noConnector(String, has: [String])
    /// Nothing is connected to any of these connectors.
    case nothingConnected([String])

    public var description: String {
        switch self {
        case .unopenable(let why): why
        case .renderOnly: "no modesetting (a render-only device)"
        case .noConnectors: "no connectors (a render-only device)"
        case .noConnector(let wanted, let has): "no connector \(wanted) (it has \(Self.list(has)))"
        case .nothingConnected(let connectors): "nothing connected to \(Self.list(connectors))"
        }
    }

    private static func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}

/// `systemCall` for libdrm, which returns -1 with errno or a negative errno; a failure becomes the
/// `DisplayError` of `card`, naming `call` and `subject`.
@discardableResult
func drmCall(_ card: String?, _ call: String, on subject: @autoclosure () -> String? = nil,
             _ body: () -> Int32) throws(DisplayError) -> Int32 {
    do throws(SystemCallError) {
        return try systemCall(call, on: subject(), .negativeErrno, body)
    } catch {
        throw DisplayError(card: card, error)
    }
}
