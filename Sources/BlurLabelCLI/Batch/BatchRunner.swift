import BlurLabelSystem
import BlurredLabelCore

/// The workers: each takes a few lines at a time (what the reader already holds), renders and
/// writes them with its own fonts' faces and glyph cache (see `GlyphWorkspace`), counts on its own,
/// and hands its results over before it asks for more lines: one round of each of two locks per
/// batch of lines, never one per label. The reader has its own lock (a worker may wait in it for
/// a pipe's next line); what is reported has another, never held while reading, so a line's
/// message goes to standard error as soon as the line is done. Standard-output results leave in
/// input order. Counts are merged after the workers have joined.
final class BatchRunner: Sendable {
    /// What is done with an output that already exists. Another process may write into the same
    /// folder at any time (a shard, a Spark partition, the same manifest run twice), so an output
    /// is only ever published where nothing has its name (`OutputFolder.Publish.keeping`), except
    /// with `--force`.
    enum Existing {
        /// `--resume`: looked for before rendering; if it exists, or appears while the line
        /// renders, it is kept and the line skipped.
        case skip
        /// `--force`: rendered and replaced.
        case redo
        /// Neither: the line is rendered and published only where nothing has the output's name.
        /// If something has it (written before, or by another run meanwhile), it is kept: holding
        /// exactly the bytes rendered, the line is done (a rerun, a Spark task retried, the same
        /// manifest twice); otherwise the line fails. A manifest file's scan has already refused
        /// the run if any of its outputs existed when it started.
        case refuse
    }

    /// Lines a worker takes at once (when they are already read).
    static let linesPerTake = 16

    private let folder: OutputFolder
    private let jobs: Int
    private let shard: Shard
    private let existing: Existing
    private let streaming: Bool
    private let output: CommandLineTool.Output
    private let stop: BatchStop
    /// Each label's working memory at most (`--max-render-mb`).
    private let budget: RenderBudget
    /// The manifest, read by one worker at a time.
    private let reading: LockedValue<ManifestReader>
    /// What the workers report into: the progress display, standard error's messages and the
    /// results waiting for their turn on standard output.
    private let reporting: LockedValue<Reporting>

    private struct Reporting {
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
        stop: BatchStop = BatchStop(),
        budget: RenderBudget = .standard
    ) {
        self.folder = folder
        self.budget = budget
        self.jobs = jobs
        self.shard = shard
        self.existing = existing
        self.streaming = streaming
        self.output = output
        self.stop = stop
        reader.shouldStop = { stop.isRequested }
        reading = LockedValue(reader)
        reporting = LockedValue(Reporting(progress: progress))
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
        reporting.withLock { $0.progress.finish() }
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
            if !results.isEmpty {
                reporting.withLock { report(results, into: &$0) }
                results.removeAll(keepingCapacity: true)
            }
            if stop.isRequested { return tally }
            let lines = reading.withLock { $0.nextLines(upTo: Self.linesPerTake) }
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
                let number = line.number ?? 0
                // A line's message leaves now, not with its batch: a run killed later keeps it.
                if let message = message(number, outcome) { reporting.withLock { $0.progress.say(message) } }
                results.append((number, outcome))
            }
        }
    }

    /// The standard-error lines for one line's outcome, if it has any (with `-`, a numbered
    /// line's outcome goes into its JSON result instead).
    private func message(_ number: Int, _ outcome: Outcome) -> String? {
        if streaming && number > 0 { return nil }
        switch outcome {
        case let .failed(_, reason):
            return number > 0 ? "blurlabel batch: line \(number): \(reason)\n" : "blurlabel batch: \(reason)\n"
        case let .rendered(_, warnings) where !warnings.isEmpty:
            return warnings.map { "blurlabel batch: line \(number): warning: \($0)\n" }.joined()
        default: return nil
        }
    }

    /// Hands a worker's finished lines over: ordered JSON results (with `-`) and progress.
    private func report(_ results: [(number: Int, outcome: Outcome)], into reporting: inout Reporting) {
        if streaming {
            for (number, outcome) in results where number > 0 { deliver(number, outcome, into: &reporting) }
        }
        reporting.done += results.count
        reporting.progress.update(done: reporting.done)
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
            if case .flag(true)? = line.options[LabelOptions.secure.key] {
                secretValues = [line.text] + line.options.textValues
            }
            if existing == .skip && folder.exists(line.output) { return .skipped(line.output) }
            let style = try line.style(budget: budget)
            let level: Int
            do { level = try CommonOptions.compression.value(in: line.options) } catch let error as UsageError {
                throw LineError(error.message)
            }
            let picture = try LabelPipeline(style: style, budget: budget).png(
                of: line.text,
                encoder: PNGEncoder(compressionLevel: level)
            )
            let written = try folder.write(
                picture.bytes,
                to: line.output,
                publish: existing == .redo ? .replacing : .keeping
            )
            if case let .found(sameBytes) = written {
                // Something has the output's name (written before, or by another run meanwhile): kept.
                if existing == .skip { return .skipped(line.output) }
                if !sameBytes {
                    return .failed(
                        line.output,
                        "output '\(line.output)' already exists and holds something else; "
                            + "kept (use --resume to skip it or --force to replace it)"
                    )
                }
            }
            var warnings = picture.fontWarnings
            if let missing = missingCharactersWarning(picture.missingCharacters, secure: style.secure != nil) {
                warnings.append(missing)
            }
            return .rendered(line.output, warnings: warnings)
        } catch {
            let message = FlagMessages.message(for: error)
            return .failed(name, secretValues.map { SecureMessages.withoutValues(message, $0) } ?? message)
        }
    }

    /// One JSON result per input line, in input order, on standard output.
    private func deliver(_ number: Int, _ outcome: Outcome, into shared: inout Reporting) {
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
