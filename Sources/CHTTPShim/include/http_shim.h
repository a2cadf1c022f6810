#ifndef BL_HTTP_SHIM_H
#define BL_HTTP_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// What the Swift layer asks of libmicrohttpd's daemon. MHD_start_daemon takes its options as C
/// variadic arguments, which Swift cannot pass: this shim is the one place they are spelled.
struct bl_http_settings {
    /// The socket address to listen on (IPv4 or IPv6, port included; made by the Swift layer).
    const struct sockaddr *address;
    /// The same port, host byte order (0: the kernel chooses).
    uint16_t port;
    /// Threads polling the connections (epoll), each serving its share.
    unsigned int threads;
    unsigned int connection_limit;
    /// Seconds a connection may stay idle (no byte read or written) before it is closed.
    unsigned int timeout_seconds;
    /// Bytes of memory per connection for its request line and headers (beyond it: 414 or 431).
    size_t connection_memory;
};

/// Starts the daemon; NULL when it cannot (the port is taken, say). An IPv6
/// address listens on IPv6 only (IPV6_V6ONLY, as nginx's `listen [::]:80`). The access handler, the
/// completion callback and an unescaper that leaves the path as the client sent it (signatures
/// are over the raw path).
struct MHD_Daemon *bl_http_start(const struct bl_http_settings *settings, MHD_AccessHandlerCallback handler,
                                 void *handler_context, MHD_RequestCompletedCallback completed,
                                 void *completed_context, MHD_NotifyConnectionCallback connections,
                                 void *connections_context);

/// The connection's socket (MHD_get_connection_info is variadic too), or -1.
int bl_http_connection_socket(struct MHD_Connection *connection);

/// poll(2)'s event for "the peer closed its side" (POLLRDHUP, a GNU extension Swift's Glibc does
/// not declare): a suspended connection whose client went away is noticed by it.
extern const short bl_http_poll_peer_closed;

/// The port the daemon listens on (for port 0: the one the kernel chose), or 0.
uint16_t bl_http_port(struct MHD_Daemon *daemon);

#endif
