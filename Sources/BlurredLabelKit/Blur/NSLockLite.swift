import Foundation

/// A lock with a scoped `locked` helper.
final class NSLockLite: @unchecked Sendable {
    private let lock = NSLock()
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
