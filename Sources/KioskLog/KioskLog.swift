import Logging

/// The kiosk's log: a swift-log handler writing to the serial console and stderr.
public enum KioskLog {}
