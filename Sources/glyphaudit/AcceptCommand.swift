import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphReport
import GlyphSnapshot

/// `glyphaudit accept REPORT…`: writes the renders a CI run staged (`candidates/` of its report
/// folder) into the snapshot folder, with their renderer's `renderer.json`, without rendering
/// anything: the baselines a team accepts are the ones the CI renderer drew, and the machine that
/// accepts them may have another cairo, pango or fonts (or none).
enum AcceptCommand {
    static let command = Command(
        name: "accept",
        summary: "Accept the renders a run staged (REPORT/candidates/) as baselines, without rendering.",
        usage: "glyphaudit accept REPORT… [--only KEY=VALUE]… [--group ID]… [--snapshots DIR] [--force] [--quiet] [--verbose]",
        discussion: """
        Each REPORT is the --report folder of a `glyphaudit run` (or the --out folder of a `glyphaudit check`)
        made under CI or with --stage: its report.json lists every changed and new render, staged in
        REPORT/candidates/ in the snapshot folder's layout with the renderer.json of the renderer that drew
        them. accept copies the selected candidates into --snapshots and writes their renderer.json there,
        as one transaction under the folder's lock (.glyphaudit.lock, as check --update takes it): a kill at
        any point leaves every baseline old or new, never a mix of two runs' folders. Nothing is rendered,
        so the machine that accepts may have another cairo, pango, librsvg or fonts than the one that ran.
        Typical flow: CI fails, download its report artifact, `glyphaudit accept report/`, commit.
        Several REPORTs (the shards of one run, or merge-reports' folder) are accepted together.
        The snapshot folder's manifest.json is written in the same transaction: the manifest entry the run
        computed for each accepted candidate and for each match whose inputs changed (listed as `refreshed`),
        with its audit numbers, and the presets' keys: what `check --record --update` would write.
        --only KEY=VALUE keeps the candidates of the variants it matches (as elsewhere; shape and size are
        read from the variant's component); --group ID keeps those of a cause group the report records
        (report.json's snapshotGroups; repeat it for several: `--group g0123456789 --group gabcdef0123`
        keeps the candidates of either, as the HTML report's review box writes it). Both may be given: a
        candidate must match both.
        Refused, exit 2 and nothing written: a report whose inputs no longer match the checkout (a spec, token
        or image file whose SHA-256 differs from the one report.json recorded, or that is missing) unless
        --force; a report folder that is incomplete (no report.json, a candidate or candidates/renderer.json
        listed but absent); a name in report.json that leaves the folder (an absolute path, a "..", a
        symbolic link on the way) or that is not its variant's candidates/<variant id>.png; reports whose
        candidates were drawn by different renderers (their renderer.json differ); --group when the report
        records no groups, or names an unknown one.
        Exit status: 0 accepted (or nothing to accept); 2 refused, bad input or a write that failed (nothing
        is left written); 64 usage error.
        """,
        options: [
            SelectionOptions.only.withHelp("Accept only the candidates of variants where KEY (preset, control, shape, size, "
                                           + "dynamic-type, theme, state, scale) is VALUE."),
            group,
            SnapshotOptionGroup.snapshots.withHelp("The baselines to write into (default: snapshots)."),
            force,
            OutputOptions.quiet,
            OutputOptions.verbose.withHelp("List every baseline written (not at most 20 lines)."),
        ],
        run: run)

    static let stage = Option.flag("stage", "Stage every changed and new render in candidates/ of the report (--out for check) "
                                   + "for `glyphaudit accept`, as under CI.")
    static let group = Option(name: "group", value: "ID", help: "Accept only the candidates of this cause group (report.json's snapshotGroups).",
                              repeatable: true)
    static let force = Option.flag("force", "Accept even when an input file changed since the report was made.")

    /// The report.json of a `check` that staged candidates (under CI or with --stage), in `out`: the
    /// snapshot results with their candidates and the inputs the check read. Written only when some
    /// render was staged.
    static func writeCheckReport(_ checked: SnapshotReport, plan: Plan, filter: VariantFilter, inputs: [InputRecord],
                                 margins: [Finding] = [], snapshots: URL, out: URL, cwd: URL) throws {
        guard checked.candidates != nil || checked.manifestKeys != nil else { return }
        var report = RunReport(tool: "glyphaudit \(version)", failOn: "never", selected: plan.selected,
                               filter: RunReport.filterText(filter), presets: RunReport.presetRecords(plan, base: cwd),
                               variants: [], findings: margins,
                               snapshots: try SnapshotSection(checked, folder: snapshots, report: out, cwd: cwd), rules: [])
        report.inputs = inputs
        report.canonicalize()
        try report.write(to: out, formats: [ReportFormat.json])
    }

    /// Where the failing renders were staged and the command that accepts them; nil when none was.
    static func stagedMessage(_ checked: SnapshotReport, report folder: URL, args: Arguments) -> String? {
        guard let candidates = checked.candidates else { return nil }
        let n = checked.results.count { $0.candidate != nil }
        var command = ["glyphaudit", "accept", CheckCommand.displayPath(folder.path)]
        if let s = args.value(SnapshotOptionGroup.snapshots) { command += ["--snapshots", s] }
        return "\(counted(n, "render")) staged in \(CheckCommand.displayPath(candidates))/ (changed and new, with renderer.json): "
            + "after review, `\(command.map(CheckCommand.shellQuoted).joined(separator: " "))` writes them into "
            + "\(CheckCommand.displayPath(checked.snapshots))/ without rendering"
    }

    /// One candidate to write: its bytes and where they go in the snapshot folder.
    struct Candidate {
        var id: VariantID
        var relative: String
        var data: Data
        var report: String
        /// Its manifest entry as the run computed it; nil from a report that records none.
        var entry: SnapshotManifest.Entry?
    }

    static func run(_ args: Arguments) throws -> ExitStatus {
        let dirs = args.positionals
        guard !dirs.isEmpty else { throw UsageError(message: "name the report folders to accept (glyphaudit accept REPORT…)") }
        let filter = try Selection.filter(args)
        let groupIDs = args.all(group)
        let (snapshots, _) = try CheckCommand.snapshotFolder(args)
        let forced = args.flag(force)

        // Everything is read and checked before anything is written.
        var chosen: [String: Candidate] = [:]
        var renderer: (fingerprint: RendererFingerprint, data: Data, file: String)?
        // The manifest entries of matches whose inputs changed (their pixels did not), and the keys
        // and renderer the reports computed (`snapshots.manifest`).
        var refreshed: [String: (entry: SnapshotManifest.Entry, report: String)] = [:]
        var manifestRecord: (record: SnapshotSection.ManifestRecord, file: String)?
        var listed = 0
        var inputWarnings: [String] = []
        // The baselines the reports found stale (no variant of their specs draws them).
        var stale = Set<String>()
        for dir in dirs {
            let folder = URL(fileURLWithPath: dir)
            let reportFile = folder.appendingPathComponent(ReportFormat.json.fileName)
            let report = try RunReport.decode(try read(ReportFormat.json.fileName, in: dir, limit: Limits.reportFileBytes, what: "report",
                                                      missing: "missing: \(dir) is not a complete report folder (no report.json)"),
                                              file: reportFile)
            let file = reportFile.path
            let records = report.snapshots?.results ?? []
            let staged = records.enumerated().filter { $0.element.candidate != nil }
            let entries = records.enumerated().filter { $0.element.candidate == nil && $0.element.manifest != nil }
            stale.formUnion(records.filter { $0.status == .stale }.map(\.id.description))

            // The groups, when some are asked for: the report must record groups, and these.
            var members: Set<String>?
            if let groupID = groupIDs.first {
                guard let groups = report.snapshotGroups, !groups.isEmpty else {
                    throw InputError(file: file, keyPath: "snapshotGroups", message: "this report records no snapshot groups, so --group "
                                     + "\(groupID) selects nothing; select with --only KEY=VALUE, or accept every candidate")
                }
                var chosenMembers = Set<String>()
                for groupID in groupIDs {
                    guard let g = groups.first(where: { $0.id == groupID }) else {
                        let hint = Suggest.nearest(groupID, in: groups.map(\.id)).map { "did you mean \"\($0)\"? " } ?? ""
                        throw InputError(file: file, keyPath: "snapshotGroups", message: "no group \"\(clipped(groupID))\"; \(hint)"
                                         + "the report's groups: \(groups.prefix(10).map(\.id).joined(separator: ", "))"
                                         + (groups.count > 10 ? " and \(groups.count - 10) more" : ""))
                    }
                    chosenMembers.formUnion(g.variants.map(\.description))
                }
                members = chosenMembers
            }
            if staged.isEmpty && entries.isEmpty { continue }

            // The inputs the renders were drawn from must be the checkout's.
            var changed: [String] = []
            for input in report.inputs ?? [] {
                let data: Data
                do { data = try InputFile.read(input.path, limit: Int(Int32.max), what: "input file") } catch {
                    changed.append("\(input.path) \(error.missing ? "is missing" : "cannot be read (\(error.message))")")
                    continue
                }
                let digest = SHA256.hex(data)
                if digest != input.sha256 {
                    changed.append("\(input.path) changed (SHA-256 \(input.sha256.prefix(12))… in the report, \(digest.prefix(12))… here)")
                }
            }
            if report.inputs == nil {
                throw InputError(file: file, keyPath: "inputs", message: "missing: the report lists candidates but not the inputs they "
                                 + "were drawn from, so it cannot be checked against the checkout; rerun it with this glyphaudit")
            }
            if !changed.isEmpty {
                let text = changed.prefix(5).joined(separator: "; ") + (changed.count > 5 ? "; and \(changed.count - 5) more" : "")
                if !forced {
                    throw InputError(file: file, keyPath: "inputs", message: "the inputs no longer match the checkout: \(text); "
                                     + "nothing was written: run the check again (on CI) for candidates of these inputs, "
                                     + "or accept anyway with --force")
                }
                inputWarnings.append("\(file): inputs changed since the report was made (--force): \(text)")
            }

            // What the manifest records beyond the entries: one renderer for all the reports.
            if let m = report.snapshots?.manifest {
                if let first = manifestRecord, first.record.renderer != m.renderer {
                    throw InputError(file: file, keyPath: "snapshots.manifest.renderer", message: "another renderer than that of "
                                     + "\(first.file); accept one renderer's at a time")
                }
                let keys = (manifestRecord?.record.keys ?? [:]).merging(m.keys) { a, _ in a }
                manifestRecord = (SnapshotSection.ManifestRecord(keys: keys, renderer: m.renderer), manifestRecord?.file ?? file)
            }
            let controls = Dictionary(report.presets.map { ($0.name, $0.control) }, uniquingKeysWith: { a, _ in a })
            for (i, r) in entries {
                guard matches(filter, r.id, control: controls[r.id.preset]),
                      members.map({ $0.contains(r.id.description) }) ?? true else { continue }
                if let other = refreshed[r.id.description], other.entry != r.manifest {
                    throw InputError(file: file, keyPath: "snapshots.results[\(i)].manifest", message: "\(r.id) has another manifest "
                                     + "entry in \(other.report); accept one of them")
                }
                refreshed[r.id.description] = (r.manifest!, file)
            }
            if staged.isEmpty { continue }

            // The renderer that drew them: one for all the reports.
            let folderName = report.snapshots?.candidates ?? RunJob.candidatesFolder
            guard folderName == RunJob.candidatesFolder else {
                throw InputError(file: file, keyPath: "snapshots.candidates",
                                 message: "\"\(clipped(folderName))\" is not the report's candidates folder (\(RunJob.candidatesFolder))")
            }
            let fingerprintName = "\(RunJob.candidatesFolder)/\(RendererFingerprint.fileName)"
            let fingerprintData = try read(fingerprintName, in: dir, limit: 1 << 20, what: "renderer fingerprint",
                                           missing: "missing: the report lists candidates but their renderer.json is not there "
                                               + "(an incomplete report folder)")
            let fingerprintFile = folder.appendingPathComponent(fingerprintName).path
            let fingerprint: RendererFingerprint
            switch try RendererFingerprint.decode(fingerprintData, path: fingerprintFile) {
            case .found(let f): fingerprint = f
            case .missing: throw InputError(file: fingerprintFile, message: "missing")
            case .otherFormat(let n):
                throw InputError(file: fingerprintFile, keyPath: "format", message: "format \(n); this glyphaudit reads format "
                                 + "\(RendererFingerprint.format) (accept it with the glyphaudit that made the report)")
            }
            if let first = renderer, first.fingerprint != fingerprint {
                let changes = fingerprint.changes(from: first.fingerprint).map(\.description)
                throw InputError(file: fingerprintFile, message: "these candidates were drawn by another renderer than those of "
                                 + "\(first.file) (\(changes.prefix(4).joined(separator: "; "))); accept one renderer's at a time")
            }
            if renderer == nil { renderer = (fingerprint, fingerprintData, fingerprintFile) }

            // Every candidate the report lists: a plain name inside the folder, its variant's own, a whole PNG.
            for (i, r) in staged {
                let keyPath = "snapshots.results[\(i)].candidate"
                let name = r.candidate!
                if let problem = Beneath.problem(name) { throw InputError(file: file, keyPath: keyPath, message: problem) }
                let relative = "\(r.id).png"
                guard Beneath.problem(relative) == nil, name == "\(RunJob.candidatesFolder)/\(relative)" else {
                    throw InputError(file: file, keyPath: keyPath, message: "\"\(clipped(name))\" is not the candidate of \(clipped(r.id.description)) "
                                     + "(\(RunJob.candidatesFolder)/<variant id>.png)")
                }
                let data = try read(name, in: dir, limit: Limits.pngFileBytes, what: "candidate",
                                    missing: "\"\(clipped(name))\" is missing: an incomplete report folder", report: file, keyPath: keyPath)
                do { _ = try Raster(pngData: data) } catch {
                    throw InputError(file: folder.appendingPathComponent(name).path, message: "not a whole PNG (\(error)); a candidate is a PNG render")
                }
                listed += 1
                guard matches(filter, r.id, control: controls[r.id.preset]),
                      members.map({ $0.contains(r.id.description) }) ?? true else { continue }
                if let other = chosen[relative], other.data != data {
                    throw InputError(file: file, keyPath: keyPath, message: "\(r.id) is also a candidate in \(other.report), with other "
                                     + "pixels; accept one of them")
                }
                chosen[relative] = Candidate(id: r.id, relative: relative, data: data, report: file, entry: r.manifest)
            }
        }
        for w in inputWarnings { Console.warning(w) }

        guard !chosen.isEmpty || !refreshed.isEmpty else {
            Console.info(listed == 0 ? "nothing to accept: the reports stage no candidates (a run stages them under CI or with --stage)"
                                     : "nothing to accept: none of the \(counted(listed, "candidate")) matches the selection")
            return .clean
        }

        // One transaction under the folder's lock: every baseline and renderer.json keep their
        // temporary names until all are written, then are renamed into place.
        let order = chosen.keys.sorted()
        let (lock, failure) = try AtomicFile.transaction { () throws -> SnapshotLock in
            let lock = try SnapshotLock.acquire(snapshots, command: "accepting candidates with glyphaudit accept")
            for rel in order {
                if AtomicFile.transactionFailed { break }
                try? AtomicFile.write(chosen[rel]!.data, to: snapshots.appendingPathComponent(rel))
            }
            if !AtomicFile.transactionFailed, let renderer { try? renderer.fingerprint.write(in: snapshots) }
            if !AtomicFile.transactionFailed {
                try writeManifest(chosen: order.map { chosen[$0]! }, refreshed: refreshed.mapValues(\.entry), stale: stale,
                                  record: manifestRecord?.record, in: snapshots)
            }
            if AtomicFile.transactionFailed { lock.release(removeFile: lock.madeFolder) }
            return lock
        }
        if let failure {
            Console.writeFailure(failure, detail: "nothing was written: the \(counted(order.count, "candidate")) were never renamed into place "
                                 + "and the folders this run made were removed")
            return .badInput
        }
        // The lock is let go when the command's transaction has renamed the files into place.
        _ = lock
        let lines = order.map { "accepted   \(chosen[$0]!.id)" } + refreshed.keys.sorted().map { "refreshed  \($0)" }
        let shown = args.flag(OutputOptions.verbose) ? lines
            : capped(lines, limit: CheckCommand.listLimit, indent: "", note: "--verbose lists them all")
        try Console.stdout(Data(shown.map { $0 + "\n" }.joined().utf8))
        if !order.isEmpty {
            Console.info("accepted \(counted(order.count, "candidate")) of \(listed) into \(CheckCommand.displayPath(snapshots.path))/; "
                         + "\(CheckCommand.displayPath(snapshots.appendingPathComponent(RendererFingerprint.fileName).path)) is the "
                         + "candidates' renderer's")
        }
        if !refreshed.isEmpty {
            Console.info("\(refreshed.count) manifest \(refreshed.count == 1 ? "entry" : "entries") refreshed for variants whose inputs "
                         + "changed but whose pixels did not")
        }
        return .clean
    }

    /// The manifest written with the pixels (in the accept's transaction). With the reports' entries
    /// (`record`): each accepted candidate's entry and each refreshed match's, the keys of the reports'
    /// presets and their renderer — what `check --record --update` writes for the same inputs, with
    /// their audit numbers. From a report that records none (an older glyphaudit), the accepted
    /// variants' entries are taken out instead (it cannot say what drew them).
    ///
    /// A key that feeds a variant left as it was (not selected: its old baseline and entry stay) keeps
    /// its recorded value, so the next `check` still names that cause (`sizes.md.markWeight 2 → 3`)
    /// for the variants left (`SnapshotManifest.setKeys`, as `check --update --only` does); `stale`:
    /// the variants the reports found stale, which keep no key.
    static func writeManifest(chosen: [Candidate], refreshed: [String: SnapshotManifest.Entry], stale: Set<String> = [],
                              record: SnapshotSection.ManifestRecord?, in snapshots: URL) throws {
        let existing = try SnapshotManifest.read(in: snapshots)
        guard existing != nil || record != nil else { return }
        var next = existing ?? SnapshotManifest()
        for c in chosen { next.variants[c.id.description] = record == nil ? nil : c.entry }
        if let record {
            for (id, entry) in refreshed { next.variants[id] = entry }
            next.setKeys(record.keys, rewritten: Set(chosen.map(\.id.description)).union(refreshed.keys)) { !stale.contains($0) }
            next.renderers[SnapshotManifest.rendererID(record.renderer)] = record.renderer
            let used = Set(next.variants.values.map(\.renderer))
            next.renderers = next.renderers.filter { used.contains($0.key) }
        }
        if next != existing { try? next.write(in: snapshots) }
    }

    /// The bytes of `name` inside the report folder `dir`, read without following a link (`Beneath`).
    static func read(_ name: String, in dir: String, limit: Int, what: String, missing: String,
                     report: String? = nil, keyPath: String? = nil) throws(InputError) -> Data {
        do { return try Beneath.read(name, in: dir, limit: limit, what: what) } catch {
            let path = URL(fileURLWithPath: dir).appendingPathComponent(name).path
            if error.missing {
                if let report { throw InputError(file: report, keyPath: keyPath, message: missing) }
                throw InputError(file: path, message: missing)
            }
            throw InputError(file: path, message: "\(error.message) (a report's files are read only inside its folder, no link followed)")
        }
    }

    /// Whether `--only` keeps a variant known by its id (`control` from the report's preset record;
    /// shape and size are the component's parts, `square-md` or `switch-md`).
    static func matches(_ filter: VariantFilter, _ id: VariantID, control: String?) -> Bool {
        let dash = id.component.firstIndex(of: "-")
        let shape = dash.map { String(id.component[..<$0]) } ?? id.component
        let size = dash.map { String(id.component[id.component.index(after: $0)...]) } ?? ""
        return filter.allowed.allSatisfy { key, values in
            let value: String?
            switch key {
            case .preset: value = id.preset
            case .control: value = control
            case .shape: value = shape
            case .size: value = size
            case .dynamicType: value = id.dynamicType
            case .theme: value = id.theme.split(separator: "+", maxSplits: 1).first.map(String.init) ?? id.theme
            case .setting:
                let parts = id.theme.split(separator: "+", maxSplits: 1)
                value = parts.count == 2 ? String(parts[1]) : DisplaySetting.noneFilterValue
            case .state: value = id.state.hasSuffix("+focused") ? String(id.state.dropLast("+focused".count)) : id.state
            case .scale: value = id.scale
            case .focus: value = id.state.hasSuffix("+focused") ? "focused" : "unfocused"
            }
            return value.map(values.contains) ?? false
        }
    }
}
