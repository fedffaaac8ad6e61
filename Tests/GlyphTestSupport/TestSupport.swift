import Foundation
import Testing

/// A fresh temporary folder, removed when the value is released.
public final class TempFolder {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    public func write(_ name: String, _ data: Data) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! data.write(to: file)
        return file
    }

    @discardableResult
    public func write(_ name: String, _ text: String) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: file)
        return file
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

/// `Tests/Fixtures/bad-input/<folder starting with prefix>`, copied into a writable temp folder
/// (the checkout's copy stays untouched).
public func badInputFixture(_ prefix: String) throws -> TempFolder {
    let root = TestPaths.fixture("bad-input")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    let name = try #require(names.first { $0.hasPrefix(prefix) }, "no \(prefix)-* in \(root.path)")
    let source = root.appendingPathComponent(name)
    let copy = TempFolder()
    let files = try #require(FileManager.default.enumerator(atPath: source.path))
    for case let relative as String in files {
        var isFolder: ObjCBool = false
        let from = source.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: from.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
        copy.write(relative, try Data(contentsOf: from))
    }
    return copy
}
