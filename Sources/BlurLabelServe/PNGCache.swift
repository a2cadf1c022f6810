import BlurredLabelCore
import HTTPServer

/// Finished label files (PNG, WebP or AVIF) by signed path (and, for a URL whose format `Accept`
/// picks, the variant: `LabelService.cacheKey`), at most `limitBytes` of them (PNG bytes plus the key and a fixed
/// overhead each). Least recently used leaves first: a hit moves its entry to the front, so the
/// labels a shop's pages show all the time stay while one-off labels pass through.
final class PNGCache: Sendable {
    struct Entry: Sendable {
        /// Shared with every response that sends it: a hit copies nothing.
        let png: ResponseBytes
        let etag: String
        /// Its media type (`image/png`, `image/webp`, `image/avif`).
        var contentType = "image/png"
        /// Whether it is one of a URL's `Accept` variants (answered with `Vary: Accept`).
        var negotiated = false
    }

    /// One entry in the recency list: its neighbours are indices into `State.nodes`.
    private struct Node {
        var key: String
        var entry: Entry
        var cost: Int
        var newer = -1
        var older = -1
    }

    /// A doubly linked list in an array, most recent at `newest`; freed slots are reused.
    private struct State {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        /// Entries removed to make room, since the start.
        var evictions = 0

        mutating func unlink(_ slot: Int) {
            let (newer, older) = (nodes[slot].newer, nodes[slot].older)
            if newer >= 0 { nodes[newer].older = older } else { newest = older }
            if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
            nodes[slot].newer = -1
            nodes[slot].older = -1
        }

        mutating func pushNewest(_ slot: Int) {
            nodes[slot].older = newest
            nodes[slot].newer = -1
            if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
            newest = slot
        }

        mutating func removeOldest() {
            let slot = oldest
            unlink(slot)
            index.removeValue(forKey: nodes[slot].key)
            bytes -= nodes[slot].cost
            evictions += 1
            // Keep the slot, drop what it holds.
            nodes[slot].key = ""
            nodes[slot].entry = Entry(png: ResponseBytes([]), etag: "")
            free.append(slot)
        }
    }

    let limitBytes: Int
    private let state = LockedValue(State())

    init(limitBytes: Int) { self.limitBytes = limitBytes }

    static func cost(key: String, png: ResponseBytes, etag: String) -> Int {
        png.count + key.utf8.count + etag.utf8.count + 128
    }

    /// The entry for `key`, which becomes the most recently used.
    func entry(_ key: String) -> Entry? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            if state.newest != slot {
                state.unlink(slot)
                state.pushNewest(slot)
            }
            return state.nodes[slot].entry
        }
    }

    /// Stores `entry` as the most recently used, removing the least recently used ones until it
    /// fits. An entry larger than the whole limit is not stored.
    func insert(_ key: String, _ entry: Entry) {
        let cost = Self.cost(key: key, png: entry.png, etag: entry.etag)
        guard cost <= limitBytes else { return }
        state.withLock { state in
            guard state.index[key] == nil else { return }
            while state.bytes + cost > limitBytes, state.oldest >= 0 { state.removeOldest() }
            let node = Node(key: key, entry: entry, cost: cost)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.pushNewest(slot)
            state.index[key] = slot
            state.bytes += cost
        }
    }

    /// Entries removed to make room for others, since the start.
    var evictions: Int { state.withLock { $0.evictions } }

    /// Bytes counted and entries held.
    var size: (bytes: Int, entries: Int) { state.withLock { ($0.bytes, $0.index.count) } }

    /// Whether `key` is held, without counting as a use (for tests).
    func contains(_ key: String) -> Bool { state.withLock { $0.index[key] != nil } }
}
