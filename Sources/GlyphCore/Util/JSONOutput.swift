import Foundation

/// The one JSON writer of every document glyphaudit writes or prints (report.json, renderer.json,
/// `audit --json`, `check --json`, `diff --json`, a `--write-baseline` file): a `Codable` model
/// encoded with two-space indent (`"key" : value`), sorted keys, `/` not escaped, and a final
/// newline, so equal values are equal bytes.
///
/// Two key orders are in use, each kept as its documents have always been written:
/// - `.bytes` (report.json, renderer.json, `check --json`, `diff --json`): keys sorted by their
///   UTF-8 bytes (`B` before `a`, `a10` before `a2`), as `JSONEncoder` sorts them.
/// - `.natural` (`audit --json`, baseline files): keys sorted as `JSONSerialization` sorts them,
///   numbers within a key by value and letters regardless of case (`a`, `a2`, `a10`, `B`). The model
///   is encoded, then written again by `JSONSerialization`; numbers keep their text, except that a
///   negative zero is written `0`.
public enum JSONOutput {
    public enum KeyOrder: Sendable {
        case bytes
        case natural
    }

    public static func data<T: Encodable>(_ value: T, keyOrder: KeyOrder = .bytes) throws -> Data {
        let encoder = JSONEncoder()
        var data: Data
        switch keyOrder {
        case .bytes:
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(value)
        case .natural:
            encoder.outputFormatting = [.withoutEscapingSlashes]
            let object = try JSONSerialization.jsonObject(with: try encoder.encode(value), options: [.fragmentsAllowed])
            data = try JSONSerialization.data(withJSONObject: object,
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        }
        data.append(0x0A)
        return data
    }
}
