import Foundation
import GlyphCore
import GlyphRender
import GlyphSnapshot

extension RendererFingerprint {
    /// The renderer of this process: glyphaudit's render version, cairo, pango, librsvg, libpng,
    /// zlib and the label fonts (GlyphRender's `RendererVersions`). Computed once.
    public static var current: RendererFingerprint { currentFingerprint }
}

private let currentFingerprint = RendererFingerprint(
    components: Dictionary(RendererVersions.components.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))

extension SnapshotChecker {
    /// A checker of the baselines in `store` whose comparison follows the folder's fingerprint and
    /// this renderer's (`SnapshotComparison.of`; with `.update` among the writes, a folder of
    /// another renderer is rebased). A fingerprint file that cannot be read is bad input.
    /// Messages name the fingerprint file relative to `cwd`.
    public static func fingerprinted(store: SnapshotStore, output: URL?, options: SnapshotOptions, writes: SnapshotWrites,
                                     staleScope: StaleScope, newSnapshots: URL?, candidates: URL? = nil,
                                     listing: BaselineListing? = nil, cwd: URL) throws(InputError) -> SnapshotChecker {
        let file = store.root.appendingPathComponent(RendererFingerprint.fileName).path
        let comparison = try SnapshotComparison.of(store.root, renderer: .current, display: relativePath(file, base: cwd),
                                                   rebase: writes.contains(.update))
        let manifest = try SnapshotManifest.read(in: store.root)
        // A writer takes the folder's lock (once its renderer.json is known to be good: bad input writes nothing).
        var lock: SnapshotLock?
        if !writes.isEmpty {
            let flags = [(SnapshotWrites.record, "--record"), (.update, "--update"), (.prune, "--prune")].filter { writes.contains($0.0) }
            lock = try SnapshotLock.acquire(store.root, command: "writing baselines with " + flags.map(\.1).joined(separator: " "))
        }
        var checker = SnapshotChecker(store: store, output: output, options: options, writes: writes, staleScope: staleScope,
                                      comparison: comparison, newSnapshots: newSnapshots)
        checker.lock = lock
        checker.candidates = candidates
        checker.manifest = manifest
        checker.listing = listing
        checker.manifestInputs = ManifestInputs(renderer: RendererFingerprint.current.components)
        return checker
    }
}
