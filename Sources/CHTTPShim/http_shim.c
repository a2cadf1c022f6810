#define _GNU_SOURCE
#include "http_shim.h"

#include <poll.h>
#include <string.h>
#include <sys/socket.h>

/// Leaves the path and query as sent: no percent-decoding (the signature covers the raw bytes).
static size_t keep_raw(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strlen(text);
}

struct MHD_Daemon *bl_http_start(const struct bl_http_settings *settings, MHD_AccessHandlerCallback handler,
                                 void *handler_context, MHD_RequestCompletedCallback completed,
                                 void *completed_context, MHD_NotifyConnectionCallback connections,
                                 void *connections_context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | MHD_USE_TURBO;
    if (settings->address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(
        flags, settings->port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, settings->address,
        MHD_OPTION_THREAD_POOL_SIZE, settings->threads,
        MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_raw, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_NOTIFY_CONNECTION, connections, connections_context,
        MHD_OPTION_END);
}

uint16_t bl_http_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int bl_http_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

const short bl_http_poll_peer_closed = POLLRDHUP;
