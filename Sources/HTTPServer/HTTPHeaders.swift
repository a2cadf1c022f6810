/// Header fields in order, names compared without regard to case (RFC 9110, section 5.1): a
/// request's as received, a response's as they are sent. Written as a list of pairs
/// (`[("Content-Type", "image/png")]`) and joined with `+`.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByArrayLiteral {
    package typealias Field = (name: String, value: String)

    private var fields: [Field]

    package init(_ fields: [Field] = []) { self.fields = fields }
    package init(arrayLiteral fields: Field...) { self.fields = fields }

    /// The first field called `name` (case-insensitive).
    package subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Adds a field after the others (a name may be given more than once).
    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    package var count: Int { fields.count }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// `a`'s fields, then `b`'s.
    package static func + (a: Self, b: Self) -> Self { Self(a.fields + b.fields) }
}
