import Foundation
import Testing
import GlyphTestSupport

/// `render --format svg,pdf` and `export --vector` of SVG images librsvg draws partly as a bitmap.
@Suite("glyphaudit render and export: vector output of masks and filters")
struct CLIVectorOutputTests {
    static let blurred = """
    <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
    <filter id="f"><feGaussianBlur stdDeviation="1"/></filter>
    <rect id="blurred" x="4" y="4" width="8" height="8" filter="url(#f)"/>
    </svg>
    """

    static func folder() throws -> TempFolder {
        let f = TempFolder()
        let primer = TestPaths.fixture("designsystems/primer-checkbox/images")
        f.write("off.svg", try Data(contentsOf: primer.appendingPathComponent("on.svg")))  // Primer's tick: a mask
        f.write("on.svg", blurred)
        f.write("spec.json", """
        {
          "name": "vector",
          "control": "checkbox",
          "sizes": { "md": { "size": 16 } },
          "images": { "on": "on.svg", "off": "off.svg", "template": true },
          "states": ["unchecked", "checked"],
          "dynamicTypeSizes": ["large"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#0969DA" } }
        }
        """)
        return f
    }

    @Test("a filter is drawn at 16 px per point, with one warning naming the image and the element; Primer's mask gets none")
    func warnsOnce() throws {
        let f = try Self.folder()
        let warning = "glyphaudit: warning: \(f.url.path)/on.svg: <rect id=\"blurred\"> (line 3, filter=\"url(#f)\") is drawn as a "
            + "bitmap in SVG and PDF output (librsvg has no vector form for it), at 16 px per point (4× the largest display scale)\n"
        let render = try CLI.run(["render", "--spec", "spec.json", "--format", "png,svg,pdf", "--out", "out", "--quiet"], in: f.url)
        #expect(render.status == 0)
        #expect(render.stderr == warning, "\(render.stderr)")
        let pdf = try Data(contentsOf: f.url.appendingPathComponent("out/vector/square-md/L/default/checked@3x.pdf"))
        // The image fills the 16 pt box: 256 px wide, 4 × @4x; Primer's tick (unchecked here) has no image.
        #expect(String(decoding: pdf, as: UTF8.self).contains("/Width 256"))
        let unchecked = try Data(contentsOf: f.url.appendingPathComponent("out/vector/square-md/L/default/unchecked@3x.pdf"))
        #expect(!String(decoding: unchecked, as: UTF8.self).contains("/Subtype /Image"))
        for vector in ["--vector", "--vector=svg"] {
            let export = try CLI.run(["export", "--spec", "spec.json", "--xcassets", "A\(vector.count).xcassets", vector], in: f.url)
            #expect(export.status == 0)
            #expect(export.stderr.hasPrefix(warning) && export.stderr.components(separatedBy: "warning:").count == 2, "\(export.stderr)")
        }
        // PNG only: nothing drawn onto a vector surface, nothing to say.
        let png = try CLI.run(["render", "--spec", "spec.json", "--out", "png", "--quiet"], in: f.url)
        #expect(png.status == 0 && png.stderr.isEmpty, "\(png.stderr)")
    }
}
