import Foundation

// Conversions from the audit's findings and rules to the report model (Report/RunReport.swift),
// so `run` and the report writers can take an `AuditResult` as it is.

extension FindingRecord {
    public init(_ f: Finding) {
        self.init(rule: f.rule, severity: f.severity.rawValue, criterion: f.criterion, variant: f.variant, subject: f.subject,
                  message: f.message, numbers: f.numbers, values: f.values,
                  location: f.location.map {
                      LocationRecord(file: $0.file, line: $0.line, keyPath: $0.keyPath, token: $0.token,
                                     tokenFile: $0.tokenFile, tokenLine: $0.tokenLine)
                  },
                  accepted: f.accepted, evidence: f.picturePath,
                  dynamicTypeSizes: f.dynamicTypeSizes?.map(\.short))
    }
}

extension RuleRecord {
    /// A rule as the report lists it, with the severity the configuration gives it.
    public init(_ rule: any AuditRule, config: AuditConfig = AuditConfig()) {
        self.init(id: rule.id, title: rule.title, criterion: rule.criterion,
                  severity: config.rules[rule.id]?.severity?.rawValue ?? rule.defaultSeverity.rawValue,
                  summary: rule.checks, fix: rule.fix)
    }
}

extension AuditResult {
    /// The findings as report records, in the audit's order.
    public var records: [FindingRecord] { findings.map(FindingRecord.init) }
}
