import Foundation
import GlyphCore
import GlyphRaster
import GlyphSnapshot

// The picture of a failed JUnit snapshot case. GitLab shows one `[[ATTACHMENT|…]]` of a test case
// (the first), so each failed case attaches one picture: the side-by-sides (expected | actual | diff)
// of its failed snapshots, one under another. It is composed from the pictures in the report folder
// when the report is written (`run`, and `merge-reports` after copying the shards' pictures).

extension RunReport {
    /// At most this many failed snapshots go into one case's picture (the failure's body lists them all).
    public static let casePictureLimit = 8

    static func caseKey(_ preset: String, _ component: String) -> String { preset + "/" + component }

    /// Where a snapshot case's picture goes, relative to the report folder.
    public static func casePicture(_ preset: String, _ component: String) -> String { "snapshots/\(preset)/\(component).failed.png" }

    /// The pictures (relative to the report folder) the case's picture is made of: for each of the
    /// component's failed snapshots, in report order (at most `casePictureLimit`), its side-by-side, or
    /// for one without (a new snapshot) its render in the report (the contact sheet's picture).
    func casePictureSources(_ preset: String, _ component: String) -> [String] {
        var images: [String: String] = [:]
        for v in variants where v.preset == preset { if let image = v.image { images[v.id.description] = image } }
        let failed = (snapshots?.results ?? []).filter { $0.failed && $0.id.preset == preset && $0.id.component == component }
        return Array(failed.compactMap { $0.sideBySide ?? $0.actual ?? images[$0.id.description] }.prefix(Self.casePictureLimit))
    }

    /// Composes and writes the picture of each failed snapshot case into `folder` (pictures it cannot
    /// read are left out; a case with none gets no picture). Returns the pictures written, by case.
    public func writeCasePictures(in folder: URL) throws -> [String: String] {
        var written: [String: String] = [:]
        var done = Set<String>()
        for r in snapshots?.results ?? [] where r.failed && !r.id.preset.isEmpty && !r.id.component.isEmpty {
            let key = Self.caseKey(r.id.preset, r.id.component)
            guard done.insert(key).inserted else { continue }
            let parts = casePictureSources(r.id.preset, r.id.component).compactMap { rel -> Raster? in
                // The pictures were written in this run (`merge-reports`: copied), in the batch that
                // renames its files when the command ends: read where they are now.
                guard Beneath.problem(rel) == nil else { return nil }
                let path = AtomicFile.currentPath(of: folder.appendingPathComponent(rel))
                guard let data = try? InputFile.read(path, limit: Limits.pngFileBytes, what: "picture") else { return nil }
                return try? Raster(pngData: data)
            }
            guard !parts.isEmpty else { continue }
            let picture = Self.casePicture(r.id.preset, r.id.component)
            try writeIfChanged(try ImageComparator.stacked(parts).pngData(), to: folder.appendingPathComponent(picture))
            written[key] = picture
        }
        return written
    }
}
