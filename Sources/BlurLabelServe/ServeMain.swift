import BlurLabelCLI
import BlurLabelServeSettings
import BlurLabelSystem
import BlurredLabelCore
import HTTPServer

/// `blurlabel-serve serve …`, `sign …` and `edit …`, which `blurlabel serve`, `sign` and
/// `edit` exec: the HTTP and crypto libraries load only here.
public enum ServeMain {
    /// Runs `arguments` (`run`) and ends the process with the exit status: `blurlabel-serve`'s main.
    package static func exitAfterRunning(_ arguments: [String]) -> Never {
        exit(run(arguments))
    }

    public static func run(_ arguments: [String]) -> Int32 {
        let environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
        switch arguments.first {
        case "serve": return serve(Array(arguments.dropFirst()), environment: environment)
        case "sign": return sign(Array(arguments.dropFirst()), environment: environment)
        case "edit": return EditMain.run(Array(arguments.dropFirst()))
        default:
            say(
                "blurlabel-serve: the command must be serve, sign or edit (run by 'blurlabel serve', 'sign' or 'edit')\n",
                to: STDERR_FILENO
            )
            return 2
        }
    }

    static func say(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 { break }
            offset += written
        }
        bytes = []
    }

    static func sign(_ arguments: [String], environment: (String) -> String?) -> Int32 {
        do {
            let request: SignRequest
            switch try SignRequest.parse(arguments, environment: environment) {
            case let .help(text):
                say(text + "\n", to: STDOUT_FILENO)
                return 0
            case let .sign(parsed): request = parsed
            }
            let keys = try Keys(environment: environment)
            let path = try path(request, keys: keys)
            if request.json {
                let size = try URLLabelOptions.size(request.options, text: request.text)
                say(LabelInfo.json(path: path, width: size.width, height: size.height) + "\n", to: STDOUT_FILENO)
            } else {
                say(path + "\n", to: STDOUT_FILENO)
            }
            return 0
        } catch {
            say("blurlabel sign: \(error)\n", to: STDERR_FILENO)
            return 2
        }
    }

    /// The signed path `sign` prints for `request`: `/SIGNATURE/options…/TEXT.png`.
    static func path(_ request: SignRequest, keys: Keys) throws -> String {
        var textSegment: String
        if request.encrypt {
            guard let key = keys.encryption.first else {
                throw Keys.Failure(description: "--encrypt needs BLURLABEL_ENC_KEY (64 hexadecimal digits)")
            }
            guard let sealed = EncryptedText.segment(request.text, key: key) else {
                throw Keys.Failure(description: "encryption failed")
            }
            textSegment = sealed
        } else {
            textSegment = Base64URL.encode(Array(request.text.utf8))
        }
        let rest = URLPairs.segments(request.pairs) + "/" + textSegment + ".png"
        textSegment = ""
        let signature: String
        if request.unsigned {
            signature = "unsafe"
        } else {
            guard let pair = keys.signing.first else {
                throw Keys.Failure(
                    description: "no BLURLABEL_KEY and BLURLABEL_SALT in the environment (or give --unsigned)"
                )
            }
            signature = Keys.signature(of: rest, key: pair.key, salt: pair.salt)
        }
        return "/\(signature)\(rest)"
    }

    static func serve(_ arguments: [String], environment: (String) -> String?) -> Int32 {
        let settings: ServeSettings
        let keys: Keys
        do {
            switch try ServeSettings.parse(arguments, environment: environment) {
            case let .help(text):
                say(text + "\n", to: STDOUT_FILENO)
                return 0
            case let .run(parsed): settings = parsed
            }
            keys = try Keys(environment: environment)
            if !settings.unsigned && keys.signing.isEmpty {
                throw Keys.Failure(
                    description:
                        "no BLURLABEL_KEY and BLURLABEL_SALT in the environment: give them (hex), or --unsigned to serve /unsafe/ URLs on loopback"
                )
            }
        } catch {
            say("blurlabel serve: \(error)\n", to: STDERR_FILENO)
            return 2
        }
        // SIGTERM and SIGINT wait for `sigwait` below: blocked here, before any thread starts, so
        // every thread inherits the mask. A closed client socket must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        let instance: ServeInstance
        do { instance = try ServeInstance(settings: settings, keys: keys) } catch {
            say("blurlabel serve: \(error)\n", to: STDERR_FILENO)
            return 2
        }
        let (workers, started) = (instance.workers, instance.labels)
        let listening = "http://" + HTTPServer.authority(settings.host, started.port)
        var fields: [(String, String)] = [("listen", AccessLog.quoted(listening))]
        var line =
            "listening on \(listening) (\(settings.workers) workers, \(settings.unsigned ? "unsigned /unsafe/ paths" : "\(keys.signing.count) signing key(s)"))"
        if !settings.pathPrefix.isEmpty {
            line += "; labels under \(settings.pathPrefix)/"
            fields.append(("path_prefix", AccessLog.quoted(settings.pathPrefix)))
        }
        if let metrics = instance.metrics, let address = settings.metricsAddress {
            let url = "http://" + HTTPServer.authority(address.host, metrics.port) + "/metrics"
            line += "; metrics on \(url)"
            fields.append(("metrics", AccessLog.quoted(url)))
        }
        say("blurlabel serve: \(line)\n", to: STDOUT_FILENO)
        AccessLog.event(
            "start",
            line,
            fields + [("workers", String(settings.workers)), ("version", AccessLog.quoted(CommandLineTool.version))]
        )
        var received: Int32 = 0
        while sigwait(&stopSignals, &received) != 0 {}
        AccessLog.event(
            "stopping",
            "stopping (signal \(received)): finishing requests in flight",
            [("signal", String(received))]
        )
        // /readyz says 503 from here on; the listener stays open for --shutdown-delay so that a
        // load balancer sees it and stops sending before connections are refused.
        started.beginDrain()
        if settings.shutdownDelaySeconds > 0 { usleep(UInt32(settings.shutdownDelaySeconds) * 1_000_000) }
        let finished = started.shutdown(drainSeconds: Double(settings.drainSeconds))
        // Every client is answered now; renders still running are abandoned (queued ones that
        // nobody waits for are skipped at once).
        let idle = workers.drain(seconds: 1)
        _ = instance.metrics?.shutdown(drainSeconds: 0)
        AccessLog.event(
            "stopped",
            "stopped\(finished ? "" : " (requests still running at --drain were answered 503)")",
            [("complete", String(finished))]
        )
        // Leave without running exit handlers under a render that may still be running.
        if !idle { _exit(0) }
        return 0
    }
}
