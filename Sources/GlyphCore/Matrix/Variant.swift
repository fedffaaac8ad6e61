/// One cell of the variant matrix: a control at one size, Dynamic Type size, theme, state and display scale.
public struct Variant: Sendable, Hashable, Codable {
    public var preset: String { didSet { id = idText } }
    public var control: ControlKind { didSet { id = idText } }
    public var shape: GlyphShape { didSet { id = idText } }
    public var size: String { didSet { id = idText } }
    public var dynamicType: DynamicTypeSize { didSet { id = idText } }
    public var theme: String { didSet { id = idText } }
    public var state: ControlState { didSet { id = idText } }
    public var scale: Int { didSet { id = idText } }
    /// Drawn with its keyboard focus indicator (a spec with `focus`); the id says `checked+focused`.
    public var focused: Bool = false { didSet { id = idText } }

    /// The state as ids spell it: `checked`, or `checked+focused` for a focused variant.
    public var stateName: String { focused ? "\(state.rawValue)+focused" : state.rawValue }
    /// The display setting it is drawn under (`settings`); nil: the default rendering.
    public var setting: DisplaySetting? { didSet { id = idText } }

    /// `square-md` for a checkbox, `switch-md` for a switch.
    public var component: String {
        control == .switch ? "switch-\(size)" : "\(shape.rawValue)-\(size)"
    }

    /// The theme segment of the id: the theme, with `+setting` for a display setting (`default+boldText`).
    public var themeSegment: String { setting.map { "\(theme)+\($0.rawValue)" } ?? theme }

    /// Stable, readable id, e.g. `design-system-checkbox/square-md/AX5/inverse/checked@3x`
    /// (`…/default+boldText/checked@2x` under a display setting). Kept, built again when a field
    /// changes: a run reads every variant's id in many places.
    public private(set) var id: String = ""

    /// The id built from the fields.
    private var idText: String {
        // Appended into one buffer, not interpolated from the other computed names.
        var s = preset
        s.reserveCapacity(preset.utf8.count + size.utf8.count + theme.utf8.count + 48)
        s += "/"
        s += control == .switch ? "switch" : shape.rawValue
        s += "-"
        s += size
        s += "/"
        s += dynamicType.short
        s += "/"
        s += theme
        if let setting {
            s += "+"
            s += setting.rawValue
        }
        s += "/"
        s += state.rawValue
        if focused { s += "+focused" }
        s += "@"
        s += String(scale)
        s += "x"
        return s
    }

    /// The id without the display scale: the same picture at every scale.
    public var pictureID: String { "\(preset)/\(component)/\(dynamicType.short)/\(themeSegment)/\(stateName)" }

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
        case .focus: focused ? "focused" : "unfocused"
        case .setting: setting?.rawValue ?? DisplaySetting.noneFilterValue
        }
    }

    public init(preset: String, control: ControlKind, shape: GlyphShape, size: String, dynamicType: DynamicTypeSize, theme: String, state: ControlState, scale: Int,
                focused: Bool = false, setting: DisplaySetting? = nil) {
        self.preset = preset
        self.control = control
        self.shape = shape
        self.size = size
        self.dynamicType = dynamicType
        self.theme = theme
        self.state = state
        self.scale = scale
        self.focused = focused
        self.setting = setting
        id = idText
    }

    private enum CodingKeys: String, CodingKey {
        case preset, control, shape, size, dynamicType, theme, state, scale, focused, setting
    }

    // The id follows from the fields: equality and hashing on the fields alone.
    public static func == (a: Variant, b: Variant) -> Bool {
        a.preset == b.preset && a.control == b.control && a.shape == b.shape && a.size == b.size
            && a.dynamicType == b.dynamicType && a.theme == b.theme && a.state == b.state && a.scale == b.scale
            && a.focused == b.focused && a.setting == b.setting
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(preset)
        hasher.combine(control)
        hasher.combine(shape)
        hasher.combine(size)
        hasher.combine(dynamicType)
        hasher.combine(theme)
        hasher.combine(state)
        hasher.combine(scale)
        hasher.combine(focused)
        hasher.combine(setting)
    }

    /// `focused` is written only when true, and read as false when absent (report.json from before it);
    /// `setting` only when there is one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(preset: try c.decode(String.self, forKey: .preset), control: try c.decode(ControlKind.self, forKey: .control),
                  shape: try c.decode(GlyphShape.self, forKey: .shape), size: try c.decode(String.self, forKey: .size),
                  dynamicType: try c.decode(DynamicTypeSize.self, forKey: .dynamicType), theme: try c.decode(String.self, forKey: .theme),
                  state: try c.decode(ControlState.self, forKey: .state), scale: try c.decode(Int.self, forKey: .scale),
                  focused: try c.decodeIfPresent(Bool.self, forKey: .focused) ?? false,
                  setting: try c.decodeIfPresent(DisplaySetting.self, forKey: .setting))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(preset, forKey: .preset)
        try c.encode(control, forKey: .control)
        try c.encode(shape, forKey: .shape)
        try c.encode(size, forKey: .size)
        try c.encode(dynamicType, forKey: .dynamicType)
        try c.encode(theme, forKey: .theme)
        try c.encode(state, forKey: .state)
        try c.encode(scale, forKey: .scale)
        if focused { try c.encode(focused, forKey: .focused) }
        try c.encodeIfPresent(setting, forKey: .setting)
    }
}

/// `--only key=value` filters: values of one key are alternatives, different keys must all match.
public struct VariantFilter: Sendable, Equatable {
    public enum Key: String, CaseIterable, Sendable {
        case preset, control, shape, size
        case dynamicType = "dynamic-type"
        case theme, state, scale
        /// `focused` or `unfocused`.
        case focus
        case setting

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
            if key == .focus, raw != "focused", raw != "unfocused" {
                throw FilterError(message: SpecReader.unknown("--only focus value", raw, valid: ["focused", "unfocused"]))
            }
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
    /// Every variant of this spec, in a stable order: shape, size, Dynamic Type size, theme, state,
    /// unfocused then focused (a spec with `focus`), scale; then those of each display setting
    /// (`settings`, in its order), each from its derived spec.
    public func variants() -> [Variant] {
        var out: [Variant] = []
        out.reserveCapacity(shapes.count * sizes.count * dynamicTypeSizes.count * themes.count * states.count * scales.count
                            * (focus == nil ? 1 : 2))
        for shape in shapes {
            for size in sizes {
                for dt in dynamicTypeSizes {
                    for theme in themes {
                        for state in states {
                            for focused in focus == nil ? [false] : [false, true] {
                                for scale in scales {
                                    out.append(Variant(preset: name, control: control, shape: shape, size: size.name,
                                                       dynamicType: dt, theme: theme.name, state: state, scale: scale,
                                                       focused: focused))
                                }
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

    /// How many variants `variants()` gives, counted without making them.
    public var variantCount: Int {
        settings.reduce(variantCountWithoutSettings) { n, setting in n + spec(for: setting).variantCountWithoutSettings }
    }

    private var variantCountWithoutSettings: Int {
        shapes.count * sizes.count * dynamicTypeSizes.count * themes.count * states.count * scales.count * (focus == nil ? 1 : 2)
    }

    public func size(named name: String) -> SizeSpec? { sizes.first { $0.name == name } }
    public func theme(named name: String) -> ThemeSpec? { themes.first { $0.name == name } }
}
