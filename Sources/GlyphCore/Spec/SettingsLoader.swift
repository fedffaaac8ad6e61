import Foundation

/// Reads a spec's `settings` (docs/spec-format.md, "Display settings"): an array of setting names,
/// or an object of setting name → partial spec (a JSON merge patch, RFC 7386). Each setting's spec
/// is the spec's own JSON (without `settings`) with its patch merged in, read again by the loader
/// like the spec itself, so an error in a patch names the file, its line and the key.
enum SettingsLoader {
    /// The settings named, each with its patch (an empty object when the array form names it).
    static func parse(_ node: JSONNode, reader r: inout SpecReader, control: ControlKind,
                      imageBased: Bool) throws(InputError) -> [(DisplaySetting, JSONNode)] {
        var named: [(String, JSONNode, JSONNode)] = []  // name, where it was written, patch
        switch node.value {
        case let .array(items):
            for (i, item) in items.enumerated() {
                let name = try r.string(item, "settings[\(i)]")
                named.append((name, item, JSONNode(value: .object([]), line: item.line, column: item.column)))
            }
        case .object:
            for (name, patch) in try r.map(node, "settings") {
                guard case .object = patch.value else {
                    throw r.error("settings.\(name)", patch, "a setting's value is a partial spec (an object merged over this spec, "
                                  + "RFC 7386), found \(patch.typeName); use {} for none")
                }
                for key in ["name", "control", "settings"] where patch[key] != nil {
                    throw r.error("settings.\(name).\(key)", patch[key], "a setting's patch cannot change \"\(key)\"")
                }
                named.append((name, patch, patch))
            }
        default:
            throw r.error("settings", node, "expected an array of setting names or an object of setting name → partial spec, "
                          + "found \(node.typeName)")
        }
        if named.isEmpty { throw r.error("settings", node, "the setting list is empty") }
        let allowed = DisplaySetting.allowed(control: control, imageBased: imageBased)
        var out: [(DisplaySetting, JSONNode)] = []
        for (index, (name, at, patch)) in named.enumerated() {
            let key = node.value.isArray ? "settings[\(index)]" : "settings.\(name)"
            guard let setting = DisplaySetting(rawValue: name) else {
                throw r.error(key, at, SpecReader.unknown("display setting", name, valid: DisplaySetting.allCases.map(\.rawValue)))
            }
            guard allowed.contains(setting) else {
                throw r.error(key, at, "\(setting.title) (\"\(name)\") is drawn on a drawn switch's track; a "
                              + (control == .checkbox ? "checkbox" : "image switch") + " can have: "
                              + allowed.map(\.rawValue).joined(separator: ", "))
            }
            if out.contains(where: { $0.0 == setting }) { throw r.error(key, at, "\"\(name)\" is listed twice") }
            out.append((setting, patch))
        }
        return out
    }

    /// The JSON of a setting's spec: `root` without `settings`, the patch merged in, and what the
    /// setting itself turns on (`onOffLabels: true` for On/Off Labels).
    static func derivedRoot(_ root: JSONNode, setting: DisplaySetting, patch: JSONNode) -> JSONNode {
        var base = root
        if case let .object(members) = root.value { base.value = .object(members.filter { $0.key != "settings" }) }
        var out = base.merged(with: patch)
        if setting == .onOffLabels, out["onOffLabels"] == nil, case var .object(members) = out.value {
            members.append((key: "onOffLabels", value: JSONNode(value: .bool(true), line: patch.line, column: patch.column)))
            out.value = .object(members)
        }
        return out
    }

    /// An error in a setting's spec, said as one: `… (in the spec for setting "boldText", settings.boldText)`.
    static func located(_ e: InputError, setting: DisplaySetting, arrayForm: Bool) -> InputError {
        var e = e
        e.message += " (in the spec for display setting \"\(setting.rawValue)\": the spec with "
            + (arrayForm ? "the setting applied" : "settings.\(setting.rawValue) merged in") + ")"
        return e
    }
}

extension JSONValue {
    var isArray: Bool { if case .array = self { true } else { false } }
}
