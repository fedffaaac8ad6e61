import Foundation
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphExport
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
@testable import GlyphReport
@testable import GlyphSnapshot

/// A fresh temporary folder, removed when the value is released.
public final class TempFolder {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    public func write(_ name: String, _ text: String) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: file)
        return file
    }
}

/// Loads a spec written into a temp folder; returns the error when loading fails.
public func loadSpec(_ json: String, files: [String: String] = [:], in folder: TempFolder = TempFolder()) -> Result<Spec, InputError> {
    for (name, text) in files { folder.write(name, text) }
    let url = folder.write("spec.json", json)
    do { return .success(try Spec.load(contentsOf: url)) } catch { return .failure(error) }
}

extension Raster {
    /// Bounding box (in pixels) of the pixels for which `test` holds: (minX, minY, maxX+1, maxY+1).
    public func bounds(where test: (RGBA) -> Bool) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where test(color(x, y)) {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 + 1, y1 + 1)
    }
}

/// A minimal valid checkbox spec; `extra` is spliced into the top-level object.
public func checkboxSpec(_ extra: String = "", themes: String? = nil) -> String {
    """
    {
      "name": "t",
      "control": "checkbox",
      "sizes": { "md": { "size": 20, "cornerRadius": 4, "borderWidth": 1.5, "markSize": 12, "markWeight": 2 } },
      "states": ["unchecked", "checked"],
      \(extra)
      "themes": \(themes ?? ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF" } }"##)
    }
    """
}

/// A spec in `spec/` that reads design-system-checkbox's square md images back from the asset
/// catalog `catalog` (beside `spec/`) that `export --xcassets` wrote, default theme light and
/// inverse dark.
public func designSystemReadBack(catalog: String) -> String {
    """
    { "name": "design-system-checkbox", "control": "checkbox",
      "assets": "../\(catalog)",
      "sizes": { "md": { "size": 20 } },
      "images": { "on": "../\(catalog)/design-system-checkbox/square-md-checked.imageset",
                  "off": "../\(catalog)/design-system-checkbox/square-md-unchecked.imageset" },
      "states": ["unchecked", "checked"],
      "themes": { "default": { "surface": "#FFFFFF" }, "inverse": { "surface": "#1B2A3A" } } }
    """
}
