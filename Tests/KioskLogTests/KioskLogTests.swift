import KioskLog
import Testing
