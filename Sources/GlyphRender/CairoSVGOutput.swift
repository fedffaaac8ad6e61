import Foundation

extension Renderer {
    /// cairo 1.16's SVG surface writes a clip's fill rule on the group it clips
    /// (`<g clip-path="url(#clip3)" clip-rule="evenodd">`), where SVG ignores it: `clip-rule` applies to
    /// the shapes inside the `<clipPath>`, which inherit from the clipPath's ancestors, not from the
    /// group that references it. An even-odd clip that cairo does not reduce to boxes (one with curves:
    /// a ring, a shape with a curved hole) therefore came out filled non-zero in SVG output, its hole
    /// gone, in librsvg and browsers alike. This puts the rule on the clipPath's path, as cairo meant it.
    /// A clip referenced with both rules is left alone; output with no even-odd clip is returned as is.
    static func clipRulesInside(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        var rules: [String: Set<String>] = [:]
        for m in text.matches(of: /<g clip-path="url\(#(clip[0-9]+)\)" clip-rule="(evenodd|nonzero)">/) {
            rules[String(m.output.1), default: []].insert(String(m.output.2))
        }
        let evenOdd = Set(rules.filter { $0.value == ["evenodd"] }.keys)
        guard !evenOdd.isEmpty else { return data }
        let fixed = text.replacing(#/<clipPath id="(clip[0-9]+)">\n  <path /#) { m in
            evenOdd.contains(String(m.output.1)) ? "<clipPath id=\"\(m.output.1)\">\n  <path clip-rule=\"evenodd\" " : String(m.output.0)
        }
        return Data(fixed.utf8)
    }
}
