import Foundation

/// Where the paths of the CI reports start. GitHub (SARIF `artifactLocation.uri`, the `file=` of a
/// workflow annotation) and GitLab and Jenkins (JUnit `file`, `[[ATTACHMENT|…]]`) read a path from the
/// repository's root (`$GITHUB_WORKSPACE`, `$CI_PROJECT_DIR`, the workspace), while report.json keeps
/// its paths relative to the folder glyphaudit ran in. `fromRoot` turns one into the other, so a run
/// started in a subfolder (a monorepo's package) still points at the right files.
public struct RepositoryPaths: Sendable, Equatable {
    /// The repository root, absolute, symbolic links resolved.
    public let root: URL
    /// The folder the run started in (what report.json's relative paths are relative to), the same way.
    public let cwd: URL

    public init(root: URL, cwd: URL) {
        self.root = root.resolvingSymlinksInPath().standardizedFileURL
        self.cwd = cwd.resolvingSymlinksInPath().standardizedFileURL
    }

    /// The process's working folder as the root: paths stay as report.json has them.
    public static func workingFolder() -> RepositoryPaths {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return RepositoryPaths(root: cwd, cwd: cwd)
    }

    /// The nearest folder at or above `cwd` that holds `.git` (a folder, or the file of a worktree or
    /// submodule); nil when there is none up to `/`.
    public static func discoverRoot(from cwd: URL) -> URL? {
        var dir = cwd.resolvingSymlinksInPath().standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(".git").path) { return dir }
            let up = dir.deletingLastPathComponent().standardizedFileURL
            if up.path == dir.path { return nil }
            dir = up
        }
    }

    /// The root for `cwd`: `explicit` (`--root DIR`, relative to `cwd`) when given, else the nearest
    /// folder holding `.git`, else `cwd` itself. An explicit root must be a folder at or above `cwd`;
    /// `problem` says what is wrong with it.
    public static func resolve(explicit: String?, cwd: URL) -> Result<RepositoryPaths, RootProblem> {
        guard let explicit else { return .success(RepositoryPaths(root: discoverRoot(from: cwd) ?? cwd, cwd: cwd)) }
        let url = explicit.hasPrefix("/") ? URL(fileURLWithPath: explicit) : cwd.appendingPathComponent(explicit)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .failure(.missing) }
        guard isFolder.boolValue else { return .failure(.notAFolder) }
        let paths = RepositoryPaths(root: url, cwd: cwd)
        guard paths.cwd.path == paths.root.path || paths.cwd.path.hasPrefix(paths.root.path == "/" ? "/" : paths.root.path + "/") else {
            return .failure(.notAbove(working: paths.cwd.path))
        }
        return .success(paths)
    }

    public enum RootProblem: Error, Equatable, Sendable {
        case missing, notAFolder, notAbove(working: String)

        public var message: String {
            switch self {
            case .missing: "--root: no such folder"
            case .notAFolder: "--root: not a folder"
            case let .notAbove(working):
                "--root: not the working folder (\(working)) nor a folder above it; report paths are relative to the root, "
                    + "so it must hold the folder glyphaudit runs in"
            }
        }
    }

    /// The working folder as seen from the root (`packages/ui`), "" when they are the same.
    public var workingFolderFromRoot: String { fromRoot(cwd.path) ?? "" }

    /// A path as report.json has it (relative to the working folder, or absolute) as a path from the
    /// root (`..` resolved); "" for the root itself; nil when it lies outside the root.
    public func fromRoot(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        let absolute = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : cwd.appendingPathComponent(path)).standardizedFileURL.path
        let r = root.path
        if absolute == r { return "" }
        let prefix = r == "/" ? "/" : r + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : nil
    }

    /// The absolute path of a path from the root.
    public func absolute(fromRoot path: String) -> String { root.appendingPathComponent(path).path }
}
