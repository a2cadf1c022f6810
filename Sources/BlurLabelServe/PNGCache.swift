import BlurredLabelCore

/// Finished PNGs by signed path, at most `limitBytes` of them (PNG bytes plus the key and a fixed
/// overhead each); the oldest entries leave first when a new one needs room.
final class PNGCache: Sendable {
    struct Entry: Sendable {
        let png: [UInt8]
        let etag: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys in insertion order; `head` is the oldest still present or removed.
        var order: [String] = []
        var head = 0
        var bytes = 0
    }

    let limitBytes: Int
    private let state = LockedValue(State())

    init(limitBytes: Int) { self.limitBytes = limitBytes }

    static func cost(key: String, png: [UInt8], etag: String) -> Int {
        png.count + key.utf8.count + etag.utf8.count + 128
    }

    func entry(_ key: String) -> Entry? { state.withLock { $0.entries[key] } }

    func insert(_ key: String, _ entry: Entry) {
        let cost = Self.cost(key: key, png: entry.png, etag: entry.etag)
        guard cost <= limitBytes else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            while state.bytes + cost > limitBytes, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let removed = state.entries.removeValue(forKey: oldest) {
                    state.bytes -= Self.cost(key: oldest, png: removed.png, etag: removed.etag)
                }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.entries[key] = entry
            state.order.append(key)
            state.bytes += cost
        }
    }

    /// Bytes counted and entries held.
    var size: (bytes: Int, entries: Int) { state.withLock { ($0.bytes, $0.entries.count) } }
}
