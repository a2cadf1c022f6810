import BlurLabelCLI
import BlurLabelServeSettings
import BlurLabelSystem
import BlurredLabelCore
import HTTPServer

/// `blurlabel-serve edit …`, which `blurlabel edit` execs: the page server on loopback.
enum EditMain {
    static func run(_ arguments: [String]) -> Int32 {
        var settings: EditSettings
        let image: Image
        let token: String
        do {
            switch try EditSettings.parse(arguments) {
            case let .help(text):
                ServeMain.say(text + "\n", to: STDOUT_FILENO)
                return 0
            case let .run(parsed): settings = parsed
            }
            if let idle = try EditSettings.idleSeconds(
                environment: getenv(EditSettings.idleVariable).map { String(cString: $0) }
            ) {
                settings.idleSeconds = idle
            }
            image = try decodeStill(settings.input, maxPixels: PNGDecoder.defaultMaxPixels)
            guard let random = randomToken() else { throw URLLabelOptions.Failure("cannot read /dev/urandom") }
            token = random
        } catch {
            ServeMain.say("blurlabel edit: \(error)\n", to: STDERR_FILENO)
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        let workers = BoundedWorkers(threads: 2, capacity: 4)
        let service: EditService
        let server: HTTPServer
        do {
            service = try EditService(settings: settings, token: token, image: image, workers: workers)
            server = try HTTPServer(HTTPServer.Configuration(edit: settings), handler: { service.handle($0, $1) })
        } catch {
            ServeMain.say("blurlabel edit: \(error)\n", to: STDERR_FILENO)
            return 2
        }
        service.port.withLock { $0 = server.port }
        ServeMain.say(service.url + "\n", to: STDOUT_FILENO)
        ServeMain.say(
            "blurlabel edit: open the URL above; Save writes \(SameFile.resolved(settings.output)); Done, Ctrl-C or an idle hour stops\n",
            to: STDERR_FILENO
        )
        let opened = EditService.now()
        let handoff = settings.open ? openInBrowser(service.url) : nil
        var opener = handoff?.pid
        var page = handoff?.page
        var reason = "Done"
        var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
        while true {
            if let pid = opener, waitpid(pid, nil, WNOHANG) != 0 { opener = nil }  // no zombie left
            // The page has loaded: the browser has read the redirect, which then goes.
            if let file = page, service.lastRequest.withLock({ $0 }) > opened {
                file.remove()
                page = nil
            }
            let received = sigtimedwait(&stopSignals, nil, &wait)
            if received > 0 {
                reason = "signal \(received)"
                break
            }
            if service.done.withLock({ $0 }) {
                usleep(100_000)  // Done's own response goes out first.
                break
            }
            if EditService.now() - service.lastRequest.withLock({ $0 }) > settings.idleSeconds {
                let idle = settings.idleSeconds
                reason = "no request for \(idle == idle.rounded() ? String(Int(idle)) : String(idle)) seconds"
                break
            }
        }
        page?.remove()
        server.shutdown(drainSeconds: 2)
        let idle = workers.drain(seconds: 1)
        ServeMain.say("blurlabel edit: stopped (\(reason))\n", to: STDERR_FILENO)
        // A preview still running is abandoned: leave without running exit handlers under it.
        if !idle { _exit(0) }
        return 0
    }

    /// 32 hexadecimal digits from the kernel's random source.
    static func randomToken() -> String? {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        guard count == 16 else { return nil }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Starts `program` (`xdg-open`, looked up on `PATH`) on a new private file that redirects
    /// to `url`, so the token is in no process's arguments (which `ps` shows every user), and
    /// returns its process id (not waited for here) and the file, which the caller removes once
    /// the page has been loaded (or at exit); nil when either cannot be made. It and the browser
    /// it may start get no signal blocked and SIGPIPE's default action: this server's own
    /// settings (SIGTERM and SIGINT blocked for `sigtimedwait`, SIGPIPE ignored) would otherwise
    /// pass to them through exec.
    static func openInBrowser(_ url: String, program: String = "xdg-open") -> (pid: pid_t, page: BrowserHandoff)? {
        let page: BrowserHandoff
        do { page = try BrowserHandoff(redirectingTo: url) } catch {
            ServeMain.say("blurlabel edit: \(error); open the URL yourself\n", to: STDERR_FILENO)
            return nil
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let arguments = [program, page.path]
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        guard posix_spawnp(&pid, program, nil, &attributes, pointers, environ) == 0 else {
            page.remove()
            ServeMain.say("blurlabel edit: cannot run \(program); open the URL yourself\n", to: STDERR_FILENO)
            return nil
        }
        return (pid, page)
    }
}
