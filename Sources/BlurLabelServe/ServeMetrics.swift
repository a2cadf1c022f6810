import BlurredLabelCore
import HTTPServer

/// Counters for `/metrics`, in Prometheus' text format.
final class ServeMetrics: Sendable {
    static let bounds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var byStatus: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServeMetrics.bounds.count)
        var count = 0
        var sum = 0.0
        var cacheHits = 0
        var cacheMisses = 0
        var renders = 0
        var notModified = 0
    }

    private let state = LockedValue(State())

    func record(_ record: HTTPExchangeRecord) {
        state.withLock { state in
            state.byStatus[record.status, default: 0] += 1
            state.count += 1
            state.sum += record.seconds
            if let bucket = Self.bounds.firstIndex(where: { record.seconds <= $0 }) { state.buckets[bucket] += 1 }
        }
    }

    func cacheHit() { state.withLock { $0.cacheHits += 1 } }
    func cacheMiss() { state.withLock { $0.cacheMisses += 1 } }
    func rendered() { state.withLock { $0.renders += 1 } }

    /// The exposition text, with the gauges read now.
    func text(cache: (bytes: Int, entries: Int), queue: (waiting: Int, running: Int), inFlight: Int) -> String {
        let s = state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric(
            "blurlabel_requests_total",
            "counter",
            "Requests answered, by HTTP status.",
            s.byStatus.keys.sorted().map { ("{status=\"\($0)\"}", String(s.byStatus[$0]!)) }
        )
        var cumulative = 0
        var histogram: [(String, String)] = []
        for (index, bound) in Self.bounds.enumerated() {
            cumulative += s.buckets[index]
            histogram.append(("_bucket{le=\"\(bound)\"}", String(cumulative)))
        }
        histogram.append(("_bucket{le=\"+Inf\"}", String(s.count)))
        histogram.append(("_sum", String(s.sum)))
        histogram.append(("_count", String(s.count)))
        lines.append("# HELP blurlabel_request_duration_seconds From the request read to its response handed over.")
        lines.append("# TYPE blurlabel_request_duration_seconds histogram")
        for (suffix, value) in histogram { lines.append("blurlabel_request_duration_seconds\(suffix) \(value)") }
        metric("blurlabel_cache_hits_total", "counter", "Labels answered from the cache.", [("", String(s.cacheHits))])
        metric("blurlabel_cache_misses_total", "counter", "Labels not in the cache.", [("", String(s.cacheMisses))])
        metric("blurlabel_cache_bytes", "gauge", "Bytes the cache holds.", [("", String(cache.bytes))])
        metric("blurlabel_cache_entries", "gauge", "PNGs the cache holds.", [("", String(cache.entries))])
        metric("blurlabel_renders_total", "counter", "Labels rendered.", [("", String(s.renders))])
        metric("blurlabel_queue_depth", "gauge", "Renders waiting for a worker.", [("", String(queue.waiting))])
        metric("blurlabel_renders_in_progress", "gauge", "Renders running.", [("", String(queue.running))])
        metric("blurlabel_requests_in_flight", "gauge", "Requests read and not yet finished.", [("", String(inFlight))])
        return lines.joined(separator: "\n") + "\n"
    }
}
