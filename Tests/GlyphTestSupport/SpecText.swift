import Foundation

public enum SpecText {
    /// `appearance` and `themes` are JSON fragments.
    public static func checkbox(name: String = "t", states: [String] = ["unchecked", "checked"], appearance: String,
                         theme: String, size: String = ##"{ "size": 22, "cornerRadius": 4.5, "borderWidth": 1.7, "markSize": 12, "markWeight": 1.9 }"##,
                         scales: [Int] = [1, 2, 3], sizes: [String] = ["xS", "L", "AX5"], extra: String = "") -> String {
        """
        { "name": "\(name)", "control": "checkbox",
          "sizes": { "md": \(size) },
          "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
          "states": [\(states.map { "\"\($0)\"" }.joined(separator: ", "))],
          "appearance": \(appearance),
          "themes": { "default": \(theme) },
          "scales": [\(scales.map(String.init).joined(separator: ", "))],
          "dynamicTypeSizes": [\(sizes.map { "\"\($0)\"" }.joined(separator: ", "))]\(extra.isEmpty ? "" : ",\n  " + extra)
        }
        """
    }
}

/// `Tests/Fixtures/reference/<name>`.
public enum ReferenceData {
    public static func url(_ name: String) -> URL {
        TestPaths.reference.appendingPathComponent(name)
    }

    public struct ContrastVector: Decodable {
        public let fg: String
        public let bg: String
        public let wcag2_ratio: Double
        public let meets_3_0: Bool
        public let meets_4_5: Bool
    }

    public static func contrastVectors() throws -> [ContrastVector] {
        struct File: Decodable { let vectors: [ContrastVector] }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url("contrast-vectors.json"))).vectors
    }
}
