import Foundation
import GlyphAudit
import GlyphCore
import GlyphExport
import GlyphReport

// Every option is declared once, as a `static let` of the group or command it belongs to (in the
// manner of swift-argument-parser's option groups), and read through that declaration
// (`args.value(ReportOptions.report)`): a misspelt name does not compile, and reading an option the
// command does not declare stops the tool (`Arguments.checked`). A command's table (`Command.options`)
// lists the declarations it takes; --help, the usage errors and `completions` are made from it. An
// option some commands word differently in --help keeps its one declaration (name, value, range,
// choices) and changes only its help text (`withHelp`).

/// --preset, --spec, --only: which variants a command works on (`Selection` reads them).
enum SelectionOptions {
    static let preset = Option(name: "preset", value: "NAME", help: "A built-in preset (see `glyphaudit presets`).", repeatable: true,
                               choices: Presets.names, list: true)
    static let spec = Option(name: "spec", value: "FILE", help: "A spec file (JSON; see docs/spec-format.md).", repeatable: true)
    static let only = Option(name: "only", value: "KEY=VALUE",
                             help: "Keep variants where KEY (preset, control, shape, size, dynamic-type, theme, state, scale, focus, setting) is VALUE (focus: focused or unfocused; setting: a display setting or none).",
                             repeatable: true)
    static let options = [preset, spec, only]
}

/// --jobs N.
enum JobsOptions {
    static let jobs = Option(name: "jobs", value: "N", help: "Render on N threads (default: all cores).", intRange: 1...256)
}

/// --quiet, --verbose and --json. What they leave out or add is each command's own, so a command
/// words their help itself (`withHelp`); --verbose and --json have no wording of their own (the
/// option-table test refuses an option without help).
enum OutputOptions {
    static let quiet = Option.flag("quiet", "Print nothing but errors.")
    static let verbose = Option.flag("verbose", "")
    static let json = Option.flag("json", "")
}

/// The audit's configuration and fail level: --config, --baseline, --fail-on.
enum AuditOptions {
    /// `--config FILE`, for every command that reads the configuration (through `AuditCommand.config(_:)`).
    static let config = Option(
        name: "config", value: "FILE",
        help: "Configuration (default: the nearest .glyphaudit.json from the working folder up to the repository root).")
    static let baseline = Option(name: "baseline", value: "FILE", help: "Accepted findings to add to the configuration's.")
    /// The fail levels `--fail-on` takes; the first is the default.
    static let failLevels = ["error", "warning", "never"]
    static let failOn = Option(name: "fail-on", value: "LEVEL", help: "error (default), warning or never.", choices: failLevels)
    /// The audit options `audit` and `run` share: configuration, accepted findings, fail level.
    static let options = [config, baseline, failOn]
}

/// Where reports go and in which formats (`run`, `merge-reports`). One name per idea: every output
/// folder is `--out`, every format list `--format`; the names these had before (`--report`,
/// `--formats`) are still taken as aliases (`Option.aliases`), so older invocations keep working.
enum ReportOptions {
    static let report = Option(name: "out", value: "DIR", help: "Where the reports go (default: glyphaudit-out).").aliased("report")
    static let formats = Option(name: "format", value: "LIST", help: "Comma-separated: html, json, junit, sarif, markdown (default: all).",
                                choices: ReportFormat.allCases.map(\.rawValue), list: true).aliased("formats")
}

/// The snapshot check's options (`check`, `run`).
enum SnapshotOptionGroup {
    static let snapshots = Option(name: "snapshots", value: "DIR", help: "Baseline folder (default: snapshots).")
    static let record = Option.flag("record", "Write missing baselines (and renderer.json).")
    static let update = Option.flag("update", "Rewrite baselines that changed (and renderer.json).")
    /// The comparison counts mismatched pixels in an `Int`.
    static let maxDiffPixels = Option(name: "max-diff-pixels", value: "N", help: "Pixels that may differ before a snapshot fails (default 0).",
                                      intRange: 0...Int.max)
    static let maxDiffRatio = Option(name: "max-diff-ratio", value: "R", help: "Share of pixels (0…1) that may differ before a snapshot fails.",
                                     numberRange: 0...1)
    /// `--ci`, shared with `run`.
    static let ci = Option.flag("ci", "Treat a missing baseline as CI does: fail, and write its render into the output folder "
                                + "(also when the environment has CI set, other than \"false\" or \"0\").")
}

/// pixelmatch's options (`check`, `run`, `diff`).
enum PixelmatchOptionGroup {
    static let includeAA = Option.flag("include-aa", "Count anti-aliased pixels as different (by default they are detected and ignored, "
                                       + "unless renderer.json is this renderer's: then they always count).")
    static let alpha = Option(name: "alpha", value: "A", help: "Opacity of the baseline in the diff pictures, 0-1 (default 0.1).",
                              numberRange: 0...1)
    static let threshold = Option(name: "threshold", value: "T",
                                  help: "pixelmatch colour threshold, 0-1 (default 0 when renderer.json is this renderer's, else 0.1; smaller is stricter).",
                                  numberRange: 0...1)
    /// The comparison options `check` and `run` share.
    static let comparison = [includeAA, alpha]
}
