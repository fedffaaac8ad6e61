import Foundation
import GlyphCore
import GlyphRender
import GlyphSnapshot

extension SnapshotChecker {
    /// Renders every item of the plan on `jobs` threads, checks each against its baseline, then
    /// looks for stale baselines.
    public func run(_ plan: Plan, jobs: Int) -> SnapshotReport {
        run(plan, jobs: jobs) { item in Renderer.raster(item.scene) }
    }
}

extension SnapshotChecker {
    /// `run(_:jobs:)` under `--incremental`: variants whose inputs equal their baselines' manifest
    /// entries are not drawn.
    public func runIncremental(_ plan: Plan, jobs: Int) -> SnapshotReport {
        runIncremental(plan, jobs: jobs) { item in Renderer.raster(item.scene) }
    }
}
