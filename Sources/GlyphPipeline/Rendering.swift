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
