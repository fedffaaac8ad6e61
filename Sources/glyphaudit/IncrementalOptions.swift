import Foundation

/// The options of `check` and `run` that read the snapshot manifest (docs/snapshots.md).
enum ManifestOptions {
    static let incremental = Option.flag(
        "incremental",
        "Do not redraw a variant whose inputs and renderer equal its baseline's manifest entry; its audit comes from "
            + "<snapshots>/.glyphaudit-cache/, as does the audit of a changed variant an earlier run audited (for local "
            + "loops; the default, and CI, compare everything).")
    static let marginTolerance = Option(
        name: "margin-tolerance", value: "SHARE",
        help: "Report a `margin` finding when an audit number kept in the manifest (state-change area, contrast ratio, "
            + "room inside a frame, target size) fell by more than this share of its recorded value (0-1; default: "
            + ".glyphaudit.json's rules.margin.tolerance, else 0.25).",
        numberRange: 0...1)
}
