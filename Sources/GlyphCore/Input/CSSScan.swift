import Foundation

extension SVGReferenceCheck {
    /// Finds `url(…)` and `@import` in CSS (a style sheet, a style attribute or a presentation
    /// attribute) as a CSS tokenizer does: comments, strings and unquoted URLs are tokens of their own.
    /// Any escape (`\`) outside a comment is refused: `\75 rl(` is `url(`.
    enum CSSScan {
        /// With `refuseEscapes` false (text librsvg never parses as CSS), an escape is skipped instead.
        static func scan(_ c: ArraySlice<UInt8>, what: String, refuseEscapes: Bool = true,
                         into references: inout [Reference]) throws(Refusal) {
            let c = Array(c)
            let n = c.count
            var i = 0
            var importing = false
            func escape(_ at: Int) -> Refusal {
                Refusal(message: "has a CSS escape (\(Text.show(c[at..<min(n, at + 24)]))) in \(what); CSS escapes are not supported")
            }
            func isNewline(_ x: UInt8) -> Bool { x == Byte.lf || x == Byte.cr || x == 0x0C }
            func isWhite(_ x: UInt8) -> Bool { x == Byte.space || x == Byte.tab || isNewline(x) }
            func isNameStart(_ x: UInt8) -> Bool { Byte.isAlpha(x) || x == Byte.underscore || x >= 0x80 }
            func isName(_ x: UInt8) -> Bool { isNameStart(x) || Byte.isDigit(x) || x == Byte.dash }
            /// A string token from the quote at `at`: its text and where it ends.
            func string(_ at: Int) throws(Refusal) -> ([UInt8], Int) {
                let q = c[at]
                var j = at + 1
                while j < n, c[j] != q, !isNewline(c[j]) {
                    if c[j] == Byte.backslash {
                        if refuseEscapes { throw escape(j) }
                        j += 1
                    }
                    j += 1
                }
                j = min(j, n)
                let text = Array(c[(at + 1)..<j])
                return (text, j < n && c[j] == q ? j + 1 : j)
            }
            while i < n {
                let x = c[i]
                if x == Byte.slash, i + 1 < n, c[i + 1] == Byte.star {
                    i = Byte.find(c, "*/", from: i + 2).map { $0 + 2 } ?? n
                } else if x == Byte.backslash {
                    if refuseEscapes { throw escape(i) }
                    i += 2
                } else if x == Byte.quote || x == Byte.apos {
                    let (text, end) = try string(i)
                    if importing { references.append(Reference(value: text, kind: .styleSheet)) }
                    importing = false
                    i = end
                } else if x == Byte.at {
                    var j = i + 1
                    while j < n, isName(c[j]) { j += 1 }
                    if Byte.lowered(c[(i + 1)..<j]) == "import" { importing = true }
                    i = j
                } else if isNameStart(x) || x == Byte.dash {
                    var j = i + 1
                    while j < n, isName(c[j]) { j += 1 }
                    let isURL = j - i == 3 && Byte.lowered(c[i..<j]) == "url" && j < n && c[j] == Byte.lparen
                    i = j
                    guard isURL else { continue }
                    let kind: SVGReferenceCheck.Kind = importing ? .styleSheet : .resource
                    importing = false
                    j += 1
                    while j < n, isWhite(c[j]) { j += 1 }
                    if j < n, c[j] == Byte.quote || c[j] == Byte.apos {
                        let (text, end) = try string(j)
                        references.append(Reference(value: text, kind: kind))
                        i = end
                    } else {
                        // An unquoted URL runs to ")" (a bad one too).
                        let start = j
                        while j < n, c[j] != Byte.rparen {
                            if c[j] == Byte.backslash {
                                if refuseEscapes { throw escape(j) }
                                j += 1
                            }
                            j += 1
                        }
                        j = min(j, n)
                        var text = Array(c[start..<j])
                        while let last = text.last, isWhite(last) { text.removeLast() }
                        references.append(Reference(value: text, kind: kind))
                        i = min(n, j + 1)
                    }
                } else {
                    if x == Byte.semicolon || x == Byte.lbrace || x == Byte.rbrace { importing = false }
                    i += 1
                }
            }
        }
    }
}
