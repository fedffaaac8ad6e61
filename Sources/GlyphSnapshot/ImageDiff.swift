import Foundation
import GlyphCore
import GlyphRaster

/// The comparator on its own, for any PNGs (`glyphaudit diff A B`): two files, or two folders
/// whose PNGs are matched by relative path.
public enum ImageDiff {
    /// The outcome for one pair of files.
    public struct PairResult: Sendable, Equatable, Codable {
        public enum Status: String, Sendable, Codable {
            /// No pixel counted as different (identical, or differences within the threshold or anti-aliasing).
            case match
            /// Pixels differ, or the sizes do.
            case differ
            /// One of the files cannot be read as a PNG.
            case unreadable
        }

        /// The path relative to the compared folders (the file name for two files).
        public var path: String
        public var a: String
        public var b: String
        public var status: Status
        public var difference: ImageDifference?
        /// For `unreadable`: each file that cannot be read and what is wrong with it ("; " between two).
        public var message: String?
        /// For `unreadable`: the files that cannot be read (A, B or both), as paths.
        public var unreadableFiles: [String]?
        /// The diff image written, if any.
        public var diffImage: String?
        /// The diff image could not be written.
        public var writeError: String?
    }

    /// The PNGs of two folders, matched by relative path.
    public struct Pairing: Sendable, Equatable {
        public var common: [String]
        public var onlyInA: [String]
        public var onlyInB: [String]
    }

    public struct Report: Sendable, Equatable, Codable {
        public var a: String
        public var b: String
        public var pairs: [PairResult]
        public var onlyInA: [String]
        public var onlyInB: [String]

        public init(a: String, b: String, pairs: [PairResult], onlyInA: [String], onlyInB: [String]) {
            self.a = a
            self.b = b
            self.pairs = pairs
            self.onlyInA = onlyInA
            self.onlyInB = onlyInB
        }

        public var differing: Int { pairs.count { $0.status == .differ } }
        public var unreadable: Int { pairs.count { $0.status == .unreadable } }
        public var writeErrors: Int { pairs.count { $0.writeError != nil } }

        /// 2 when a file cannot be read or a diff image cannot be written; 1 when a pair differs or
        /// a file is on one side only; else 0.
        public var status: ExitStatus {
            ExitStatus(failed: differing > 0 || !onlyInA.isEmpty || !onlyInB.isEmpty, badInput: unreadable > 0 || writeErrors > 0)
        }
        public var exitStatus: Int32 { status.rawValue }
    }

    public static func pair(_ a: URL, _ b: URL) -> Pairing {
        let left = PNGFiles.list(under: a)
        let right = PNGFiles.list(under: b)
        let rightSet = Set(right)
        let leftSet = Set(left)
        return Pairing(common: left.filter { rightSet.contains($0) },
                       onlyInA: left.filter { !rightSet.contains($0) },
                       onlyInB: right.filter { !leftSet.contains($0) })
    }

    /// Compares two PNG files. With `output`, writes the diff image there when the pair differs,
    /// or always with `writeAlways`.
    public static func compareFiles(_ a: URL, _ b: URL, name: String, options: PixelmatchOptions = .init(),
                                    output: URL? = nil, writeAlways: Bool = false) -> PairResult {
        var result = PairResult(path: name, a: a.path, b: b.path, status: .match)
        let left: Raster
        let right: Raster
        switch (read(a), read(b)) {
        case (.success(let l), .success(let r)):
            left = l
            right = r
        case let (l, r):
            // Name every file that cannot be read: A, B or both.
            var files: [String] = []
            var messages: [String] = []
            for (url, side) in [(a, l), (b, r)] {
                if case .failure(let failure) = side {
                    files.append(url.path)
                    messages.append(failure.message)
                }
            }
            result.status = .unreadable
            result.unreadableFiles = files
            result.message = messages.joined(separator: "; ")
            return result
        }
        // Ask for the diff image only when it may be written: it costs a full pass.
        let (difference, diff) = ImageComparator.compare(expected: left, actual: right, options: options,
                                                         diffImage: output != nil && writeAlways)
        result.difference = difference
        let differs = difference.mismatchedPixels > 0 || !difference.sameSize
        result.status = differs ? .differ : .match
        if let output, differs || writeAlways {
            if let problem = ImageComparator.canvasProblem(left, right) {
                result.writeError = "\(output.path): \(problem)"
                return result
            }
            let image = diff ?? ImageComparator.compare(expected: left, actual: right, options: options, diffImage: true).diff!
            do {
                try AtomicFile.write(try image.pngData(), to: output)
                result.diffImage = output.path
            } catch {
                result.writeError = "\(error)"
            }
        }
        return result
    }

    /// Compares the PNGs of two folders matched by relative path, on `jobs` threads. With
    /// `output`, writes the diff image of each pair that differs to `output/<relative path>`.
    public static func compareFolders(_ a: URL, _ b: URL, options: PixelmatchOptions = .init(),
                                      output: URL? = nil, jobs: Int = defaultJobs) -> Report {
        let pairing = pair(a, b)
        let common = pairing.common
        let pairs = parallelMap(common.count, jobs: jobs) { i in
            let path = common[i]
            return compareFiles(a.appendingPathComponent(path), b.appendingPathComponent(path), name: path,
                                options: options, output: output?.appendingPathComponent(path))
        }
        return Report(a: a.path, b: b.path, pairs: pairs, onlyInA: pairing.onlyInA, onlyInB: pairing.onlyInB)
    }

    /// Reads a PNG with libpng; the failure message names the file.
    static func read(_ url: URL) -> Result<Raster, ReadFailure> {
        let data: Data
        do { data = try InputFile.read(url.path, limit: Limits.pngFileBytes, what: "PNG") } catch {
            return .failure(ReadFailure("\(url.path): \(error.message)"))
        }
        switch decodePNG(data) {
        case .success(let raster): return .success(raster)
        case .failure(let problem): return .failure(ReadFailure("\(url.path): \(problem.message)"))
        }
    }

    struct ReadFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
