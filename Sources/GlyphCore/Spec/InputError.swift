import Foundation

/// Bad input: names the file, the place in it and what is wrong. The tool exits with status 2.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var keyPath: String?
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, keyPath: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        if let keyPath, !keyPath.isEmpty { return "\(place): \(keyPath): \(message)" }
        return "\(place): \(message)"
    }
}
