import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphSnapshot

// Rules as the report model lists them (findings are written as they are: `Finding` is Codable).

extension RuleRecord {
    /// A rule as the report lists it, with the severity the configuration gives it.
    public init(_ rule: any AuditRule, config: AuditConfig = AuditConfig()) {
        self.init(id: rule.id, title: rule.title, criterion: rule.criterion,
                  severity: config.rules[rule.id]?.severity ?? ConfiguredSeverity(rawValue: rule.defaultSeverity.rawValue)!,
                  summary: rule.checks, fix: rule.fix)
    }
}
