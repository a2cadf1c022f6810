import BlurredLabelCore

/// `blurlabel serve`'s settings, each from its option, else its environment variable, else the
/// default. Parsed here, by the command line's parser and value checks; the server itself is
/// the separate `blurlabel-serve` executable (Package.swift says why).
package struct ServeSettings: Sendable {
    package var host = "127.0.0.1"
    package var port: UInt16 = 8080
    package var workers = ProcessorCount.available()
    package var queue = 64
    package var ioThreads = min(ProcessorCount.available(), 4)
    package var cacheMegabytes = 64
    package var timeoutSeconds = 10
    package var connections = 1024
    package var drainSeconds = 10
    package var unsigned = false
    package var accessLog = true

    /// What `blurlabel serve ARGUMENTS` asks for.
    package enum Parsed {
        case help(String)
        case run(ServeSettings)
    }

    static let spec = CommandSpec(
        name: "serve",
        summary: "serve labels over HTTP from signed URLs (docs/serve.md)",
        positionals: [],
        options: [
            OptionSpec(
                name: "--listen",
                value: "ADDR:PORT",
                help: "IPv4 address and port (BLURLABEL_LISTEN; default 127.0.0.1:8080)"
            ),
            OptionSpec(
                name: "--workers",
                value: "N",
                help: "rendering threads (BLURLABEL_WORKERS; default: the usable cores)"
            ),
            OptionSpec(
                name: "--queue",
                value: "N",
                help: "renders waiting beyond the workers; more get 503 (BLURLABEL_QUEUE; default 64)"
            ),
            OptionSpec(
                name: "--io-threads",
                value: "N",
                help: "threads reading and writing connections (BLURLABEL_IO_THREADS; default up to 4)"
            ),
            OptionSpec(
                name: "--cache-mb",
                value: "N",
                help: "memory for finished PNGs, 0 for none (BLURLABEL_CACHE_MB; default 64)"
            ),
            OptionSpec(
                name: "--timeout",
                value: "S",
                help:
                    "close a connection idle, or with its request not whole, after S seconds (BLURLABEL_TIMEOUT; default 10)"
            ),
            OptionSpec(
                name: "--max-connections",
                value: "N",
                help: "open connections at most (BLURLABEL_MAX_CONNECTIONS; default 1024)"
            ),
            OptionSpec(
                name: "--drain",
                value: "S",
                help: "on SIGTERM, seconds to finish requests in flight (BLURLABEL_DRAIN; default 10)"
            ),
            OptionSpec(
                name: "--unsigned",
                help: "serve /unsafe/ URLs without a key, on loopback only (BLURLABEL_UNSIGNED=1)"
            ),
            OptionSpec(name: "--no-access-log", help: "no JSON line per request on stderr (BLURLABEL_ACCESS_LOG=0)"),
        ],
        details: """
            Keys come from the environment only: BLURLABEL_KEY and BLURLABEL_SALT (hex; several
            comma-separated pairs for key rotation), BLURLABEL_ENC_KEY (64 hex digits, AES-256-GCM,
            for enc: texts; comma-separated for rotation). URL: /SIGNATURE/name:value/.../TEXT.png with
            TEXT unpadded base64url of the UTF-8 text or enc:CIPHERTEXT. 'blurlabel sign' makes them.
            """
    )

    /// Reads the options, then `environment` for what they leave out.
    package static func parse(_ arguments: [String], environment: (String) -> String?) throws -> Parsed {
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        if parsed.wantsHelp { return .help(spec.help) }
        func value(_ option: String, _ variable: String) -> (text: String, name: String)? {
            if let given = parsed.value(option) { return (given, option) }
            return environment(variable).map { ($0, variable) }
        }
        var settings = ServeSettings()
        do {
            if let (listen, name) = value("--listen", "BLURLABEL_LISTEN") {
                guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...])
                else {
                    throw UsageError(message: "\(name) needs ADDR:PORT (an IPv4 address and a port), got '\(listen)'")
                }
                settings.host = String(listen[..<colon])
                settings.port = port
            }
            func integer(_ option: String, _ variable: String, _ range: ClosedRange<Int>) throws -> Int? {
                guard let (text, name) = value(option, variable) else { return nil }
                return try ValueText.integer(text, option: name, range: range)
            }
            settings.workers = try integer("--workers", "BLURLABEL_WORKERS", 1...256) ?? settings.workers
            settings.queue = try integer("--queue", "BLURLABEL_QUEUE", 1...100_000) ?? settings.queue
            settings.ioThreads = try integer("--io-threads", "BLURLABEL_IO_THREADS", 1...64) ?? settings.ioThreads
            settings.cacheMegabytes =
                try integer("--cache-mb", "BLURLABEL_CACHE_MB", 0...65536) ?? settings.cacheMegabytes
            settings.timeoutSeconds = try integer("--timeout", "BLURLABEL_TIMEOUT", 1...3600) ?? settings.timeoutSeconds
            settings.connections =
                try integer("--max-connections", "BLURLABEL_MAX_CONNECTIONS", 1...100_000) ?? settings.connections
            settings.drainSeconds = try integer("--drain", "BLURLABEL_DRAIN", 0...3600) ?? settings.drainSeconds
        } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        settings.unsigned = parsed.has("--unsigned") || environment("BLURLABEL_UNSIGNED") == "1"
        settings.accessLog = !(parsed.has("--no-access-log") || environment("BLURLABEL_ACCESS_LOG") == "0")
        if settings.unsigned && !settings.host.hasPrefix("127.") {
            throw URLLabelOptions.Failure("--unsigned listens on loopback only (127.0.0.1), not \(settings.host)")
        }
        return .run(settings)
    }
}
