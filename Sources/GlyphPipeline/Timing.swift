import Foundation
import GlyphAudit
import GlyphCore
import GlyphReport

/// Collects a pipeline run's times (`PipelineOptions.timed`) into `PresetTiming`s: per preset its
/// whole work; per component and display setting its rendering and comparing; per rule its passes,
/// the pass across a preset's components shared evenly among the components of that slice.
struct PipelineTimer {
    private var presets: [PresetTiming] = []

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Adds `ns` to a preset's time.
    mutating func preset(_ name: String, _ ns: UInt64) {
        index(name).map { presets[$0].seconds += PresetTiming.seconds(ns) }
    }

    /// Adds a component's rendering time and its rules' times (`rules`: rule id → nanoseconds).
    mutating func component(_ preset: String, _ component: String, setting: DisplaySetting?, render ns: UInt64,
                            rules: [String: UInt64], ruleOrder: [String]) {
        guard let p = index(preset) else { return }
        var c = ComponentTiming(component: component, setting: setting, seconds: PresetTiming.seconds(ns),
                                rules: ruleOrder.compactMap { id in rules[id].map { RuleTiming(rule: id, seconds: PresetTiming.seconds($0)) } })
        if let k = presets[p].components.firstIndex(where: { $0.component == component && $0.setting == setting }) {
            c = PresetTiming.merge([[PresetTiming(preset: preset, seconds: 0, components: [presets[p].components[k]])],
                                    [PresetTiming(preset: preset, seconds: 0, components: [c])]])[0].components[0]
            presets[p].components[k] = c
        } else {
            presets[p].components.append(c)
        }
    }

    private mutating func index(_ name: String) -> Int? {
        if let i = presets.firstIndex(where: { $0.preset == name }) { return i }
        presets.append(PresetTiming(preset: name, seconds: 0, components: []))
        return presets.count - 1
    }

    var timings: [PresetTiming] { presets }
}
