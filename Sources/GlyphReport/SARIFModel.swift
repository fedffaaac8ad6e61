import Foundation

// The SARIF 2.1.0 log `results.sarif` is, as Codable values: only the objects and properties
// glyphaudit writes (`RunReport.sarifData` fills them in). An optional left nil is not written.
// Written by `JSONOutput` with `.natural` key order, the order the log has always had.

struct SARIFLog: Codable, Equatable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [SARIFRun]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }
}

struct SARIFRun: Codable, Equatable {
    var tool: SARIFTool
    /// The URI base ids, each with a description and no `uri` (see `RunReport.sarifRoot`).
    var originalUriBaseIds: [String: SARIFBase]
    var results: [SARIFResult]
    /// Only when there is something to note (findings of built-in presets left out).
    var invocations: [SARIFInvocation]?
}

struct SARIFTool: Codable, Equatable {
    var driver: SARIFDriver
}

struct SARIFDriver: Codable, Equatable {
    var name: String
    var version: String
    var rules: [SARIFRule]
}

struct SARIFBase: Codable, Equatable {
    var description: SARIFMessage
}

/// A `message` or `multiformatMessageString`: plain text, and Markdown where the rule's help has it.
struct SARIFMessage: Codable, Equatable {
    var text: String
    var markdown: String?
}

struct SARIFRule: Codable, Equatable {
    var id: String
    var name: String
    var shortDescription: SARIFMessage
    var fullDescription: SARIFMessage
    var help: SARIFMessage
    var defaultConfiguration: SARIFConfiguration
    var properties: Properties

    struct Properties: Codable, Equatable {
        var tags: [String]
        var wcag: String?
    }
}

struct SARIFConfiguration: Codable, Equatable {
    var level: String
}

struct SARIFResult: Codable, Equatable {
    var ruleId: String
    var ruleIndex: Int?
    var level: String
    var message: SARIFMessage
    var properties: Properties
    var partialFingerprints: [String: String]
    var locations: [SARIFLocation]
    /// A colour that came through token aliases: the spec key that names the token, and each
    /// further token of the chain with its line.
    var relatedLocations: [SARIFLocation]?
    var suppressions: [SARIFSuppression]?
    var fixes: [SARIFFix]?

    struct Properties: Codable, Equatable {
        var variant: String
        var subject: String
        /// The appearance the variant's theme declares (`dark`, …); absent when it declares none.
        var appearance: String? = nil
        /// The display setting the variant is drawn under (`boldText`); absent for the default rendering.
        var setting: String? = nil
        /// `true` for a focused variant; absent otherwise.
        var focused: Bool? = nil
    }
}

struct SARIFLocation: Codable, Equatable {
    /// Set on a related location (SARIF 2.1.0 §3.28.2), with its `message`.
    var id: Int?
    var physicalLocation: SARIFPhysicalLocation
    var logicalLocations: [SARIFLogicalLocation]?
    var message: SARIFMessage?
}

struct SARIFPhysicalLocation: Codable, Equatable {
    var artifactLocation: SARIFArtifactLocation
    var region: SARIFRegion?
}

struct SARIFArtifactLocation: Codable, Equatable {
    var uri: String
    var uriBaseId: String?
}

struct SARIFRegion: Codable, Equatable {
    var startLine: Int
    var startColumn: Int?
    var endColumn: Int?
}

struct SARIFLogicalLocation: Codable, Equatable {
    var name: String
    var fullyQualifiedName: String
    var kind: String
}

struct SARIFSuppression: Codable, Equatable {
    var kind: String
    var justification: String
}

struct SARIFFix: Codable, Equatable {
    var description: SARIFMessage
    var artifactChanges: [SARIFArtifactChange]
}

struct SARIFArtifactChange: Codable, Equatable {
    var artifactLocation: SARIFArtifactLocation
    var replacements: [SARIFReplacement]
}

struct SARIFReplacement: Codable, Equatable {
    var deletedRegion: SARIFRegion
    var insertedContent: SARIFMessage
}

struct SARIFInvocation: Codable, Equatable {
    var executionSuccessful: Bool
    var toolExecutionNotifications: [SARIFNotification]
}

struct SARIFNotification: Codable, Equatable {
    var descriptor: SARIFDescriptor
    var level: String
    var message: SARIFMessage
    var properties: Properties

    struct Properties: Codable, Equatable {
        var findings: Int
        var presets: [String]
    }
}

struct SARIFDescriptor: Codable, Equatable {
    var id: String
}
