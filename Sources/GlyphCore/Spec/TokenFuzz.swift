import Foundation

extension TokenSet {
    /// The fuzzer's entry (glyphfuzz's `spec` target, for the token part of its input): the bytes
    /// read as a token file in each format (`$extends`, group and token `$ref`, Tokens Studio sets),
    /// then the first `limit` tokens, in path order, resolved as a colour and as a length (alias
    /// chains, JSON Pointers inside values, modifiers). Results and errors are dropped: only a crash,
    /// a hang or a memory blow-up is a finding.
    public static func fuzz(_ data: Data, limit: Int = 64) {
        guard let root = try? JSONReader.parse(data) else { return }
        for format in [Format.dtcg, .tokensStudio] {
            guard let set = try? TokenSet(file: "fuzz/tokens.json", root: root, format: format) else { continue }
            let origin = InputError(file: "fuzz/spec.json", keyPath: "themes.default.fill", message: "")
            for path in set.tokens.keys.sorted().prefix(limit) {
                _ = try? set.color(path, origin: origin)
                _ = try? set.length(path, origin: origin)
            }
        }
    }
}
