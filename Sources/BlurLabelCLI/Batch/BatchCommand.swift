import BlurLabelSystem
import BlurredLabelCore
import Synchronization

/// `blurlabel batch MANIFEST.jsonl|- --out DIR`: many labels from a JSON-lines manifest.
enum BatchCommand {
    static let listing: CommandLineTool.Listing = .init(
        name: "batch",
        summary: "render many labels from a JSON-lines manifest, on all cores"
    ) { command }

    static let out = Option<String?>(
        "out",
        .text("DIR"),
        help: "folder for the outputs (created if missing); required"
    )
    static let jobs = Option(
        "jobs",
        short: "-j",
        .integer("N", 1...1024),
        default: defaultThreadCount,
        shown: "every core",
        help: "worker threads; output is the same for any N"
    )
    static let shard = Option<String?>(
        "shard",
        .text("I/N"),
        help: "render only lines I, I+N, I+2N... (1-based); N shards cover the manifest"
    )
    static let resume = Option(flag: "resume", help: "skip outputs that already exist (every file written is whole)")
    static let force = Option(flag: "force", help: "render outputs that already exist again")

    static let spec = CommandSpec(
        name: listing.name,
        summary: listing.summary,
        positionals: ["MANIFEST.jsonl"],
        options: [out.spec, jobs.spec, shard.spec, resume.spec, force.spec, CommonOptions.maxRenderMegabytes.spec],
        details: """
            Each line is one JSON object: "text", "output" (a file name under DIR) and any render option
            by the same name without dashes, e.g. {"text":"56.00 €","output":"a.png","radius":2.5,"secure":true}.
            A bad line is reported with its number and does not stop the others; the exit status is 2 if
            any line failed. In a manifest file, lines naming the same output are an error found before
            rendering starts; lines from standard input are not read ahead, so there a later line finds
            an earlier one's output as an existing file (kept, or replaced with --force).
            With '-' as the manifest, lines come from standard input and one JSON result per line goes to
            standard output, in input order: {"line":1,"output":"a.png","ok":true} (Spark's RDD.pipe);
            a run that cannot start answers every line with "ok":false and exits 2.
            Any number of batches may write into one DIR at once (shards, Spark partitions): an output
            is published only where nothing has its name yet; one already there (written before, or by
            another run meanwhile) is kept: holding the same bytes, the line is done, else the line
            fails; --resume skips it, --force replaces it.
            """
    )

    static let command = CommandLineTool.Command(
        spec: spec,
        run: { arguments, output in try catchingStopSignals { try run(arguments, output, stop: BatchStop()) } },
        failedToStart: { arguments, message, output in
            guard readsStandardInput(arguments), isatty(STDIN_FILENO) == 0 else { return }
            answerEveryLine(of: ManifestReader(descriptor: STDIN_FILENO), failing: message, output)
        }
    )

    /// True when `arguments` (a batch command line, without the command's name) name '-' as the
    /// manifest; read loosely, since they may have been refused.
    static func readsStandardInput(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return arguments[index...].first == "-" }
            if argument == "-" { return true }
            if spec.options.contains(where: { ($0.name == argument || $0.short == argument) && $0.placeholder != nil })
            {
                index += 1  // the option's value
            } else if !argument.hasPrefix("-") {
                return false  // the manifest is a file
            }
        }
        return false
    }

    /// `batch -` that could not start: one failed JSON result for every line of `reader`, in
    /// order, so the caller can count them (the contract holds whatever happens).
    static func answerEveryLine(of reader: ManifestReader, failing message: String, _ output: CommandLineTool.Output) {
        let error = BatchRunner.json("batch did not start: " + message)
        var text = ""
        while let line = reader.nextLine(), let number = line.number {
            text += "{\"line\":\(number)"
            if case let .line(_, bytes) = line,
                let name = ManifestLine.quickOutput(bytes) ?? (try? ManifestLine(bytes: bytes))?.output
            {
                text += ",\"output\":" + BatchRunner.json(name)
            }
            text += ",\"ok\":false,\"error\":" + error + "}\n"
            if text.utf8.count >= 1 << 16 {
                output.standardOutput(text)
                text = ""
            }
        }
        if !text.isEmpty { output.standardOutput(text) }
    }

    static func run(_ arguments: ParsedArguments, _ output: CommandLineTool.Output, stop: BatchStop) throws -> Int32 {
        let options = GivenOptions(arguments)
        guard let folderPath = try out.value(in: options) else { throw UsageError(message: "missing --out DIR") }
        let jobs = try Self.jobs.value(in: options)
        let shardText = try Self.shard.value(in: options)
        let shard = try shardText.map(Shard.init(parsing:)) ?? .all
        let resume = try Self.resume.value(in: options)
        let force = try Self.force.value(in: options)
        let budget = try CommonOptions.budget(options)
        if resume && force { throw UsageError(message: "--resume and --force cannot be combined") }
        let manifest = arguments.positionals[0]
        let streaming = manifest == "-"
        if streaming && shardText != nil {
            throw UsageError(message: "--shard needs a manifest file, not standard input")
        }
        let reader = try ManifestReader(path: manifest)
        // Only a regular file can be read twice (scanned, then rendered); a pipe or device is read once.
        let scanned = !streaming && reader.isRegularFile
        // No lock: other batches may write into the folder at once (see `BatchRunner.Existing`).
        var folder = try OutputFolder(path: folderPath, create: false)
        var total: Int? = nil
        if scanned {
            let scan = try ManifestScan(path: manifest, shard: shard, stop: stop) { folder?.exists($0) ?? false }
            if stop.isRequested {
                output.standardError("batch: interrupted before rendering; nothing written\n")
                return 130
            }
            if !scan.duplicates.isEmpty {
                for d in scan.duplicates.prefix(20) {
                    output.standardError(
                        "blurlabel batch: line \(d.line): output '\(d.output)' is also named by line \(d.other)\n"
                    )
                }
                throw UsageError(
                    message: "\(scan.duplicates.count) line(s) name an output another line names; nothing rendered"
                )
            }
            if scan.existing > 0 && !resume && !force {
                throw UsageError(
                    message:
                        "\(scan.existing) output(s) already exist in \(folderPath); use --resume to skip them or --force to redo them"
                )
            }
            total = scan.linesInShard
        }
        // The folder is made only once the run is known to go ahead.
        if folder == nil { folder = try OutputFolder(path: folderPath, create: true) }
        // An output that exists when its line is published is kept (see `BatchRunner.Existing`).
        let existing: BatchRunner.Existing = resume ? .skip : force ? .redo : .refuse
        let runner = BatchRunner(
            reader: reader,
            folder: folder!,
            jobs: jobs,
            shard: shard,
            existing: existing,
            streaming: streaming,
            progress: BatchProgress(total: total, output: output),
            output: output,
            stop: stop,
            budget: budget
        )
        return runner.run()
    }
}
