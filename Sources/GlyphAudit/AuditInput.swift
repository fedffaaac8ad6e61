import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// What the audit needs drawn beyond the renders it is given (a glyph without its label, an image
/// alone) and how labels are measured. The rules never reach the renderer: the pipeline passes in
/// an implementation that draws with the render target (`CairoDrawing`, in GlyphPipeline).
public protocol AuditDrawing: Sendable {
    /// A variant drawn with only `parts`, at its display scale.
    func raster(_ item: PlannedVariant, parts: RenderParts) -> Raster
    /// An image alone, fitted into `width` × `height` px keeping its aspect ratio, on transparency.
    func raster(image: any VectorImage, width: Int, height: Int) -> Raster
    /// How labels are measured, to lay out a variant the selection left out.
    var text: any TextMeasuring { get }
}

/// The pixels of a variant's glyph alone: the glyph's box plus a 2 px margin, cut from the full
/// render, over the theme's surface and without the label. When the label's ink reaches into that
/// area (a glyph overflowing a fixed frame onto its label), the glyph is drawn again without the label.
public struct GlyphPixels: Sendable {
    /// The area in canvas pixels.
    public let x0: Int
    public let y0: Int
    public let width: Int
    public let height: Int
    public let scale: Int
    /// Packed RGBA, `r | g << 8 | b << 16 | a << 24`, rows top to bottom.
    public let pixels: [UInt32]
    /// True when the glyph had to be drawn again without its label.
    public let redrawn: Bool
    /// A hash of the size and pixels (FNV-1a), to find identical glyphs quickly.
    public let digest: UInt64

    /// The area in points.
    public var rect: Rect {
        let s = Double(scale)
        return Rect(x: Double(x0) / s, y: Double(y0) / s, width: Double(width) / s, height: Double(height) / s)
    }

    @inlinable
    public func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

    public static func unpack(_ p: UInt32) -> RGBA {
        RGBA(r8: UInt8(p & 0xFF), g8: UInt8((p >> 8) & 0xFF), b8: UInt8((p >> 16) & 0xFF), a8: UInt8(p >> 24))
    }

    /// Cuts the glyph's area from `raster`; redraws the glyph alone when the label reaches into it.
    public static func cut(_ item: PlannedVariant, from raster: Raster, drawing: any AuditDrawing) -> GlyphPixels {
        let layout = item.layout
        let s = Double(layout.variant.scale)
        let g = layout.glyph
        let x0 = max(0, Int((g.minX * s).rounded(.down)) - 2)
        let y0 = max(0, Int((g.minY * s).rounded(.down)) - 2)
        let x1 = min(raster.width, Int((g.maxX * s).rounded(.up)) + 2)
        let y1 = min(raster.height, Int((g.maxY * s).rounded(.up)) + 2)
        var source = raster
        var redrawn = false
        if let label = layout.label {
            let ink = label.ink
            let lx0 = Int((ink.minX * s).rounded(.down)) - 1, lx1 = Int((ink.maxX * s).rounded(.up)) + 1
            let ly0 = Int((ink.minY * s).rounded(.down)) - 1, ly1 = Int((ink.maxY * s).rounded(.up)) + 1
            if lx0 < x1 && lx1 > x0 && ly0 < y1 && ly1 > y0 {
                source = drawing.raster(item, parts: [.background, .glyph])
                redrawn = true
            }
        }
        let w = max(0, x1 - x0), h = max(0, y1 - y0)
        // Copy row by row and hash as we go: FNV-1a over 64-bit words in two interleaved lanes (a
        // shorter dependency chain), folded together at the end.
        var a: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(w), b: UInt64 = 0x8422_2325_CBF2_9CE4 ^ UInt64(h)
        let prime: UInt64 = 0x1000_0000_01B3
        let out = [UInt32](unsafeUninitializedCapacity: w * h) { dst, initialized in
            if w > 0 {
                for y in 0..<h {
                    let target = dst.baseAddress! + y * w
                    source.copyPacked(row: y0 + y, from: x0, count: w, to: target)
                    let raw = UnsafeRawPointer(target)
                    var x = 0
                    while x + 4 <= w {
                        a = (a ^ raw.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self)) &* prime
                        b = (b ^ raw.loadUnaligned(fromByteOffset: x * 4 + 8, as: UInt64.self)) &* prime
                        x += 4
                    }
                    while x < w {
                        a = (a ^ UInt64(target[x])) &* prime
                        x += 1
                    }
                }
            }
            initialized = w * h
        }
        let digest = (a ^ (b &* 0x9E37_79B9_7F4A_7C15)) &* prime
        return GlyphPixels(x0: x0, y0: y0, width: w, height: h, scale: layout.variant.scale, pixels: out, redrawn: redrawn,
                           digest: digest)
    }
}

extension Raster {
    /// Copies `count` pixels of row `y` from column `x` to `target` as packed RGBA
    /// (`r | g << 8 | b << 16 | a << 24`).
    func copyPacked(row y: Int, from x: Int, count: Int, to target: UnsafeMutablePointer<UInt32>) {
        guard count > 0 else { return }
        pixels.withUnsafeBytes { src in
            // Bytes r, g, b, a in memory are `r | g << 8 | b << 16 | a << 24` on a little-endian host.
            UnsafeMutableRawPointer(target).copyMemory(from: src.baseAddress! + (y * width + x) * 4, byteCount: count * 4)
        }
        #if _endian(big)
        for i in 0..<count { target[i] = target[i].byteSwapped }
        #endif
    }
}

/// Everything the rules see: the plan (specs, variants, layouts and scenes), the full renders and the glyph
/// pixels of every variant, with helpers to group variants and to find where a value was written.
public final class AuditInput: Sendable {
    /// The specs, in the order reports list them.
    public let specs: [Spec]
    /// The variants, laid out; `glyphs` (and the renders) are index-aligned with them.
    public let items: [PlannedVariant]
    /// The full renders, when the input was made from them; nil when it rendered and cut the
    /// variants itself (then `raster(_:)` draws one again on request).
    private let rasters: [Raster]?
    /// The glyph of every item (held compactly; `glyphs[i]` decodes one), or none for the pass
    /// across components.
    public let glyphs: GlyphStore
    /// For each item, the first item whose glyph pixels are identical (itself when none before it is).
    /// Many variants draw the same glyph (a glyph that does not scale looks the same at every Dynamic
    /// Type size); rules that measure only the glyph measure it once and reuse the result.
    public let sameGlyph: [Int]
    public let jobs: Int
    /// Draws what the rules need beyond the renders.
    public let drawing: any AuditDrawing
    private let indexByID: [String: Int]
    /// For an input without glyphs: the ink of image glyphs measured on their renders in their own
    /// group (`ClippingRule.glyphInks`), by variant id, for the rules that fold a component's themes.
    public let glyphInks: [String: [Double]]

    /// `rasters` are the full renders of `plan.items` (index-aligned), as `plan.renderAll(jobs:)` gives
    /// (for a pipeline that renders once for snapshots and audits).
    public convenience init(plan: Plan, rasters: [Raster], jobs: Int, drawing: any AuditDrawing) {
        self.init(specs: plan.specs, items: plan.items, rasters: rasters, jobs: jobs, drawing: drawing)
    }

    /// Renders every item and keeps only its glyph: the full renders are dropped as soon as the glyph
    /// is cut out (1908 built-in variants: 28 MB of glyphs instead of 330 MB of renders).
    public convenience init(plan: Plan, jobs: Int, drawing: any AuditDrawing) {
        let items = plan.items
        let glyphs = GlyphCore.parallelMap(items.count, jobs: jobs) { i in
            GlyphStore.Entry(GlyphPixels.cut(items[i], from: drawing.raster(items[i], parts: .all), drawing: drawing))
        }
        self.init(specs: plan.specs, items: items, rasters: nil, glyphs: glyphs, jobs: jobs, drawing: drawing)
    }

    public convenience init(specs: [Spec], items: [PlannedVariant], rasters: [Raster], jobs: Int, drawing: any AuditDrawing) {
        precondition(items.count == rasters.count, "one raster per planned variant")
        let glyphs = GlyphCore.parallelMap(items.count, jobs: jobs) { i in
            GlyphStore.Entry(GlyphPixels.cut(items[i], from: rasters[i], drawing: drawing))
        }
        self.init(specs: specs, items: items, rasters: rasters, glyphs: glyphs, jobs: jobs, drawing: drawing)
    }

    /// The items with their glyphs already cut (index-aligned); full renders are drawn again on request.
    /// The pipeline makes one per component, and one per preset with no glyphs for the pass across
    /// components (whose rules read layouts and colours only).
    public convenience init(specs: [Spec], items: [PlannedVariant], glyphs: [GlyphStore.Entry], jobs: Int,
                            drawing: any AuditDrawing) {
        precondition(glyphs.isEmpty || glyphs.count == items.count, "one glyph per planned variant, or none")
        self.init(specs: specs, items: items, rasters: nil, glyphs: glyphs, jobs: jobs, drawing: drawing)
    }

    /// The items of a component without glyphs, with the ink of its image glyphs measured per
    /// variant group (`ClippingRule.glyphInks`): the rules that fold the component's themes read
    /// layouts and these inks alone.
    public convenience init(specs: [Spec], items: [PlannedVariant], glyphInks: [String: [Double]], jobs: Int,
                            drawing: any AuditDrawing) {
        self.init(specs: specs, items: items, rasters: nil, glyphs: [], jobs: jobs, drawing: drawing, glyphInks: glyphInks)
    }

    private init(specs: [Spec], items: [PlannedVariant], rasters: [Raster]?, glyphs entries: [GlyphStore.Entry], jobs: Int,
                 drawing: any AuditDrawing, glyphInks: [String: [Double]] = [:]) {
        self.glyphInks = glyphInks
        let glyphs = GlyphStore(entries)
        self.drawing = drawing
        self.specs = specs
        // The rules read the scenes of rendered variants many times: resolve them once. The pass
        // across components (no glyphs) reads few, for a whole preset: those are resolved on access.
        self.items = entries.isEmpty && rasters == nil ? items : items.map { $0.resolved() }
        self.rasters = rasters
        self.jobs = jobs
        self.glyphs = glyphs
        var index: [String: Int] = [:]
        for (i, item) in items.enumerated() { index[item.variant.id] = i }
        indexByID = index
        // Candidates by digest, then confirmed pixel by pixel (in parallel) so a hash collision cannot merge two glyphs.
        var firstByDigest: [UInt64: Int] = [:]
        var candidate = Array(items.indices)
        if glyphs.isEmpty {
            sameGlyph = candidate
            return
        }
        for i in items.indices {
            let g = entries[i]
            if let j = firstByDigest[g.digest] { candidate[i] = j } else { firstByDigest[g.digest] = i }
        }
        let proposed = candidate
        let confirmed = GlyphCore.parallelMap(items.count, jobs: jobs) { i -> Bool in
            let j = proposed[i]
            guard j != i else { return true }
            return entries[j].samePixels(as: entries[i])
        }
        var same = Array(items.indices)
        for i in items.indices where confirmed[i] { same[i] = proposed[i] }
        sameGlyph = same
    }

    public func index(of variant: Variant) -> Int? { indexByID[variant.id] }

    /// The full render of item `i`: the one given, or drawn again.
    public func raster(_ i: Int) -> Raster {
        rasters?[i] ?? drawing.raster(items[i], parts: .all)
    }

    /// Indices of the items grouped by `key`, groups in order of first appearance, items in plan order.
    public func groups<K: Hashable>(by key: (Variant) -> K) -> [[Int]] {
        groups(of: Array(items.indices), by: key)
    }

    /// The indices of `items` (a group) split by `key`, groups in order of first appearance.
    public func groups<K: Hashable>(of indices: [Int], by key: (Variant) -> K) -> [[Int]] {
        var order: [K] = []
        var groups: [K: [Int]] = [:]
        for i in indices {
            let k = key(items[i].variant)
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(i)
        }
        return order.map { groups[$0]! }
    }

    /// The states of each variant: items that differ only in state, in the spec's state order.
    public func stateGroups() -> [[Int]] {
        groups { v in StateGroupKey(preset: v.preset, shape: v.shape, size: v.size, dt: v.dynamicType, theme: v.theme, scale: v.scale) }
    }

    private struct StateGroupKey: Hashable {
        let preset: String, shape: GlyphShape, size: String, dt: DynamicTypeSize, theme: String, scale: Int
    }

    public func parallelMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        GlyphCore.parallelMap(count, jobs: jobs, body)
    }

    // MARK: Source locations

    /// The spec file and line of `keyPath` (the closest parent key that has a line). A colour's
    /// location is its scene part's source (`FindingLocation(_: ColorSource)`).
    public func location(_ spec: Spec, _ keyPath: String) -> FindingLocation {
        FindingLocation(file: spec.sourceFile ?? spec.name, line: spec.line(of: keyPath), keyPath: keyPath)
    }
}

/// Distinct keys in the order first seen, each with its index: the rules measure each distinct
/// thing once (the same glyph on the same surface, say) however many variants share it.
struct Interner<Key: Hashable> {
    private(set) var keys: [Key] = []
    private var index: [Key: Int] = [:]

    /// The index of `key`, added when it is new.
    mutating func intern(_ key: Key) -> Int {
        if let k = index[key] { return k }
        index[key] = keys.count
        keys.append(key)
        return keys.count - 1
    }
}
