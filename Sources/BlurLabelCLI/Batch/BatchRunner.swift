import BlurredLabelCore

#if canImport(Glibc)
import Glibc
#endif

/// The workers: each takes a few lines at a time (what the reader already holds), renders and
/// writes them with its own fonts' faces and glyph cache (see `GlyphWorkspace`), counts on its own,
/// and hands its results over with the next request for lines: one lock round per batch of lines,
/// never one per label. Standard-output results leave in input order. Counts are merged after the
/// workers have joined.
final class BatchRunner: Sendable {
    enum Existing { case skip, redo, refuse }

    /// Lines a worker takes at once (when they are already read).
    static let linesPerTake = 16

    private let folder: OutputFolder
    private let jobs: Int
    private let shard: Shard
    private let existing: Existing
    private let streaming: Bool
    private let output: CommandLineTool.Output
    private let stop: BatchStop
    /// What the workers share: the reader, the progress display and the results waiting for
    /// their turn on standard output.
    private let shared: LockedValue<Shared>

    private struct Shared {
        let reader: ManifestReader
        let progress: BatchProgress
        var done = 0
        var pending: [Int: String] = [:]
        var nextToPrint = 1
    }

    /// What one worker did.
    private struct Tally {
        var rendered = 0, skipped = 0, failed = 0
    }

    init(
        reader: sending ManifestReader,
        folder: OutputFolder,
        jobs: Int,
        shard: Shard,
        existing: Existing,
        streaming: Bool,
        progress: sending BatchProgress,
        output: CommandLineTool.Output,
        stop: BatchStop = BatchStop()
    ) {
        self.folder = folder
        self.jobs = jobs
        self.shard = shard
        self.existing = existing
        self.streaming = streaming
        self.output = output
        self.stop = stop
        reader.shouldStop = { stop.isRequested }
        shared = LockedValue(Shared(reader: reader, progress: progress))
    }

    func run() -> Int32 {
        let tallies = LockedValue([Tally]())
        let started = Stopwatch()
        // The workers run every job; this thread waits, ready for a Ctrl-C (see concurrentPerform).
        concurrentPerform(jobs, callerRunsItems: false) { _ in
            let mine = work()
            tallies.withLock { $0.append(mine) }
        }
        let total = tallies.withLock {
            $0.reduce(into: Tally()) {
                $0.rendered += $1.rendered
                $0.skipped += $1.skipped
                $0.failed += $1.failed
            }
        }
        shared.withLock { $0.progress.finish() }
        let seconds = started.seconds
        let interrupted = stop.isRequested
        output.standardError(
            "batch: " + (interrupted ? "interrupted; " : "")
                + cFormat(
                    "rendered %ld, skipped %ld, failed %ld in %.1f s (%.0f labels/s)\n",
                    total.rendered,
                    total.skipped,
                    total.failed,
                    seconds,
                    Double(total.rendered) / max(seconds, 1e-9)
                )
        )
        if interrupted { return 130 }
        return total.failed > 0 ? 2 : 0
    }

    /// One worker's loop.
    private func work() -> Tally {
        var tally = Tally()
        var results: [(number: Int, outcome: Outcome)] = []
        while true {
            let stopping = stop.isRequested
            let lines = shared.withLock { shared -> [ManifestReader.Line] in
                report(results, into: &shared)
                return stopping ? [] : shared.reader.nextLines(upTo: Self.linesPerTake)
            }
            results.removeAll(keepingCapacity: true)
            if lines.isEmpty { return tally }
            for line in lines {
                let outcome: Outcome
                switch line {
                case let .line(number, bytes):
                    guard shard.contains(line: number) else { continue }
                    outcome = process(bytes)
                case let .tooLong(number):
                    guard shard.contains(line: number) else { continue }
                    outcome = .failed(nil, "line is longer than \(Limits.maximumManifestLineBytes) bytes; skipped")
                case let .failed(reason):
                    outcome = .failed(nil, "cannot read the manifest: \(reason)")
                }
                switch outcome {
                case .rendered: tally.rendered += 1
                case .skipped: tally.skipped += 1
                case .failed: tally.failed += 1
                }
                results.append((line.number ?? 0, outcome))
            }
        }
    }

    /// Hands a worker's finished lines over: error lines (or ordered JSON results) and progress.
    private func report(_ results: [(number: Int, outcome: Outcome)], into shared: inout Shared) {
        guard !results.isEmpty else { return }
        var errors = ""
        for (number, outcome) in results {
            if streaming && number > 0 {
                deliver(number, outcome, into: &shared)
            } else if case let .failed(_, reason) = outcome {
                errors += number > 0 ? "blurlabel batch: line \(number): \(reason)\n" : "blurlabel batch: \(reason)\n"
            } else if case let .rendered(_, warnings) = outcome {
                for warning in warnings { errors += "blurlabel batch: line \(number): warning: \(warning)\n" }
            }
        }
        if !errors.isEmpty { output.standardError(errors) }
        shared.done += results.count
        shared.progress.update(done: shared.done)
    }

    enum Outcome {
        /// A rendered line's warnings: installed fonts that could not be used, characters no font
        /// has (none for a secure line: its text is never rendered, so never named).
        case rendered(String, warnings: [String])
        case skipped(String)
        case failed(String?, String)
    }

    private func process(_ bytes: [UInt8]) -> Outcome {
        var name: String? = nil
        var secretValues: [String]? = nil  // a secure line's text and values: never in a message
        do {
            let line = try ManifestLine(bytes: bytes)
            name = line.output
            if case .flag(true)? = line.options["secure"] { secretValues = [line.text] + line.options.textValues }
            if existing != .redo && folder.exists(line.output) {
                switch existing {
                case .skip: return .skipped(line.output)
                case .refuse:
                    return .failed(line.output, "output '\(line.output)' already exists (use --resume or --force)")
                case .redo: break
                }
            }
            let style = try line.style()
            let level: Int
            do { level = try line.options.integer("compression", range: 0...9) ?? 6 } catch let error as UsageError {
                throw LineError(error.message)
            }
            let picture = try LabelPipeline(style: style).picture(of: line.text)
            try folder.write(try PNGEncoder(compressionLevel: level).encode(picture.image), to: line.output)
            var warnings = picture.fontWarnings
            if let missing = missingCharactersWarning(picture.missingCharacters, secure: style.secure != nil) {
                warnings.append(missing.hasPrefix("warning: ") ? String(missing.dropFirst("warning: ".count)) : missing)
            }
            return .rendered(line.output, warnings: warnings)
        } catch {
            let message = (error as? UsageError)?.message ?? "\(error)"
            return .failed(name, secretValues.map { SecureMessages.withoutValues(message, $0) } ?? message)
        }
    }

    /// One JSON result per input line, in input order, on standard output.
    private func deliver(_ number: Int, _ outcome: Outcome, into shared: inout Shared) {
        var object = "{\"line\":\(number)"
        switch outcome {
        case let .rendered(name, warnings):
            object += ",\"output\":\(Self.json(name)),\"ok\":true"
            if !warnings.isEmpty { object += ",\"warnings\":[" + warnings.map(Self.json).joined(separator: ",") + "]" }
        case let .skipped(name): object += ",\"output\":\(Self.json(name)),\"ok\":true,\"skipped\":true"
        case let .failed(name, reason):
            object += name.map { ",\"output\":\(Self.json($0))" } ?? ""
            object += ",\"ok\":false,\"error\":\(Self.json(reason))"
        }
        shared.pending[number] = object + "}\n"
        var ready = ""
        while let next = shared.pending.removeValue(forKey: shared.nextToPrint) {
            ready += next
            shared.nextToPrint += 1
        }
        if !ready.isEmpty { output.standardOutput(ready) }
    }

    /// `text` as a JSON string, quotes and escapes included (jansson's writer).
    static func json(_ text: String) -> String {
        String(decoding: JSONValue.string(text).serialized(), as: UTF8.self)
    }
}
