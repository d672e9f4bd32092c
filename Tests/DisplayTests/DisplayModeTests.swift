import Display
import Glibc
import Testing

struct DisplayModeTests {
    let modes = [
        DisplayMode(width: 1024, height: 768, refresh: 60),
        DisplayMode(width: 800, height: 480, refresh: 75, isPreferred: true),
        DisplayMode(width: 800, height: 480, refresh: 60),
    ]

    @Test func withoutARequestThePreferredModeIsTaken() {
        #expect(ModeRequest.choose(nil, from: modes) == 1)
        #expect(ModeRequest.choose(nil, from: [DisplayMode(width: 640, height: 480, refresh: 60)]) == 0)
        #expect(ModeRequest.choose(nil, from: []) == nil)
    }

    @Test func aRequestedModeMatchesSizeAndRefresh() {
        #expect(ModeRequest.choose(ModeRequest(parsing: "800x480@60"), from: modes) == 2)
        #expect(ModeRequest.choose(ModeRequest(parsing: "800x480"), from: modes) == 1)
        #expect(ModeRequest.choose(ModeRequest(parsing: "1920x1080"), from: modes) == nil)
    }

    @Test(arguments: ["800", "800x", "x480", "800x480@", "800x480@sixty", "0x480", "800x480@60@60"])
    func malformedModesAreRejected(text: String) {
        #expect(ModeRequest(parsing: text) == nil)
    }

    @Test func modesReadAsTheCommandLineWritesThem() {
        #expect(ModeRequest(parsing: "720x1280@60") == ModeRequest(width: 720, height: 1280, refresh: 60))
        #expect(DisplayMode(width: 800, height: 480, refresh: 60).description == "800x480@60")
    }

    @Test func aMissingCardIsNamedWithTheCause() {
        #expect {
            _ = try DRMDisplay(card: "/nonexistent/dri/card7")
        } throws: { error in
            "\(error)" == "card7: cannot open /nonexistent/dri/card7: No such file or directory"
        }
    }

    @Test func aCardThatCannotBeOpenedForWantOfPermissionSaysWhatTheUserNeeds() {
        #expect(DisplayError.cannotOpen(card: "card0", path: "/dev/dri/card0", errno: EACCES).description ==
            "card0: cannot open /dev/dri/card0: Permission denied (the user needs group video, or run as root)")
        #expect(DisplayError.cannotOpen(card: "card0", path: "/dev/dri/card0", errno: ENOENT).description ==
            "card0: cannot open /dev/dri/card0: No such file or directory")
    }

    @Test func rotationsAreTheFourRightAngles() {
        #expect(DisplayRotation(degrees: 270) == .clockwise270)
        #expect(DisplayRotation(degrees: 45) == nil)
        #expect(DisplayRotation.clockwise90.panelSize(width: 800, height: 480) == (480, 800))
    }
}
