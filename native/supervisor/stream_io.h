/* Whole-buffer reads and writes on a pipe or stream socket, riding out EINTR: the supervisor
 * and a run's child speak over a socket pair (the handshake, the launch) in messages that may
 * arrive in pieces. And the closing of a descriptor that may be absent (-1). */
#ifndef JUDGE_STREAM_IO_H
#define JUDGE_STREAM_IO_H

#include <stddef.h>

/* Reads until `len` bytes or end of stream; returns how many were read (less than `len` at end
 * of stream or on an error). */
int read_full(int fd, void *buf, size_t len);

/* Writes all `len` bytes; 0, or -1 on an error. */
int write_full(int fd, const void *buf, size_t len);

/* Closes *fd unless it is -1, and leaves -1 there. */
void close_fd(int *fd);

#endif
