import BlurredLabelCore
import Synchronization

/// The pass over a manifest file before anything is rendered: how many lines this shard has,
/// which outputs are named twice, and which already exist. Memory: 12 bytes per line (a hash of
/// each output name and its line number), never the lines themselves.
struct ManifestScan {
    var linesInShard = 0
    var duplicates: [(line: Int, other: Int, output: String)] = []
    var existing = 0

    /// Scans the manifest at `path`; `exists` says whether an output (a normalised relative path)
    /// is already in the output folder.
    init(path: String, shard: Shard, stop: BatchStop, exists: (String) -> Bool) throws {
        var seen: [UInt64: Int32] = [:]
        var suspects: [(Int, Int)] = []
        let reader = try ManifestReader(path: path)
        reader.shouldStop = { stop.isRequested }
        while let line = reader.nextLine(), !stop.isRequested {
            let number: Int
            let bytes: [UInt8]
            switch line {
            case let .line(n, b):
                number = n
                bytes = b
            case let .tooLong(n):
                if shard.contains(line: n) { linesInShard += 1 }
                continue
            case let .failed(reason): throw FileError.cannotRead(path: path, reason: reason)
            }
            let inShard = shard.contains(line: number)
            if inShard { linesInShard += 1 }
            guard let output = ManifestLine.quickOutput(bytes) ?? (try? ManifestLine(bytes: bytes))?.output else {
                continue
            }
            let hash = fnv1a(output)
            if let first = seen[hash] {
                suspects.append((Int(first), number))
            } else {
                seen[hash] = Int32(truncatingIfNeeded: number)
            }
            if inShard && exists(output) { existing += 1 }
        }
        guard !suspects.isEmpty else { return }
        // Confirm hash matches by reading the lines involved again (rare: real duplicates).
        let wanted = Set(suspects.flatMap { [$0.0, $0.1] })
        var names: [Int: String] = [:]
        let again = try ManifestReader(path: path)
        while let (number, bytes) = again.next() {
            if wanted.contains(number) { names[number] = (try? ManifestLine(bytes: bytes))?.output }
        }
        duplicates = suspects.compactMap { first, second in
            guard let a = names[first], a == names[second] else { return nil }
            return (second, first, a)
        }
    }
}

/// `--shard I/N`: line k belongs to shard ((k - 1) mod N) + 1, so the N shards are disjoint and
/// together cover the manifest, whatever machine runs them.
struct Shard {
    let index: Int
    let count: Int

    static let all = Shard(index: 1, count: 1)

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init(parsing text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else {
            throw UsageError(message: "--shard needs I/N with 1 <= I <= N, got '\(text)'")
        }
        self.init(index: i, count: n)
    }

    func contains(line: Int) -> Bool { (line - 1) % count == index - 1 }
}
