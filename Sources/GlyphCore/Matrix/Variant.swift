/// One cell of the variant matrix: a control at one size, Dynamic Type size, theme, state and display scale.
public struct Variant: Sendable, Hashable, Codable {
    public var preset: String
    public var control: ControlKind
    public var shape: GlyphShape
    public var size: String
    public var dynamicType: DynamicTypeSize
    public var theme: String
    public var state: ControlState
    public var scale: Int
    /// The display setting it is drawn under (`settings`); nil: the default rendering.
    public var setting: DisplaySetting?

    /// `square-md` for a checkbox, `switch-md` for a switch.
    public var component: String {
        control == .switch ? "switch-\(size)" : "\(shape.rawValue)-\(size)"
    }

    /// The theme segment of the id: the theme, with `+setting` for a display setting (`default+boldText`).
    public var themeSegment: String { setting.map { "\(theme)+\($0.rawValue)" } ?? theme }

    /// Stable, readable id, e.g. `design-system-checkbox/square-md/AX5/inverse/checked@3x`
    /// (`…/default+boldText/checked@2x` under a display setting).
    public var id: String { "\(preset)/\(component)/\(dynamicType.short)/\(themeSegment)/\(state.rawValue)@\(scale)x" }

    /// The id without the display scale: the same picture at every scale.
    public var pictureID: String { "\(preset)/\(component)/\(dynamicType.short)/\(themeSegment)/\(state.rawValue)" }

    /// Relative file path for a format, e.g. `design-system-checkbox/square-md/AX5/inverse/checked@3x.png`.
    public func fileName(_ ext: String) -> String { "\(id).\(ext)" }

    /// The value of a filter key (`preset`, `shape`, `size`, `dynamic-type`, `theme`, `state`, `scale`).
    public func value(for key: VariantFilter.Key) -> String {
        switch key {
        case .preset: preset
        case .control: control.rawValue
        case .shape: shape.rawValue
        case .size: size
        case .dynamicType: dynamicType.short
        case .theme: theme
        case .state: state.rawValue
        case .scale: String(scale)
        case .setting: setting?.rawValue ?? DisplaySetting.noneFilterValue
        }
    }

    public init(preset: String, control: ControlKind, shape: GlyphShape, size: String, dynamicType: DynamicTypeSize, theme: String, state: ControlState, scale: Int,
                setting: DisplaySetting? = nil) {
        self.preset = preset
        self.control = control
        self.shape = shape
        self.size = size
        self.dynamicType = dynamicType
        self.theme = theme
        self.state = state
        self.scale = scale
        self.setting = setting
    }
}

/// `--only key=value` filters: values of one key are alternatives, different keys must all match.
public struct VariantFilter: Sendable, Equatable {
    public enum Key: String, CaseIterable, Sendable {
        case preset, control, shape, size
        case dynamicType = "dynamic-type"
        case theme, state, scale, setting

        public init?(name: String) {
            switch name {
            case "dt", "dynamicType", "dynamic-type", "dynamic_type": self = .dynamicType
            case "spec": self = .preset
            default: self.init(rawValue: name)
            }
        }
    }

    public private(set) var allowed: [Key: Set<String>] = [:]

    public init() {}

    /// Parses `key=value[,value…]`; throws a message for an unknown key or a bad value.
    public mutating func add(_ text: String) throws(FilterError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw FilterError(message: "--only takes key=value, got \"\(text)\"")
        }
        guard let key = Key(name: parts[0]) else {
            throw FilterError(message: "unknown --only key \"\(parts[0])\"; valid keys: \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for raw in parts[1].split(separator: ",").map(String.init) {
            var value = raw
            if key == .dynamicType {
                guard let dt = DynamicTypeSize(name: raw) else {
                    throw FilterError(message: "unknown Dynamic Type size \"\(raw)\"; expected one of: "
                                      + DynamicTypeSize.allCases.map(\.short).joined(separator: " "))
                }
                value = dt.short
            }
            if key == .scale { value = raw.hasSuffix("x") ? String(raw.dropLast()) : raw }
            if key == .setting, raw != DisplaySetting.noneFilterValue, DisplaySetting(rawValue: raw) == nil {
                let valid = DisplaySetting.allCases.map(\.rawValue) + [DisplaySetting.noneFilterValue]
                throw FilterError(message: "unknown display setting \"\(raw)\"" + Suggest.didYouMean(raw, in: valid)
                                  + "; expected one of: " + valid.joined(separator: " "))
            }
            allowed[key, default: []].insert(value)
        }
    }

    public func matches(_ v: Variant) -> Bool {
        allowed.allSatisfy { key, values in values.contains(v.value(for: key)) }
    }

    public var isEmpty: Bool { allowed.isEmpty }
}

public struct FilterError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension Spec {
    /// Every variant of this spec, in a stable order: shape, size, Dynamic Type size, theme, state, scale;
    /// then those of each display setting (`settings`, in its order), each from its derived spec.
    public func variants() -> [Variant] {
        var out: [Variant] = []
        out.reserveCapacity(shapes.count * sizes.count * dynamicTypeSizes.count * themes.count * states.count * scales.count)
        for shape in shapes {
            for size in sizes {
                for dt in dynamicTypeSizes {
                    for theme in themes {
                        for state in states {
                            for scale in scales {
                                out.append(Variant(preset: name, control: control, shape: shape, size: size.name,
                                                   dynamicType: dt, theme: theme.name, state: state, scale: scale))
                            }
                        }
                    }
                }
            }
        }
        for setting in settings {
            let derived = spec(for: setting)
            for var v in derived.variants() where v.setting == nil {
                v.setting = setting
                out.append(v)
            }
        }
        return out
    }

    public func size(named name: String) -> SizeSpec? { sizes.first { $0.name == name } }
    public func theme(named name: String) -> ThemeSpec? { themes.first { $0.name == name } }
}
