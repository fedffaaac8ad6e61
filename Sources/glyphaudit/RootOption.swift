import Foundation
import GlyphCore
import GlyphReport

/// `--root DIR` of `run` and `merge-reports`: where the CI reports' paths start (SARIF, JUnit,
/// workflow annotations). By default the nearest folder at or above the working folder holding
/// `.git`, else the working folder.
enum RootOption {
    static let option = Option(name: "root", value: "DIR",
                               help: "The repository root the SARIF, JUnit and annotation paths start from (default: the nearest folder "
                                   + "holding .git at or above the working folder); it must hold the working folder.")

    /// The root, checked before anything is rendered or written: a `--root` that is missing, not a
    /// folder, or not at or above the working folder is bad input (exit 2).
    static func paths(_ args: Arguments) throws(InputError) -> RepositoryPaths {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let given = args.value(option)
        switch RepositoryPaths.resolve(explicit: given, cwd: cwd) {
        case .success(let paths): return paths
        case .failure(let problem): throw InputError(file: given ?? ".", message: problem.message)
        }
    }
}
