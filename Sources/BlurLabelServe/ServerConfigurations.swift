import BlurLabelServeSettings
import HTTPServer

/// The listeners' configurations, made from the settings: `serve`'s defaults are its options'
/// (`ServeSettings`), written nowhere else.
extension HTTPServer.Configuration {
    /// The label port: `--listen`, `--io-threads`, `--max-connections` and `--timeout`.
    init(labels settings: ServeSettings) {
        self.init(
            host: settings.host,
            port: settings.port,
            threads: settings.ioThreads,
            connectionLimit: settings.connections,
            idleTimeoutSeconds: settings.timeoutSeconds
        )
    }

    /// `--metrics-listen`'s address: one thread and 64 connections (a scraper or two), `--timeout`.
    init(metrics address: (host: String, port: UInt16), settings: ServeSettings) {
        self.init(
            host: address.host,
            port: address.port,
            threads: 1,
            connectionLimit: 64,
            idleTimeoutSeconds: settings.timeoutSeconds
        )
    }

    /// `edit`'s page, for one browser on loopback: one thread, 64 connections, 30 seconds.
    init(edit settings: EditSettings) {
        self.init(host: settings.host, port: settings.port, threads: 1, connectionLimit: 64, idleTimeoutSeconds: 30)
    }
}
