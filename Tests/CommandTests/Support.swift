import Foundation
import KioskTestSupport

let repositoryRoot = KioskExecutable.repositoryRoot
let kioskExecutable = KioskExecutable.url
typealias Finished = KioskExecutable.Finished

func temporaryFolder(_ label: String) throws -> URL { try KioskExecutable.temporaryFolder(label) }

func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Finished {
    try KioskExecutable.run(arguments, executable: executable, environment: environment)
}
/// The repository's default config, as the commands read it.
let defaultConfigPath = KioskExecutable.defaultConfigPath
