import BlurLabelServeSettings
import BlurredLabelCore
import HTTPServer

/// A started `blurlabel serve`: the rendering workers, the label service behind its `ServeFront`
/// on the label address, and with `--metrics-listen` a second server that answers `/metrics` only.
final class ServeInstance: Sendable {
    let workers: BoundedWorkers
    let service: LabelService
    let labels: HTTPServer
    let metrics: HTTPServer?

    init(settings: ServeSettings, keys: Keys) throws {
        let workers = BoundedWorkers(threads: settings.workers, capacity: settings.queue)
        let server = LockedValue<HTTPServer?>(nil)
        let service = LabelService(
            keys: keys,
            unsigned: settings.unsigned,
            presets: settings.presets,
            cacheBytes: settings.cacheMegabytes << 20,
            budget: settings.renderBudget,
            workers: workers,
            inFlight: { server.withLock { $0?.inFlight ?? 0 } },
            draining: { server.withLock { $0?.isDraining ?? false } }
        )
        let log = settings.accessLog
        let counters = service.metrics
        let front = ServeFront(
            prefix: settings.pathPrefix,
            unsigned: settings.unsigned,
            metricsElsewhere: settings.metricsAddress != nil
        )
        labels = try HTTPServer(
            HTTPServer.Configuration(labels: settings),
            handler: { front.handle($0, $1, service) },
            observer: { record in
                counters.record(record)
                if log { AccessLog.write(record) }
            }
        )
        let started = labels
        server.withLock { $0 = started }
        if let address = settings.metricsAddress {
            do {
                metrics = try HTTPServer(HTTPServer.Configuration(metrics: address, settings: settings)) {
                    request,
                    responder in
                    request.path == "/metrics"
                        ? service.handle(request, responder)
                        : .text(.notFound, "not found: this address serves /metrics only")
                }
            } catch {
                _ = started.shutdown(drainSeconds: 0)
                throw error
            }
        } else {
            metrics = nil
        }
        self.workers = workers
        self.service = service
    }
}
