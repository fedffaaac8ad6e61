// glyphfuzz: libFuzzer targets for the readers of untrusted input (docs/fuzzing.md).
//
//   glyphfuzz TARGET [libFuzzer flags] [corpus folders or files]
//
// Built with the fuzzer (scripts/fuzz passes -sanitize=fuzzer,address and -D GLYPHFUZZ_LIBFUZZER,
// and links libFuzzer's runtime without its main), the arguments after TARGET go to libFuzzer's
// driver. In an ordinary build (`swift build`) there is no fuzzer: glyphfuzz runs TARGET once on each
// file named (or each file in each folder named), which replays a corpus or a crash input under the
// debugger or with Swift's own backtrace.
import Foundation
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphReport

/// What each target feeds its input to. Each must return, whatever the bytes: any crash (a trap, a
/// memory error), a hang (libFuzzer's -timeout) or a memory blow-up (-rss_limit_mb, -malloc_limit_mb)
/// is a finding.
enum FuzzTarget: String, CaseIterable {
    case json, spec, svg, png, pdf, imageset, report

    var summary: String {
        switch self {
        case .json: "JSONReader.parse (specs, tokens, configs, baselines)"
        case .spec: "Spec.load: a spec and its token file, split at a line \"--tokens--\"; then that token file alone, each token resolved"
        case .svg: "SVGReferenceCheck.check (the XML parse and the reference rules), then SVGVectorForm (libxml2: the vector output's rewrite)"
        case .png: "Raster(pngData:) (libpng through CGlyphSupport)"
        case .pdf: "PDFScan.check: the pre-scan of a PDF image (objects, object streams, zlib with a budget, the drawing followed)"
        case .imageset: "an image set's Contents.json, loaded as a spec's image (entries, appearances, scales, the files chosen and read)"
        case .report: "RunReport.decode of a shard's report.json, then merge-reports' merge and path checks, every format written to memory"
        }
    }

    func run(_ data: Data) {
        switch self {
        case .json:
            _ = try? JSONReader.parse(data)
        case .spec:
            let source = FuzzSpecSource(input: data)
            _ = try? Spec.load(path: FuzzSpecSource.specPath, source: source)
            // The token part read by itself too, every token resolved, whether or not the spec loads.
            if let tokens = source.tokens { TokenSet.fuzz(tokens) }
        case .svg:
            // A folder that does not exist: the check resolves references against it and reads nothing.
            _ = try? SVGReferenceCheck.check(data: data, file: URL(fileURLWithPath: "/nonexistent-fuzz/image.svg"),
                                             name: "image.svg")
            SVGVectorForm.fuzz(data)
        case .png:
            _ = try? Raster(pngData: data)
        case .pdf:
            // Only the scan: poppler, which draws what it passes, is not ours to fuzz.
            _ = try? PDFScan.check(data)
        case .imageset:
            _ = try? Spec.load(path: FuzzImageSetSource.specPath, source: FuzzImageSetSource(contents: data))
        case .report:
            RunReport.fuzz(data)
        }
    }
}

/// A spec and its token file from one input, never the file system: the bytes before the first line
/// `--tokens--` are the spec, those after it the token file (any path the spec names as `tokens`).
/// Images (paths ending in `.svg`) are one fixed small SVG, so an image spec loads past its images.
struct FuzzSpecSource: AssetSource {
    static let specPath = "fuzz/spec.json"
    static let separator = Data("\n--tokens--\n".utf8)
    static let image = Data("""
        <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">\
        <path d="M5 12l4 4L19 7" fill="none" stroke="#000" stroke-width="2"/></svg>
        """.utf8)

    let spec: Data
    let tokens: Data?

    init(input: Data) {
        if let r = input.range(of: Self.separator) {
            spec = Data(input[input.startIndex..<r.lowerBound])
            tokens = Data(input[r.upperBound..<input.endIndex])
        } else {
            spec = input
            tokens = nil
        }
    }

    func data(at path: String) -> Data? {
        if path == Self.specPath { return spec }
        if path.hasSuffix(".svg") { return Self.image }
        return tokens
    }

    func fileURL(at path: String) -> URL? { nil }
    func displayName(_ path: String) -> String { path }

    func resolve(_ relative: String, from: String) -> String {
        var parts = from.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }
}

/// An image spec whose two images are one image set, `a.imageset`, whose `Contents.json` is the input;
/// whatever file an entry names is a small valid image of its kind (SVG, PNG, or a one-page PDF), so
/// the loader goes past the entries to the files it chooses, reads and (PDFs) rasterises.
struct FuzzImageSetSource: AssetSource {
    static let specPath = "fuzz/spec.json"
    static let spec = Data("""
        {"name": "fuzz", "control": "checkbox", "sizes": {"md": {"size": 20}}, "frame": {"width": 44, "height": 44},
         "images": {"on": "a.imageset", "off": "a.imageset"}, "states": ["unchecked", "checked"],
         "themes": {"default": {"surface": "#FFFFFF", "tint": "#007AFF"}, "dark": {"surface": "#000000", "tint": "#0A84FF", "appearance": "dark"}},
         "scales": [1, 2, 3], "dynamicTypeSizes": ["L"]}
        """.utf8)
    static let png: Data = (try? Raster(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 4 * 4 * 4)).pngData()) ?? Data()
    /// A one-page PDF (20 × 20 pt, a filled square) with a correct cross-reference table.
    static let pdf: Data = {
        let objects = ["<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[3 0 R]/Count 1>>",
                       "<</Type/Page/Parent 2 0 R/MediaBox[0 0 20 20]/Contents 4 0 R>>",
                       "<</Length 15>>\nstream\n2 2 16 16 re f\nendstream"]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { text += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
        text += "trailer\n<</Size \(objects.count + 1)/Root 1 0 R>>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(text.utf8)
    }()

    let contents: Data

    func data(at path: String) -> Data? {
        if path == Self.specPath { return Self.spec }
        if path.hasSuffix("/Contents.json") { return contents }
        switch (path as NSString).pathExtension.lowercased() {
        case "svg": return FuzzSpecSource.image
        case "png": return Self.png
        case "pdf": return Self.pdf
        default: return nil
        }
    }

    func fileURL(at path: String) -> URL? { nil }
    func displayName(_ path: String) -> String { path }
    func isFolder(_ path: String) -> Bool { path.hasSuffix(".imageset") }
    func resolve(_ relative: String, from: String) -> String {
        FuzzSpecSource(input: Data()).resolve(relative, from: from)
    }
}

#if GLYPHFUZZ_LIBFUZZER
/// libFuzzer's driver (libclang_rt.fuzzer_no_main):
/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size))`.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif

enum GlyphFuzz {
    /// The target of this process; set once before the first input.
    nonisolated(unsafe) static var target = FuzzTarget.json

    /// The name of the environment variable that names the target when the first argument does not:
    /// libFuzzer's -fork, -merge and -jobs modes run this program again with its flags only.
    static let targetVariable = "GLYPHFUZZ_TARGET"

    static func main() -> Int32 {
        var arguments = CommandLine.arguments
        if arguments.count > 1, let t = FuzzTarget(rawValue: arguments[1]) {
            target = t
            arguments.remove(at: 1)
        } else if let name = ProcessInfo.processInfo.environment[targetVariable], let t = FuzzTarget(rawValue: name) {
            target = t
        } else {
            var usage = "usage: glyphfuzz TARGET [libFuzzer flags] [corpus folders or files]\ntargets:\n"
            for t in FuzzTarget.allCases { usage += "  \(t.rawValue)\t\(t.summary)\n" }
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        setenv(targetVariable, target.rawValue, 1)

        #if GLYPHFUZZ_LIBFUZZER
        var argc = Int32(arguments.count)
        let cArguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        for (i, a) in arguments.enumerated() { cArguments[i] = strdup(a) }
        cArguments[arguments.count] = nil
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = cArguments
        return LLVMFuzzerRunDriver(&argc, &argv) { bytes, size in
            // libFuzzer's own buffer, not a copy: a read past its end is caught by AddressSanitizer.
            let data = bytes.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: size, deallocator: .none) }
            GlyphFuzz.target.run(data ?? Data())
            return 0
        }
        #else
        return replay(Array(arguments.dropFirst()))
        #endif
    }

    /// Without libFuzzer: each named file, or each file in a named folder, once (flags are ignored).
    static func replay(_ paths: [String]) -> Int32 {
        var inputs: [String] = []
        for path in paths where !path.hasPrefix("-") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("glyphfuzz: no such file or folder: \(path)\n".utf8))
                return 66
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                inputs += names.sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                inputs.append(path)
            }
        }
        for path in inputs {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            FileHandle.standardError.write(Data("glyphfuzz \(target.rawValue): \(path)\n".utf8))
            target.run(data)
        }
        FileHandle.standardError.write(Data("glyphfuzz \(target.rawValue): ran \(inputs.count) inputs (no fuzzer in this build)\n".utf8))
        return 0
    }
}

exit(GlyphFuzz.main())
