import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import HTTPServer

/// Counters for `/metrics`, in Prometheus' text format.
final class ServeMetrics: Sendable {
    static let bounds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Observations in `bounds`' buckets: a Prometheus histogram.
    struct Histogram {
        var buckets = [Int](repeating: 0, count: ServeMetrics.bounds.count)
        var count = 0
        var sum = 0.0

        mutating func observe(_ seconds: Double) {
            count += 1
            sum += seconds
            if let bucket = ServeMetrics.bounds.firstIndex(where: { seconds <= $0 }) { buckets[bucket] += 1 }
        }

        /// The exposition lines of histogram `name`.
        func lines(_ name: String, _ help: String) -> [String] {
            var lines = ["# HELP \(name) \(help)", "# TYPE \(name) histogram"]
            var cumulative = 0
            for (index, bound) in ServeMetrics.bounds.enumerated() {
                cumulative += buckets[index]
                lines.append("\(name)_bucket{le=\"\(bound)\"} \(cumulative)")
            }
            lines.append("\(name)_bucket{le=\"+Inf\"} \(count)")
            lines.append("\(name)_sum \(sum)")
            lines.append("\(name)_count \(count)")
            return lines
        }
    }

    /// The reason class of a 4xx status, for `blurlabel_client_errors_total`.
    static func reason(_ status: HTTPStatus) -> String {
        switch status.code {
        case 400: return "bad_request"
        case 403: return "signature"
        case 404: return "not_found"
        case 405: return "method"
        case 408: return "timeout"
        case 413, 414, 431: return "too_large"
        case 421: return "host"
        case 499: return "client_gone"
        default: return "other"
        }
    }

    private struct State {
        var byStatus: [HTTPStatus: Int] = [:]
        var clientErrors: [String: Int] = [:]
        var requests = Histogram()
        var renderTimes = Histogram()
        var cacheHits = 0
        var cacheMisses = 0
        var renders = 0
        /// By format name (`png`, `webp`, `avif`): renders, their seconds, the bytes they wrote.
        var formats: [String: (renders: Int, seconds: Double, bytes: Int)] = [:]
    }

    private let state = LockedValue(State())

    func record(_ record: HTTPExchangeRecord) {
        state.withLock { state in
            state.byStatus[record.status, default: 0] += 1
            if record.status.isClientError { state.clientErrors[Self.reason(record.status), default: 0] += 1 }
            state.requests.observe(record.seconds)
        }
    }

    /// Runs the render of a picture in format `name` (`PictureFormat.name`), timing it apart from
    /// the request (the time in the queue and on the connection is not in it): the time is
    /// observed whether or not it throws; a picture made is counted, in all and by format with its
    /// seconds and its `bytes`, so an operator sees what each format costs and weighs. Returns the
    /// picture and the render's seconds.
    func rendering(format name: String, _ render: () throws -> [UInt8]) rethrows -> (file: [UInt8], seconds: Double) {
        let started = ProcessMetrics.monotonicSeconds()
        let file: [UInt8]
        do {
            file = try render()
        } catch {
            let seconds = ProcessMetrics.monotonicSeconds() - started
            state.withLock { $0.renderTimes.observe(seconds) }
            throw error
        }
        let seconds = ProcessMetrics.monotonicSeconds() - started
        state.withLock { state in
            state.renderTimes.observe(seconds)
            state.renders += 1
            let known = state.formats[name] ?? (0, 0, 0)
            state.formats[name] = (known.renders + 1, known.seconds + seconds, known.bytes + file.count)
        }
        return (file, seconds)
    }

    func cacheHit() { state.withLock { $0.cacheHits += 1 } }
    func cacheMiss() { state.withLock { $0.cacheMisses += 1 } }

    /// The exposition text, with the gauges read now.
    func text(cache: PNGCache?, queue: (waiting: Int, running: Int), inFlight: Int) -> String {
        let s = state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric(
            "blurlabel_build_info",
            "gauge",
            "The running version (always 1).",
            [("{version=\(AccessLog.quoted(CommandLineTool.version))}", "1")]
        )
        metric(
            "blurlabel_requests_total",
            "counter",
            "Requests answered, by HTTP status.",
            s.byStatus.keys.sorted().map { ("{status=\"\($0)\"}", String(s.byStatus[$0]!)) }
        )
        metric(
            "blurlabel_client_errors_total",
            "counter",
            "4xx answers by reason: bad_request (option, text, cost), signature, not_found, method, timeout, too_large, host, client_gone, other.",
            s.clientErrors.keys.sorted().map { ("{reason=\"\($0)\"}", String(s.clientErrors[$0]!)) }
        )
        lines += s.requests.lines(
            "blurlabel_request_duration_seconds",
            "From the request read to its response handed over."
        )
        lines += s.renderTimes.lines(
            "blurlabel_render_duration_seconds",
            "One label's render and PNG encoding, on a worker or a connection thread."
        )
        let size = cache?.size ?? (bytes: 0, entries: 0)
        metric("blurlabel_cache_hits_total", "counter", "Labels answered from the cache.", [("", String(s.cacheHits))])
        metric("blurlabel_cache_misses_total", "counter", "Labels not in the cache.", [("", String(s.cacheMisses))])
        metric(
            "blurlabel_cache_evictions_total",
            "counter",
            "PNGs removed from the cache to make room.",
            [("", String(cache?.evictions ?? 0))]
        )
        metric("blurlabel_cache_bytes", "gauge", "Bytes the cache holds.", [("", String(size.bytes))])
        metric(
            "blurlabel_cache_capacity_bytes",
            "gauge",
            "The most bytes the cache holds (--cache-mb).",
            [("", String(cache?.limitBytes ?? 0))]
        )
        metric("blurlabel_cache_entries", "gauge", "PNGs the cache holds.", [("", String(size.entries))])
        metric("blurlabel_renders_total", "counter", "Labels rendered.", [("", String(s.renders))])
        let formats = s.formats.keys.sorted()
        func byFormat(_ value: ((renders: Int, seconds: Double, bytes: Int)) -> String) -> [(String, String)] {
            formats.map { ("{format=\"\($0)\"}", value(s.formats[$0]!)) }
        }
        metric(
            "blurlabel_format_renders_total",
            "counter",
            "Pictures rendered, by format (png, webp, avif).",
            byFormat { String($0.renders) }
        )
        metric(
            "blurlabel_format_render_seconds_total",
            "counter",
            "Seconds those renders took (render and encoding), by format.",
            byFormat { String($0.seconds) }
        )
        metric(
            "blurlabel_format_bytes_total",
            "counter",
            "Bytes of the pictures rendered, by format.",
            byFormat { String($0.bytes) }
        )
        metric("blurlabel_queue_depth", "gauge", "Renders waiting for a worker.", [("", String(queue.waiting))])
        metric("blurlabel_renders_in_progress", "gauge", "Renders running.", [("", String(queue.running))])
        metric("blurlabel_requests_in_flight", "gauge", "Requests read and not yet finished.", [("", String(inFlight))])
        for (name, type, help, value) in ProcessMetrics.samples() { metric(name, type, help, [("", value)]) }
        return lines.joined(separator: "\n") + "\n"
    }
}
