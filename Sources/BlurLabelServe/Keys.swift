/// The keys from the environment: signing pairs (BLURLABEL_KEY / BLURLABEL_SALT, several
/// comma-separated for rotation: any of them verifies, the first signs) and text keys
/// (BLURLABEL_ENC_KEY: any decrypts, the first encrypts).
struct Keys: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var signing: [(key: [UInt8], salt: [UInt8])] = []
    /// The signing keys' HMAC states, in `signing`'s order.
    private var verifiers: [HMACSHA256Key] = []
    var encryption: [[UInt8]] = []

    init(environment: (String) -> String?) throws(Failure) {
        let keys = Self.list(environment("BLURLABEL_KEY"))
        let salts = Self.list(environment("BLURLABEL_SALT"))
        guard keys.count == salts.count else {
            throw Failure(
                description:
                    "BLURLABEL_KEY has \(keys.count) key(s) and BLURLABEL_SALT \(salts.count) salt(s): give one salt per key"
            )
        }
        for (index, (key, salt)) in zip(keys, salts).enumerated() {
            guard let k = Self.hex(key), !k.isEmpty else {
                throw Failure(description: "BLURLABEL_KEY's key \(index + 1) is not hexadecimal")
            }
            guard let s = Self.hex(salt) else {
                throw Failure(description: "BLURLABEL_SALT's salt \(index + 1) is not hexadecimal")
            }
            signing.append((k, s))
        }
        verifiers = signing.map { HMACSHA256Key($0.key) }
        for (index, key) in Self.list(environment("BLURLABEL_ENC_KEY")).enumerated() {
            guard let k = Self.hex(key), k.count == 32 else {
                throw Failure(
                    description: "BLURLABEL_ENC_KEY's key \(index + 1) is not 64 hexadecimal digits (32 bytes)"
                )
            }
            encryption.append(k)
        }
    }

    /// The signature segment for `path` (everything after the signature, from its `/`).
    static func signature(of path: String, key: [UInt8], salt: [UInt8]) -> String {
        Base64URL.encode(Crypto.hmacSHA256(key: key, salt, Array(path.utf8)))
    }

    /// Whether `signature` signs `path` under any of the pairs (each compared in constant time).
    func verifies(_ signature: Substring, path: String) -> Bool {
        guard let given = Base64URL.decode(signature), given.count == 32 else { return false }
        let message = Array(path.utf8)
        var matched = false
        for (pair, verifier) in zip(signing, verifiers)
        where Crypto.constantTimeEqual(verifier.mac([pair.salt, message]), given) {
            matched = true
        }
        return matched
    }

    /// The text of an `enc:` segment's bytes under any of the keys, or nil.
    func decrypt(_ sealed: [UInt8]) -> [UInt8]? {
        for key in encryption {
            if let plain = Crypto.open(sealed, key: key) { return plain }
        }
        return nil
    }

    private static func list(_ value: String?) -> [Substring] {
        guard let value, !value.isEmpty else { return [] }
        return value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingPrefix(" ") }
            .map { Substring($0) }
    }

    static func hex(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}
