/* sink.c: one of a run's output streams, from the program's pipe to where it goes. */
#ifndef JUDGE_SINK_H
#define JUDGE_SINK_H

#include <stdbool.h>
#include <stdint.h>

struct sink {
    int from;          /* read end of the program's pipe */
    int to;            /* the destination; -1 drops the bytes */
    bool regular_file; /* writes to it never wait for a reader */
    bool splice_ok;
    bool to_pipe;     /* a pipe takes bytes spliced from the program's pipe, page by page */
    bool closed;      /* the pipe reached its end */
    bool reader_lost; /* the destination failed: the rest is undelivered */
    uint64_t limit;   /* bytes kept */
    uint64_t seen;    /* bytes the program wrote */
    int spill;        /* memfd of what waits for the reader, -1 until needed */
    uint64_t spill_len, spill_off;
    uint64_t undelivered;
};
void sink_open(struct sink *s, int from, int to, uint64_t limit);
int sink_drain(struct sink *s); /* 1 when the program wrote past the limit */
int sink_pass(struct sink *s);  /* the same, in one splice when it can */
bool sink_wants_input(const struct sink *s);
bool sink_wants_room(const struct sink *s);
int sink_flush(struct sink *s);
void sink_finish(struct sink *sinks, int count, uint64_t deadline_ns);
void sink_close(struct sink *s);

#endif
