import Foundation

/// The CI reports checked against the schemas in `Tests/Fixtures/reference/schemas` by real validators,
/// the ones its README names: `xmllint --schema` (Debian's libxml2-utils, which `scripts/setup
/// --browser` installs) for junit.xml against the Jenkins JUnit XSD, and Python's `jsonschema`
/// (draft 4) for results.sarif against the OASIS SARIF 2.1.0 schema.
public enum SchemaValidation {
    /// `Tests/Fixtures/reference/schemas`.
    public static let schemas = TestPaths.reference.appendingPathComponent("schemas")
    public static let junitXSD = schemas.appendingPathComponent("jenkins-junit-10.xsd")
    /// The Jenkins schema plus `file` on `testcase` (GitLab's), which junit.xml is checked against.
    public static let junitGitLabXSD = schemas.appendingPathComponent("jenkins-junit-10-gitlab.xsd")
    public static let sarifSchema = schemas.appendingPathComponent("sarif-schema-2.1.0.json")

    /// The first executable `name` on PATH.
    public static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static let xmllint: String? = tool("xmllint")

    /// python3, when it can import jsonschema.
    public static let jsonschemaPython: String? = {
        guard let python = tool("python3"), let r = try? run(python, ["-c", "import jsonschema"]), r.status == 0 else { return nil }
        return python
    }()

    /// Why the JUnit check cannot run here (no validator), or nil when it can. The schema itself is
    /// committed (Tests/Fixtures/reference/schemas): a missing schema fails the check, it is not skipped.
    public static var junitUnavailable: String? {
        return xmllint == nil ? "xmllint is not installed (Debian libxml2-utils; scripts/setup --browser installs it)" : nil
    }

    /// Why the SARIF check cannot run here (no validator), or nil when it can; a missing schema fails.
    public static var sarifUnavailable: String? {
        return jsonschemaPython == nil ? "python3 with the jsonschema module is not installed" : nil
    }

    public struct Outcome: Sendable {
        public var valid: Bool
        /// What the validator said (its errors, one a line).
        public var output: String
    }

    /// Validates a JUnit document with `xmllint --noout --schema`.
    public static func validateJUnit(_ xml: String, schema: URL = junitGitLabXSD) throws -> Outcome {
        guard let xmllint else { throw ValidationUnavailable(reason: junitUnavailable ?? "xmllint") }
        let file = try temporary("junit.xml", Data(xml.utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let r = try run(xmllint, ["--noout", "--nonet", "--schema", schema.path, file.path])
        return Outcome(valid: r.status == 0, output: r.output)
    }

    /// Validates a SARIF log with `jsonschema.Draft4Validator`, printing every error with its path.
    public static func validateSARIF(_ data: Data) throws -> Outcome {
        guard let python = jsonschemaPython else { throw ValidationUnavailable(reason: sarifUnavailable ?? "jsonschema") }
        let file = try temporary("results.sarif", data)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        log = json.load(open(sys.argv[2]))
        errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(map(str, e.path)))
        for e in errors:
            print("/".join(map(str, e.path)) + ": " + e.message[:300])
        sys.exit(1 if errors else 0)
        """
        let r = try run(python, ["-c", script, sarifSchema.path, file.path])
        return Outcome(valid: r.status == 0, output: r.output)
    }

    /// Validates a JSON document against a JSON schema with the validator its `$schema` names
    /// (`jsonschema.validators.validator_for`: draft 2020-12 for docs/spec.schema.json).
    public static func validateJSON(_ data: Data, schema: URL) throws -> Outcome {
        guard let python = jsonschemaPython else { throw ValidationUnavailable(reason: "python3 with the jsonschema module is not installed") }
        let file = try temporary("document.json", data)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        document = json.load(open(sys.argv[2]))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        errors = sorted(cls(schema).iter_errors(document), key=lambda e: list(map(str, e.path)))
        for e in errors:
            print("/".join(map(str, e.path)) + ": " + e.message[:300])
        sys.exit(1 if errors else 0)
        """
        let r = try run(python, ["-c", script, schema.path, file.path])
        return Outcome(valid: r.status == 0, output: r.output)
    }

    public struct ValidationUnavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    private static func temporary(_ name: String, _ data: Data) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
