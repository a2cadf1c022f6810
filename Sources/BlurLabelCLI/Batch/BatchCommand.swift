import BlurredLabelKit
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT and SIGTERM: workers stop taking lines, finish the files they are writing, and
/// the run ends with only whole files on disk.
let batchInterrupted = Atomic<Bool>(false)

/// Runs `body` with SIGINT and SIGTERM setting `batchInterrupted` (and unblocked: a parent may
/// have started us with them blocked), restoring the previous handling afterwards.
func catchingStopSignals<T>(_ body: () throws -> T) rethrows -> T {
    batchInterrupted.store(false, ordering: .relaxed)
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    let previousInt = signal(SIGINT) { _ in batchInterrupted.store(true, ordering: .relaxed) }
    let previousTerm = signal(SIGTERM) { _ in batchInterrupted.store(true, ordering: .relaxed) }
    defer { signal(SIGINT, previousInt); signal(SIGTERM, previousTerm) }
    return try body()
}

/// `blurlabel batch MANIFEST.jsonl|- --out DIR`: many labels from a JSON-lines manifest.
enum BatchCommand {
    static let spec = CommandSpec(
        name: "batch",
        summary: "render many labels from a JSON-lines manifest, on all cores",
        positionals: ["MANIFEST.jsonl"],
        options: [
            OptionSpec(name: "--out", value: "DIR", help: "folder for the outputs (created if missing); required"),
            OptionSpec(name: "--jobs", short: "-j", value: "N", help: "worker threads (default: every core); output is the same for any N"),
            OptionSpec(name: "--shard", value: "I/N", help: "render only lines I, I+N, I+2N... (1-based); N shards cover the manifest"),
            OptionSpec(name: "--resume", help: "skip outputs that already exist (every file written is whole)"),
            OptionSpec(name: "--force", help: "render outputs that already exist again"),
        ],
        details: """
        Each line is one JSON object: "text", "output" (a file name under DIR) and any render option
        by the same name without dashes, e.g. {"text":"56.00 €","output":"a.png","radius":2.5,"secure":true}.
        A bad line is reported with its number and does not stop the others; the exit status is 2 if
        any line failed. Lines naming the same output are an error found before rendering starts.
        With '-' as the manifest, lines come from standard input and one JSON result per line goes to
        standard output, in input order: {"line":1,"output":"a.png","ok":true} (Spark's RDD.pipe).
        """
    )

    static let command = CommandLineTool.Command(spec: spec) { arguments, output in
        try catchingStopSignals { try run(arguments, output) }
    }

    static func run(_ arguments: ParsedArguments, _ output: CommandLineTool.Output) throws -> Int32 {
        guard let folder = arguments.value("--out") else { throw UsageError(message: "missing --out DIR") }
        let jobs = try OptionValues.integer(arguments.value("--jobs") ?? String(defaultThreadCount), option: "--jobs", range: 1...1024)
        let shard = try arguments.value("--shard").map(Shard.init(parsing:)) ?? .all
        let resume = arguments.has("--resume"), force = arguments.has("--force")
        if resume && force { throw UsageError(message: "--resume and --force cannot be combined") }
        let manifest = arguments.positionals[0]
        let streaming = manifest == "-"
        if streaming && arguments.value("--shard") != nil { throw UsageError(message: "--shard needs a manifest file, not standard input") }
        var total: Int? = nil
        if !streaming {
            let scan = try ManifestScan(path: manifest, shard: shard, outputFolder: folder) { FileManager.default.fileExists(atPath: $0) }
            if batchInterrupted.load(ordering: .relaxed) {
                output.standardError("batch: interrupted before rendering; nothing written\n")
                return 130
            }
            if !scan.duplicates.isEmpty {
                for d in scan.duplicates.prefix(20) {
                    output.standardError("blurlabel batch: line \(d.line): output '\(d.output)' is also named by line \(d.other)\n")
                }
                throw UsageError(message: "\(scan.duplicates.count) line(s) name an output another line names; nothing rendered")
            }
            if scan.existing > 0 && !resume && !force {
                throw UsageError(message: "\(scan.existing) output(s) already exist in \(folder); use --resume to skip them or --force to redo them")
            }
            total = scan.linesInShard
        }
        // The folder is made only once the run is known to go ahead.
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw UsageError(message: "cannot create --out \(folder): \(error.localizedDescription)")
        }
        let runner = BatchRunner(reader: try ManifestReader(path: manifest), folder: folder, jobs: jobs, shard: shard,
                                 existing: resume ? .skip : force ? .redo : .refuse, streaming: streaming,
                                 progress: BatchProgress(total: total, output: output), output: output)
        return runner.run()
    }
}

/// The workers: each takes the next line, renders it and writes it atomically; results and
/// progress are recorded under one lock; standard-output results leave in input order.
final class BatchRunner: @unchecked Sendable {
    enum Existing { case skip, redo, refuse }

    private let reader: ManifestReader
    private let folder: String
    private let jobs: Int
    private let shard: Shard
    private let existing: Existing
    private let streaming: Bool
    private let progress: BatchProgress
    private let output: CommandLineTool.Output
    private let lock = NSLock()
    private var rendered = 0, skipped = 0, failed = 0
    private var pending: [Int: String] = [:]
    private var nextToPrint = 1

    init(reader: ManifestReader, folder: String, jobs: Int, shard: Shard, existing: Existing, streaming: Bool,
         progress: BatchProgress, output: CommandLineTool.Output) {
        self.reader = reader
        self.folder = folder; self.jobs = jobs; self.shard = shard; self.existing = existing
        self.streaming = streaming; self.progress = progress; self.output = output
    }

    func run() -> Int32 {
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in work() }
        progress.finish()
        let seconds = progress.elapsed
        let interrupted = batchInterrupted.load(ordering: .relaxed)
        output.standardError(String(format: "batch: %@rendered %d, skipped %d, failed %d in %.1f s (%.0f labels/s)\n",
                                    interrupted ? "interrupted; " : "", rendered, skipped, failed, seconds,
                                    Double(rendered) / max(seconds, 1e-9)))
        if interrupted { return 130 }
        return failed > 0 ? 2 : 0
    }

    private func work() {
        while !batchInterrupted.load(ordering: .relaxed) {
            lock.lock()
            let next = reader.next()
            lock.unlock()
            guard let (number, bytes) = next else { return }
            guard shard.contains(line: number) else { continue }
            let result = process(bytes)
            lock.lock()
            switch result {
            case .rendered: rendered += 1
            case .skipped: skipped += 1
            case let .failed(_, reason):
                failed += 1
                if !streaming { output.standardError("blurlabel batch: line \(number): \(reason)\n") }
            }
            if streaming { deliver(number, result) }
            progress.update(done: rendered + skipped + failed)
            lock.unlock()
        }
    }

    enum Outcome {
        case rendered(String), skipped(String), failed(String?, String)
    }

    private func process(_ bytes: [UInt8]) -> Outcome {
        var name: String? = nil
        do {
            let line = try ManifestLine(bytes: bytes)
            name = line.output
            let path = folder + "/" + line.output
            if FileManager.default.fileExists(atPath: path) {
                switch existing {
                case .skip: return .skipped(line.output)
                case .refuse: return .failed(line.output, "output '\(line.output)' already exists (use --resume or --force)")
                case .redo: break
                }
            }
            let style = try line.style()
            let level = try OptionValues.integer(line.options["compression"] ?? "6", option: "compression", range: 0...9)
            let label = BlurredLabel(text: line.text, style: style)
            if style.radius > 0 { try label.blur(radius: style.radius) }
            let png = try PNGEncoder(compressionLevel: level).encode(try label.image)
            let directory = (path as NSString).deletingLastPathComponent
            if directory != folder { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            try FileIO.write(png, to: path)
            return .rendered(line.output)
        } catch let error as UsageError {
            return .failed(name, error.message)
        } catch {
            return .failed(name, "\(error)")
        }
    }

    /// One JSON result per input line, in input order, on standard output.
    private func deliver(_ number: Int, _ outcome: Outcome) {
        var object = "{\"line\":\(number)"
        switch outcome {
        case let .rendered(name): object += ",\"output\":\(Self.json(name)),\"ok\":true"
        case let .skipped(name): object += ",\"output\":\(Self.json(name)),\"ok\":true,\"skipped\":true"
        case let .failed(name, reason):
            object += name.map { ",\"output\":\(Self.json($0))" } ?? ""
            object += ",\"ok\":false,\"error\":\(Self.json(reason))"
        }
        pending[number] = object + "}\n"
        while let ready = pending.removeValue(forKey: nextToPrint) {
            output.standardOutput(ready)
            nextToPrint += 1
        }
    }

    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
