#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Transport helpers (helper "http"): libmicrohttpd's variadic entry points, wrapped so Swift can call
   them. Nothing here holds logic; every symbol is prefixed sesame_. */
#ifndef SESAME_CMICROHTTPD_TRANSPORT_H
#define SESAME_CMICROHTTPD_TRANSPORT_H
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/* MHD_start_daemon with an accept policy and every option given as one MHD_OPTION_ARRAY
   (terminated by MHD_OPTION_END). */
static inline struct MHD_Daemon *sesame_MHD_start_daemon(unsigned int flags, uint16_t port,
                                                         MHD_AcceptPolicyCallback policy, void *policy_cls,
                                                         MHD_AccessHandlerCallback handler, void *handler_cls,
                                                         struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, policy, policy_cls, handler, handler_cls, MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/* The connection's socket, or -1 if unknown. */
static inline int sesame_MHD_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/* The socket context set in the connection-notification callback, or NULL. */
static inline void *sesame_MHD_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* An IPv4/IPv6 socket address as text (inet_ntop) into buffer; returns 0, or -1 if not IP. */
static inline int sesame_sockaddr_ip(const struct sockaddr *address, char *buffer, size_t buffer_size) {
    if (address == NULL || buffer_size < INET6_ADDRSTRLEN) return -1;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, buffer, (socklen_t)buffer_size) == NULL ? -1 : 0;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)buffer_size) == NULL ? -1 : 0;
    }
    return -1;
}

/* The port the daemon listens on (the real one when 0 was asked for); 0 if unknown. */
static inline uint16_t sesame_MHD_daemon_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The peer's IP address as text (inet_ntop) into buffer; returns 0, or -1 if unknown. */
static inline int sesame_MHD_connection_client_ip(struct MHD_Connection *connection, char *buffer,
                                                  size_t buffer_size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection,
                                                                   MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return sesame_sockaddr_ip(info->client_addr, buffer, buffer_size);
}
/* Milliseconds since the kernel last received data on TCP socket fd (TCP_INFO's
   tcpi_last_data_recv): how long a fully arrived request has waited for its worker. -1 if the
   socket is not TCP or the call fails. */
static inline long long sesame_tcp_last_data_received_ms(int fd) {
    struct tcp_info info;
    socklen_t length = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    if (length < (socklen_t)(offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof(info.tcpi_last_data_recv)))
        return -1;
    return (long long)info.tcpi_last_data_recv;
}
/* Milliseconds since data was last sent on TCP socket fd (TCP_INFO's tcpi_last_data_sent), on the
   kernel's clock that sesame_tcp_last_data_received_ms reads; -1 if unknown. */
static inline long long sesame_tcp_last_data_sent_ms(int fd) {
    struct tcp_info info;
    socklen_t length = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    if (length < (socklen_t)(offsetof(struct tcp_info, tcpi_last_data_sent) + sizeof(info.tcpi_last_data_sent)))
        return -1;
    return (long long)info.tcpi_last_data_sent;
}
#endif
