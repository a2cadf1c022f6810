import BlurLabelCLI
import BlurLabelSystem
import BlurredLabelCore

/// `blurlabel serve`'s settings, each from its option, else its environment variable, else the
/// default. Parsed here, by the command line's parser and value checks; the server itself is
/// the separate `blurlabel-serve` executable (Package.swift says why).
package struct ServeSettings: Sendable {
    /// IPv4 (`127.0.0.1`) or IPv6 without brackets (`::1`).
    package var host = "127.0.0.1"
    package var port: UInt16 = 8080
    package var workers = ProcessorCount.available()
    package var queue = 64
    package var ioThreads = min(ProcessorCount.available(), 4)
    package var cacheMegabytes = 64
    /// One render's working memory at most (`--max-render-mb`).
    package var renderBudget = RenderBudget.standard
    package var timeoutSeconds = 10
    package var connections = 1024
    package var drainSeconds = 10
    package var shutdownDelaySeconds = 0
    package var unsigned = false
    package var accessLog = true
    /// Where `/metrics` is served instead of the label port (`--metrics-listen`); nil: the label port.
    package var metricsAddress: (host: String, port: UInt16)? = nil
    /// Labels are served under this path (`/labels`), which the signature does not cover; "" for none.
    package var pathPrefix = ""
    /// The presets URLs may name (`--preset`, `BLURLABEL_PRESETS`) and `--only-presets`.
    package var presets = Presets()

    /// Every setting at its default (the options' defaults are these).
    package init() {}

    /// What `blurlabel serve ARGUMENTS` asks for.
    package enum Parsed {
        case help(String)
        case run(ServeSettings)
    }

    /// An option of `serve` and the environment variable read when it is not given.
    struct Setting<Value: Sendable>: Sendable {
        let option: Option<Value>
        let variable: String

        /// The option's row in the table: its help names the variable.
        var spec: OptionSpec {
            let (describe, variable) = (option.describe, variable)
            return option.with(help: describe().summary + "; env " + variable).spec
        }

        /// The option's value, else the variable's (its messages name the variable), else the default.
        func value(_ options: GivenOptions, _ environment: (String) -> String?) throws -> Value {
            if option.isGiven(in: options) { return try option.value(in: options) }
            guard let text = environment(variable) else { return option.defaultValue }
            return try option.value(of: .text(text), named: variable)
        }
    }

    static let defaults = ServeSettings()

    static let listen = Setting(
        option: Option<String?>(
            "listen",
            .text("ADDR:PORT"),
            shown: "\(defaults.host):\(defaults.port)",
            help: "address and port: IPv4 (0.0.0.0:8080) or IPv6 in brackets ([::]:8080)"
        ),
        variable: "BLURLABEL_LISTEN"
    )
    static let workers = Setting(
        option: Option(
            "workers",
            .integer("N", 1...256),
            default: defaults.workers,
            shown: "the usable cores",
            help: "rendering threads"
        ),
        variable: "BLURLABEL_WORKERS"
    )
    static let queue = Setting(
        option: Option(
            "queue",
            .integer("N", 1...100_000),
            default: defaults.queue,
            help: "renders waiting beyond the workers; more get 503"
        ),
        variable: "BLURLABEL_QUEUE"
    )
    static let ioThreads = Setting(
        option: Option(
            "io-threads",
            .integer("N", 1...64),
            default: defaults.ioThreads,
            shown: "the usable cores, at most 4",
            help: "threads reading and writing connections"
        ),
        variable: "BLURLABEL_IO_THREADS"
    )
    static let cacheMegabytes = Setting(
        option: Option(
            "cache-mb",
            .integer("N", 0...65536),
            default: defaults.cacheMegabytes,
            help: "memory for finished PNGs, 0 for none"
        ),
        variable: "BLURLABEL_CACHE_MB"
    )
    static let renderMegabytes = Setting(
        option: CommonOptions.maxRenderMegabytes.with(
            help: "refuse a label whose render would take more than MB, before drawing it (docs/serve.md, Under load)"
        ),
        variable: "BLURLABEL_MAX_RENDER_MB"
    )
    static let timeout = Setting(
        option: Option(
            "timeout",
            .integer("S", 1...3600),
            default: defaults.timeoutSeconds,
            help: "close a connection idle, or with its request not whole, after S seconds"
        ),
        variable: "BLURLABEL_TIMEOUT"
    )
    static let connections = Setting(
        option: Option(
            "max-connections",
            .integer("N", 1...100_000),
            default: defaults.connections,
            help: "open connections at most"
        ),
        variable: "BLURLABEL_MAX_CONNECTIONS"
    )
    static let drain = Setting(
        option: Option(
            "drain",
            .integer("S", 0...3600),
            default: defaults.drainSeconds,
            help: "on SIGTERM, seconds to finish requests in flight"
        ),
        variable: "BLURLABEL_DRAIN"
    )
    static let shutdownDelay = Setting(
        option: Option(
            "shutdown-delay",
            .integer("S", 0...600),
            default: defaults.shutdownDelaySeconds,
            help: "on SIGTERM, seconds to keep accepting with /readyz at 503 before the drain"
        ),
        variable: "BLURLABEL_SHUTDOWN_DELAY"
    )
    static let metricsListen = Setting(
        option: Option<String?>(
            "metrics-listen",
            .text("ADDR:PORT"),
            shown: "the label port",
            help: "serve /metrics on this address only (as --listen), not on the label port"
        ),
        variable: "BLURLABEL_METRICS_LISTEN"
    )
    static let pathPrefix = Setting(
        option: Option<String?>(
            "path-prefix",
            .text("/PREFIX"),
            shown: "none",
            help: "serve labels at /PREFIX/SIGNATURE/...; the signature covers the path after /PREFIX"
        ),
        variable: "BLURLABEL_PATH_PREFIX"
    )
    static let preset = Option(
        "preset",
        .repeated("NAME=OPTIONS"),
        default: [],
        shown: "none",
        help:
            "options a URL names as preset:NAME, written as in a URL (tag=size:32/radius:6); env BLURLABEL_PRESETS (NAME=OPTIONS;NAME=OPTIONS)"
    )
    static let onlyPresets = Option(
        flag: "only-presets",
        help: "refuse every URL option but preset:NAME (BLURLABEL_ONLY_PRESETS=1)"
    )
    static let unsigned = Option(
        flag: "unsigned",
        help: "serve /unsafe/ URLs without a key, on loopback only (BLURLABEL_UNSIGNED=1)"
    )
    static let noAccessLog = Option(
        flag: "no-access-log",
        help: "no JSON line per request on stderr (BLURLABEL_ACCESS_LOG=0)"
    )

    static let spec = CommandSpec(
        name: "serve",
        summary: "serve labels over HTTP from signed URLs (docs/serve.md)",
        positionals: [],
        options: [
            listen.spec, workers.spec, queue.spec, ioThreads.spec, cacheMegabytes.spec, renderMegabytes.spec,
            timeout.spec, connections.spec, drain.spec, shutdownDelay.spec, metricsListen.spec, pathPrefix.spec,
            preset.spec, onlyPresets.spec,
            unsigned.spec, noAccessLog.spec,
        ],
        details: """
            Keys come from the environment only: BLURLABEL_KEY and BLURLABEL_SALT (hex; several
            comma-separated pairs for key rotation), BLURLABEL_ENC_KEY (64 hex digits, AES-256-GCM,
            for enc: texts; comma-separated for rotation). URL: /SIGNATURE/name:value/.../TEXT.png with
            TEXT unpadded base64url of the UTF-8 text or enc:CIPHERTEXT; .webp and .avif name those
            formats (quality:N), no extension (or .auto) picks AVIF, WebP or PNG by Accept (Vary:
            Accept). 'blurlabel sign' makes them;
            preset:NAME stands for a --preset's options. /SIGNATURE/info/name:value/.../TEXT.json
            answers the label's width and height as JSON. Routes: /healthz (alive), /readyz (503
            once SIGTERM starts the stop), /metrics (or on --metrics-listen). docs/serve.md.
            """
    )

    /// Reads the options, then `environment` for what they leave out.
    package static func parse(_ arguments: [String], environment: (String) -> String?) throws -> Parsed {
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        }
        if parsed.wantsHelp { return .help(spec.help) }
        let options = GivenOptions(parsed)
        var settings = ServeSettings()
        do {
            if let (host, port) = try address(listen, options, environment) {
                settings.host = host
                settings.port = port
            }
            settings.metricsAddress = try address(metricsListen, options, environment)
            if let metrics = settings.metricsAddress, metrics.port != 0, metrics == (settings.host, settings.port) {
                throw UsageError(message: "--metrics-listen must differ from --listen")
            }
            if let prefix = try pathPrefix.value(options, environment) {
                guard Self.isPathPrefix(prefix) else {
                    let name = pathPrefix.option.isGiven(in: options) ? pathPrefix.option.name : pathPrefix.variable
                    throw UsageError(
                        message:
                            "\(name) needs /NAME or /NAME/NAME... (letters, digits, '-', '_', '~'; no '/' at the end), got '\(prefix)'"
                    )
                }
                settings.pathPrefix = prefix
            }
            settings.workers = try workers.value(options, environment)
            settings.queue = try queue.value(options, environment)
            settings.ioThreads = try ioThreads.value(options, environment)
            settings.cacheMegabytes = try cacheMegabytes.value(options, environment)
            // The option's range is the budget's.
            settings.renderBudget = try RenderBudget(megabytes: renderMegabytes.value(options, environment))
            settings.timeoutSeconds = try timeout.value(options, environment)
            settings.connections = try connections.value(options, environment)
            settings.drainSeconds = try drain.value(options, environment)
            settings.shutdownDelaySeconds = try shutdownDelay.value(options, environment)
            settings.presets = try presets(options, only: parsed.has(onlyPresets.name), environment)
        } catch let error as UsageError {
            throw URLLabelOptions.Failure(error.message)
        } catch {
            throw URLLabelOptions.Failure("\(error)")
        }
        settings.unsigned = parsed.has(unsigned.name) || environment("BLURLABEL_UNSIGNED") == "1"
        settings.accessLog = !(parsed.has(noAccessLog.name) || environment("BLURLABEL_ACCESS_LOG") == "0")
        if settings.unsigned && !Self.isLoopback(settings.host) {
            throw URLLabelOptions.Failure(
                "\(unsigned.name) listens on loopback only (127.0.0.0/8 or [::1]), not \(settings.host)"
            )
        }
        return .run(settings)
    }

    /// The presets of `BLURLABEL_PRESETS`, then the `--preset` options (a name given again
    /// replaces the earlier definition); `--only-presets` or `BLURLABEL_ONLY_PRESETS=1` needs one.
    static func presets(
        _ options: GivenOptions,
        only: Bool,
        _ environment: (String) -> String?
    ) throws -> Presets {
        var presets = Presets()
        if let list = environment("BLURLABEL_PRESETS") { try presets.add(list: list, from: "BLURLABEL_PRESETS") }
        for definition in try preset.value(in: options) { try presets.add(definition, from: preset.name) }
        presets.only = only || environment("BLURLABEL_ONLY_PRESETS") == "1"
        if presets.only && presets.names.isEmpty {
            throw URLLabelOptions.Failure("\(onlyPresets.name) needs at least one --preset (or BLURLABEL_PRESETS)")
        }
        return presets
    }

    /// The address a listen setting gives (its option, else its variable), checked; nil when neither is given.
    static func address(
        _ setting: Setting<String?>,
        _ options: GivenOptions,
        _ environment: (String) -> String?
    ) throws -> (host: String, port: UInt16)? {
        guard let text = try setting.value(options, environment) else { return nil }
        let name = setting.option.isGiven(in: options) ? setting.option.name : setting.variable
        guard let address = Self.address(text) else {
            throw UsageError(
                message:
                    "\(name) needs ADDR:PORT (an IPv4 address, or an IPv6 address in brackets, and a port from 0 to 65535), got '\(text)'"
            )
        }
        return address
    }

    /// Whether `text` is a path prefix: `/` and one or more segments of RFC 3986's unreserved
    /// characters (no `.` or `..` segment, no `/` at the end), so nothing in it needs encoding.
    package static func isPathPrefix(_ text: String) -> Bool {
        guard text.hasPrefix("/"), !text.hasSuffix("/") else { return false }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && segment.unicodeScalars.allSatisfy { scalar in
                    scalar.isASCII
                        && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                            || "-._~".unicodeScalars.contains(scalar))
                }
        }
    }

    /// `ADDR:PORT` with an IPv4 address, or `[ADDR]:PORT` with an IPv6 one: the address (without
    /// brackets) and the port; nil when it is neither (a host name, say: no lookups here).
    package static func address(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
            text[text.index(after: colon)...].allSatisfy(\.isASCII)
        else { return nil }
        var host = text[..<colon]
        var buffer = in6_addr()
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
            guard inet_pton(AF_INET6, String(host), &buffer) == 1 else { return nil }
        } else {
            guard inet_pton(AF_INET, String(host), &buffer) == 1 else { return nil }
        }
        return (String(host), port)
    }

    /// Whether `host` (as `address` gives it) is a loopback address: 127.0.0.0/8 or ::1.
    package static func isLoopback(_ host: String) -> Bool {
        var four = in_addr()
        if inet_pton(AF_INET, host, &four) == 1 { return UInt32(bigEndian: four.s_addr) >> 24 == 127 }
        var six = in6_addr()
        guard inet_pton(AF_INET6, host, &six) == 1 else { return false }
        return withUnsafeBytes(of: &six) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}
